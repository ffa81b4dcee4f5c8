import { useMutation, useQueryClient } from '@tanstack/react-query';
import { track, useAuth } from '@portal/runtime';
import { setProfile } from '../../shared/hooks/use-profile';
import { putProfile } from '../api/put-profile';
import type { ProfileUpdate } from '@portal/runtime';

/**
 * PUT /api/profile; the answer (the whole profile) replaces the cached one. Reported as
 * my_details_save with the names of the fields changed (never their values).
 */
export function useSaveProfile() {
  const client = useQueryClient();
  const { profile_id } = useAuth();
  return useMutation({
    mutationFn: (body: ProfileUpdate) => putProfile(body),
    onSuccess: (profile, body) => {
      setProfile(client, profile_id, profile);
      track('my_details_save', { fields: Object.keys(body).sort().join(',') });
    },
  });
}
