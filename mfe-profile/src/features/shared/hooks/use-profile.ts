import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useAuth, type Profile } from '@portal/runtime';
import { getProfile } from '../api/profile';

// The profile query every feature of this tab reads, and its key (see persist.tsx for the cache).

export const profileKey = (profileId: string | null) => ['profile', profileId] as const;

/** The signed-in member's profile (first load once signed in). */
export function useProfile() {
  const { profile_id, authenticated } = useAuth();
  return useQuery({
    queryKey: profileKey(profile_id),
    queryFn: ({ signal }) => getProfile(signal),
    enabled: authenticated,
  });
}

/** Every write answers with the whole updated profile: it becomes the cached one. */
export function setProfile(client: QueryClient, profileId: string | null, profile: Profile): void {
  client.setQueryData(profileKey(profileId), profile);
}
