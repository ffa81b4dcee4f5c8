import { useInfiniteQuery, useQuery, type InfiniteData } from '@tanstack/react-query';
import { useAuth, type PointsEntry, type PointsPage } from '@portal/runtime';
import { rememberBalance } from '@portal/kit/member-record';
import { getBalances, getExpiring, getPointsPage, getTierProgress, nextPointsPage } from '../api/points';

// Query keys start with the names other micro-frontends use when they announce a change
// ('balances', 'points'); see lib/follow-balance.ts for what follows the balance.

/** The balance; each one read is also kept as the member's last known balance (their card on Home shows it offline). */
export function useBalances() {
  const { profile_id } = useAuth();
  return useQuery({
    queryKey: ['balances', profile_id],
    queryFn: async ({ signal }) => {
      const balances = await getBalances(signal);
      rememberBalance(profile_id, balances.data.points);
      return balances;
    },
  });
}

export function useTierProgress() {
  const { profile_id } = useAuth();
  return useQuery({ queryKey: ['tiers', profile_id, 'progress'], queryFn: ({ signal }) => getTierProgress(signal) });
}

export function useExpiring() {
  const { profile_id } = useAuth();
  return useQuery({ queryKey: ['expiring', profile_id], queryFn: ({ signal }) => getExpiring(signal) });
}

/** The ledger, page by page, newest first. */
export function usePointsHistory() {
  const { profile_id } = useAuth();
  return useInfiniteQuery({
    queryKey: ['points', profile_id, 'history'],
    queryFn: ({ pageParam, signal }) => getPointsPage(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: nextPointsPage,
  });
}

/** Every loaded entry once (an entry posted meanwhile shifts the pages: no repeats). */
export function allEntries(data: InfiniteData<PointsPage> | undefined): PointsEntry[] {
  const seen = new Set<string>();
  const all: PointsEntry[] = [];
  for (const page of data?.pages ?? []) {
    for (const entry of page.data ?? []) {
      const id = String(entry.id);
      if (seen.has(id)) continue;
      seen.add(id);
      all.push(entry);
    }
  }
  return all;
}
