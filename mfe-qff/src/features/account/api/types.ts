// DELETE /api/qff/link and GET /api/qff/history (docs/api-contract.md, "Issue 10").

export type UnlinkReason = 'wrong_account' | 'not_using' | 'privacy' | 'other';

export interface QffUnlinkRequest {
  reason: UnlinkReason;
  /** At most 500 characters. */
  comment?: string;
}

/** One entry of the airline account's activity. */
export interface QffActivity {
  id: string;
  /** `YYYY-MM-DD`. */
  date: string;
  description: string;
  points: number;
  category: 'partner' | 'flight' | 'other';
}

export interface QffHistoryPage {
  data: QffActivity[];
  meta: { page: number; per_page: number; total: number };
}
