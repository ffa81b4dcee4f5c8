import { useQuery, type QueryClient } from '@tanstack/react-query';
import { http, useAuth, type Profile, type ProfileUpdate } from '@portal/runtime';

// Shared by every feature of this MFE: the profile query and the writes that answer with the whole
// profile (so each write replaces the cached profile with the server's answer).

export const profileKey = (profileId: string | null) => ['profile', profileId] as const;

export const getProfile = (signal?: AbortSignal) => http<Profile>('/api/profile', { signal });

/** PUT /api/profile: only the keys sent change. */
export const putProfile = (body: ProfileUpdate) => http<Profile>('/api/profile', { method: 'PUT', body });

/** PUT /api/profile/attributes/custom/{namespace}:{handle}; an empty value removes the attribute. */
export const putCustomAttribute = (key: `${string}:${string}`, value: string) =>
  http<Profile>(`/api/profile/attributes/custom/${key}`, { method: 'PUT', body: { value } });

/** The signed-in member's profile (first load once signed in; see persist.tsx for the cache). */
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
