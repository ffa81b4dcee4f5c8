import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '@portal/runtime';
import { putProfile, setProfile } from '../../../api/profile';
import type { ProfileUpdate } from '@portal/runtime';

/** PUT /api/profile; the answer (the whole profile) replaces the cached one. */
export function useSaveProfile() {
  const client = useQueryClient();
  const { profile_id } = useAuth();
  return useMutation({
    mutationFn: (body: ProfileUpdate) => putProfile(body),
    onSuccess: (profile) => setProfile(client, profile_id, profile),
  });
}
