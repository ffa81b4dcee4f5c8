import { useQuery } from '@tanstack/react-query';
import { useAuth } from '@portal/runtime';
import { getQffPoints } from '../api/get-points';

export function useQffPoints() {
  const { profile_id } = useAuth();
  return useQuery({ queryKey: ['qff-points', profile_id], queryFn: ({ signal }) => getQffPoints(signal) });
}
