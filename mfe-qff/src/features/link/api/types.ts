// POST /api/qff/validate and POST /api/qff/link (docs/api-contract.md, "Issue 10").

export interface QffLinkRequest {
  qff_number: string;
  /** The last name on the airline account; the server uses the member's own when it is left out. */
  last_name?: string;
}

/** Who the airline says the number belongs to (nothing is stored by validating). */
export interface QffMember {
  qff_number: string;
  first_name: string;
  last_name: string;
}

export interface QffValidateResponse {
  data: QffMember;
}
