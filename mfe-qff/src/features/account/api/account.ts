import { http } from '@portal/runtime';
import type { QffStatus } from '../../shared/api/types';
import type { QffHistoryPage, QffUnlinkRequest, UnlinkReason } from './types';

export const UNLINK_REASONS: readonly UnlinkReason[] = ['wrong_account', 'not_using', 'privacy', 'other'];
export const COMMENT_MAX = 500;
export const HISTORY_PER_PAGE = 20;

/** DELETE /api/qff/link: unlinks, keeping the reason; answers the new (not linked) status. */
export const unlinkQff = (body: QffUnlinkRequest) => http<QffStatus>('/api/qff/link', { method: 'DELETE', body });

/** GET /api/qff/history: one page of the airline account's activity, newest first. */
export function getQffHistory(page: number, signal?: AbortSignal): Promise<QffHistoryPage> {
  const query = new URLSearchParams({ page: String(page), per_page: String(HISTORY_PER_PAGE) });
  return http<QffHistoryPage>(`/api/qff/history?${query}`, { signal });
}

/** The next page to ask for, or undefined once everything is loaded. */
export function nextHistoryPage(last: QffHistoryPage): number | undefined {
  const meta = last?.meta;
  if (!meta || !last.data?.length) return undefined;
  return meta.page * meta.per_page < meta.total ? meta.page + 1 : undefined;
}
