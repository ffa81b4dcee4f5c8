import { useQuery } from '@tanstack/react-query';
import { useAuth } from '@portal/runtime';
import { getBalances, getRewards } from '../api/get-rewards';

export function useRewards() {
  const { profile_id } = useAuth();
  return useQuery({ queryKey: ['rewards', profile_id], queryFn: ({ signal }) => getRewards(signal) });
}

export function useBalances() {
  const { profile_id } = useAuth();
  return useQuery({ queryKey: ['balances', profile_id], queryFn: ({ signal }) => getBalances(signal) });
}
