import { http, type RewardList, type RewardResponse } from '@portal/runtime';

/** GET /api/profile/rewards: the member's rewards issued up to now, newest first. */
export const getRewards = (signal?: AbortSignal) => http<RewardList>('/api/profile/rewards', { signal });

/** GET /api/profile/rewards/{id}: one of the member's rewards (404 when not theirs or unknown). */
export const getReward = (id: number, signal?: AbortSignal) => http<RewardResponse>(`/api/profile/rewards/${id}`, { signal });

/** The id of `/rewards/item/{id}` when it is a whole number the API can hold; else null. */
export function rewardIdOf(param: string | undefined): number | null {
  if (!param || !/^\d{1,16}$/.test(param)) return null;
  const id = Number(param);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}
