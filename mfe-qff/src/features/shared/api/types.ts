// REST shapes of the frequent-flyer routes shared by this MFE's features (docs/api-contract.md,
// "Issue 10"). Written by hand: the generated schema (@portal/runtime's schema.d.ts) does not have
// the qff routes yet. Each feature's own request and answer shapes are in its api/types.ts.

/** The tenant's conversion rule (config components.qantas.redemption), as the status carries it. */
export interface QffRedemption {
  /** 'off': no conversion. */
  type: 'points' | 'off';
  /** Member points per block; a conversion is a whole number of blocks. */
  block_size: number;
  /** Airline points each block becomes. */
  airline_points_per_block: number;
}

export interface QffLinked {
  linked: true;
  qff_number: string;
  last_name: string;
  /** RFC 3339. */
  linked_at: string;
  /** The airline balance read from the partner; null when it could not be read. */
  points: number | null;
  /** Why `points` is null: a sentence for the member. */
  partner_error: string | null;
  redemption: QffRedemption;
}

export interface QffNotLinked {
  linked: false;
  redemption: QffRedemption;
}

/** GET /api/qff/points (no `data` wrapper); also the answer of POST and DELETE /api/qff/link. */
export type QffStatus = QffLinked | QffNotLinked;
