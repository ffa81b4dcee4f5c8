import { http, type TierList } from '@portal/runtime';

/** GET /api/profile/tiers: the tenant's tiers, to name the member's tier_handle. */
export const getTiers = (signal?: AbortSignal) => http<TierList>('/api/profile/tiers', { signal });
