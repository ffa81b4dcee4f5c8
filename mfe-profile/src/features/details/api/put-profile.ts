import { http, type Profile, type ProfileUpdate } from '@portal/runtime';

/** PUT /api/profile: only the keys sent change; answers with the whole profile. */
export const putProfile = (body: ProfileUpdate) => http<Profile>('/api/profile', { method: 'PUT', body });
