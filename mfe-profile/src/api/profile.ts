import { useQuery } from '@tanstack/react-query';
import { http, useAuth, type Profile } from '@portal/runtime';

// Shared by every feature of this MFE: one fetcher and one query hook.
export const getProfile = (signal?: AbortSignal) => http<Profile>('/api/profile', { signal });

export function useProfile() {
  const { profile_id } = useAuth();
  return useQuery({
    queryKey: ['profile', profile_id],
    queryFn: ({ signal }) => getProfile(signal),
  });
}
