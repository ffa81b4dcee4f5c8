import { http, type Balances } from '@portal/runtime';

/** GET /api/profile/balances: the member's own points (what a conversion spends). */
export const getBalances = (signal?: AbortSignal) => http<Balances>('/api/profile/balances', { signal });
