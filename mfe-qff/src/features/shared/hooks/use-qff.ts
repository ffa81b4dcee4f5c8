import { useQuery, type QueryClient } from '@tanstack/react-query';
import { announceDataChanged, createMfeQueryClient } from '@portal/kit/mfe-providers';
import { authStore, useAuth, type Balances } from '@portal/runtime';
import { getBalances } from '../api/balances';
import { getQffStatus } from '../api/status';
import type { QffStatus } from '../api/types';
import { clearQffStatusCache } from './use-cached-qff-status';

// The account views' queries (only their chunk loads react-query; the summary on /home does not).
// Keys start with the names the micro-frontends announce changes by: 'qff' (status, history and
// conversions) and 'balances' (the member's points, as in Rewards).

/** This MFE's one query client, kept across mounts so moving between tabs reuses the cache. */
export const queryClient = createMfeQueryClient();

export const qffKey = {
  status: (profileId: string | null) => ['qff', profileId, 'status'] as const,
  history: (profileId: string | null) => ['qff', profileId, 'history'] as const,
  conversions: (profileId: string | null) => ['qff', profileId, 'conversions'] as const,
};
export const balancesKey = (profileId: string | null) => ['balances', profileId] as const;

export function useQffStatus() {
  const { profile_id } = useAuth();
  return useQuery({ queryKey: qffKey.status(profile_id), queryFn: ({ signal }) => getQffStatus(signal) });
}

export function useBalances(enabled = true) {
  const { profile_id } = useAuth();
  return useQuery({ queryKey: balancesKey(profile_id), queryFn: ({ signal }) => getBalances(signal), enabled });
}

/**
 * After a link, unlink or conversion: what the server answered shows at once (the new status, the
 * member's new balance), then everything it changed is fetched again — here (the qff status,
 * history and conversions, the balance) and in every other micro-frontend on the page (Rewards'
 * balance and points history, My Details' profile with its identities) — and the summary's cache
 * is dropped.
 */
export function afterQffWrite(client: QueryClient, answer: { status?: QffStatus; balance?: number } = {}): void {
  const profileId = authStore.get().profile_id;
  if (answer.status) client.setQueryData(qffKey.status(profileId), answer.status);
  if (answer.balance !== undefined) {
    const points = answer.balance;
    client.setQueryData<Balances>(balancesKey(profileId), (old) => old && { ...old, data: { ...old.data, points } });
  }
  clearQffStatusCache();
  // This MFE's client hears it too: 'qff' and 'balances' are marked stale here as well.
  announceDataChanged(['qff', 'balances', 'points', 'profile']);
}
