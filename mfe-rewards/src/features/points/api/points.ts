import { http, type Balances, type ExpiringList, type PointsPage, type TierProgressResponse } from '@portal/runtime';

export const POINTS_PER_PAGE = 20;

/** GET /api/profile/balances: the points balance (the sum of the ledger). */
export const getBalances = (signal?: AbortSignal) => http<Balances>('/api/profile/balances', { signal });

/** GET /api/profile/tiers/progress: the current tier, the next one and how far it is. */
export const getTierProgress = (signal?: AbortSignal) => http<TierProgressResponse>('/api/profile/tiers/progress', { signal });

/** GET /api/profile/points/expiring: the next (at most 3) days on which points expire, soonest first. */
export const getExpiring = (signal?: AbortSignal) => http<ExpiringList>('/api/profile/points/expiring', { signal });

/** GET /api/profile/points: one page of the ledger, newest first. */
export function getPointsPage(page: number, signal?: AbortSignal): Promise<PointsPage> {
  const query = new URLSearchParams({ sort: '-issued_at', page: String(page), per_page: String(POINTS_PER_PAGE) });
  return http<PointsPage>(`/api/profile/points?${query}`, { signal });
}

/** The next page to ask for, or undefined once the whole ledger is loaded. */
export function nextPointsPage(last: PointsPage): number | undefined {
  const meta = last?.meta;
  if (!meta || !last.data?.length) return undefined;
  return meta.page * meta.per_page < meta.total ? meta.page + 1 : undefined;
}
