import { useMutation, useQueryClient } from '@tanstack/react-query';
import { track, useAuth, type Profile } from '@portal/runtime';
import { announceDataChanged } from '@portal/kit/mfe-providers';
import { profileKey } from '../../shared/hooks/use-profile';
import { confirmEmailChange, startEmailChange } from '../api/email-change';

/** Asks for a code to the new address. */
export function useStartEmailChange() {
  return useMutation({ mutationFn: (email: string) => startEmailChange(email) });
}

/**
 * Confirms the change with the code. The new address is shown at once (the cached profile gets
 * it) and the profile is read again, here and in every other micro-frontend. Reported as
 * my_details_email_change (no address).
 */
export function useConfirmEmailChange() {
  const client = useQueryClient();
  const { profile_id } = useAuth();
  return useMutation({
    mutationFn: (code: string) => confirmEmailChange(code),
    onSuccess: ({ email }) => {
      client.setQueryData<Profile>(profileKey(profile_id), (p) => (p ? { ...p, email } : p));
      // Marks `profile` stale in every MFE's query client, this one's too (it refetches now).
      announceDataChanged(['profile']);
      track('my_details_email_change');
    },
  });
}
