import { http, type Balances, type RewardList } from '@portal/runtime';

export const getRewards = (signal?: AbortSignal) => http<RewardList>('/api/profile/rewards', { signal });
export const getBalances = (signal?: AbortSignal) => http<Balances>('/api/profile/balances', { signal });
