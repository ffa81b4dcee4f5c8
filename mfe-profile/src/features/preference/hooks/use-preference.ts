import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { track, useAuth } from '@portal/runtime';
import { putCustomAttribute } from '../../shared/api/profile';
import { setProfile } from '../../shared/hooks/use-profile';
import { getLocations } from '../api/get-locations';

export function useLocations() {
  return useQuery({
    queryKey: ['locations'],
    queryFn: ({ signal }) => getLocations(signal),
    staleTime: 10 * 60_000,
  });
}

/**
 * PUT one custom attribute (locale:language, preference:store); the answer becomes the cached
 * profile. Reported as preference_language_save (with the language) or preference_store_save.
 */
export function useSaveAttribute(key: 'locale:language' | 'preference:store') {
  const client = useQueryClient();
  const { profile_id } = useAuth();
  return useMutation({
    mutationKey: ['attribute', key],
    // Quick successive choices are saved in order, so the last one is what stays.
    scope: { id: key },
    mutationFn: (value: string) => putCustomAttribute(key, value),
    onSuccess: (profile, value) => {
      setProfile(client, profile_id, profile);
      if (key === 'locale:language') track('preference_language_save', { language: value });
      else track('preference_store_save', { chosen: value !== '' });
    },
  });
}
