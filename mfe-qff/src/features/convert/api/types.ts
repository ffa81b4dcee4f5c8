// POST /api/qff/redeem and GET /api/qff/conversions (docs/api-contract.md, "Issue 10").

/**
 * completed: the member's points were debited and the airline credited. pending: the airline did
 * not answer in time; the points stay held and the conversion settles by itself. failed: the
 * airline refused; the held points were given back.
 */
export type ConversionStatus = 'completed' | 'pending' | 'failed';

export interface Conversion {
  id: string;
  status: ConversionStatus;
  /** Member points converted (a whole number of blocks). */
  points: number;
  airline_points: number;
  blocks: number;
  qff_number: string;
  /** RFC 3339. */
  created_at: string;
  settled_at: string | null;
  /** Why it failed or waits, for the member. */
  message: string | null;
  /** The member's points just after this answer (only on the redeem answer). */
  balance?: number | null;
}

export interface QffRedeemRequest {
  points: number;
}

/** 200 (completed) or 202 (pending); a failed one is a 422 error whose body may carry it too. */
export interface ConversionResponse {
  data: Conversion;
}

export interface ConversionList {
  data: Conversion[];
}
