// A voucher is ready to use until it is used or its expiry passes. The server's status is as of
// its answer; a list kept for offline may be days old, so the clock decides too: past its expiry
// a voucher is expired (no QR code, no code to scan), and it is not kept for offline any more.
import type { Query } from '@tanstack/react-query';
import type { Reward, RewardList, RewardResponse } from '@portal/runtime';

export type VoucherStatus = Reward['status'];

/** The reward's status now: an "available" one whose expiry has passed is expired. */
export function statusNow(reward: Pick<Reward, 'status' | 'expires_at'>, now = Date.now()): VoucherStatus {
  if (reward.status === 'used' || reward.status === 'expired') return reward.status;
  const expires = reward.expires_at ? Date.parse(reward.expires_at) : NaN;
  return Number.isFinite(expires) && expires <= now ? 'expired' : reward.status;
}

export const usableNow = (reward: Pick<Reward, 'status' | 'expires_at'>, now = Date.now()): boolean => {
  const status = statusNow(reward, now);
  return status !== 'used' && status !== 'expired';
};

/** The reward with its status as of now. */
export const asOfNow = (reward: Reward, now = Date.now()): Reward => {
  const status = statusNow(reward, now);
  return status === reward.status ? reward : { ...reward, status };
};

/**
 * What the offline cache keeps of the rewards' queries: a voucher's own page only while it is
 * ready to use; the list (each voucher in it shown with its status as of now). Other queries as
 * they are.
 */
export function keepOffline(query: Query, now: number): boolean {
  if (query.queryKey[0] !== 'rewards') return true;
  if (query.queryKey[2] === 'item') {
    const reward = (query.state.data as RewardResponse | undefined)?.data;
    return !!reward && usableNow(reward, now);
  }
  return Array.isArray((query.state.data as RewardList | undefined)?.data);
}
