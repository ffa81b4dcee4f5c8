import { http, type Profile } from '@portal/runtime';

// The profile reads and writes several features share: each write answers with the whole profile,
// which becomes the cached one (`setProfile` in ../hooks/use-profile.ts).

/** GET /api/profile: the signed-in member's profile. */
export const getProfile = (signal?: AbortSignal) => http<Profile>('/api/profile', { signal });

/** PUT /api/profile/attributes/custom/{namespace}:{handle}; an empty value removes the attribute. */
export const putCustomAttribute = (key: `${string}:${string}`, value: string) =>
  http<Profile>(`/api/profile/attributes/custom/${key}`, { method: 'PUT', body: { value } });
