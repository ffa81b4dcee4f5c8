import { useMutation, useQueryClient } from '@tanstack/react-query';
import { track, useAuth } from '@portal/runtime';
import { putCustomAttribute } from '../../shared/api/profile';
import { setProfile } from '../../shared/hooks/use-profile';
import type { SizeValue } from '../lib/sizes';

/**
 * PUT size:<garment> with the size as JSON text (null removes it); the answer becomes the cached
 * profile. Reported as my_size_save (the garment, whether the size was removed).
 */
export function useSaveSize(garment: string) {
  const client = useQueryClient();
  const { profile_id } = useAuth();
  return useMutation({
    mutationFn: (value: SizeValue | null) => putCustomAttribute(`size:${garment}`, value ? JSON.stringify(value) : ''),
    onSuccess: (profile, value) => {
      setProfile(client, profile_id, profile);
      track('my_size_save', { garment, removed: value === null });
    },
  });
}
