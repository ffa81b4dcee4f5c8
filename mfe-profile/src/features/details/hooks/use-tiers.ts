import { useQuery } from '@tanstack/react-query';
import { useAuth } from '@portal/runtime';
import { getTiers } from '../api/get-tiers';

export function useTiers() {
  const { profile_id, authenticated } = useAuth();
  return useQuery({
    queryKey: ['tiers', profile_id],
    queryFn: ({ signal }) => getTiers(signal),
    enabled: authenticated,
    staleTime: 5 * 60_000,
  });
}
