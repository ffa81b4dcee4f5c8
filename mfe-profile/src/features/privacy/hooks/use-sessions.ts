import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '@portal/runtime';
import { getSessions, revokeDevice, revokeOtherSessions, revokeSession } from '../api/privacy';

const sessionsKey = (profileId: string | null) => ['privacy-sessions', profileId] as const;

/** The member's signed-in devices; never asked for while staff view the account (the API refuses). */
export function useSessions() {
  const { profile_id, authenticated, impersonating } = useAuth();
  return useQuery({
    queryKey: sessionsKey(profile_id),
    queryFn: ({ signal }) => getSessions(signal),
    enabled: authenticated && !impersonating,
    // Devices sign in and out elsewhere: always ask again when the page is shown.
    staleTime: 0,
  });
}

/** The list is read again after every sign-out, whatever the answer (a 404: already gone). */
function useRefetchAfter() {
  const client = useQueryClient();
  const { profile_id } = useAuth();
  return () => client.refetchQueries({ queryKey: sessionsKey(profile_id) });
}

export function useRevokeSession() {
  const refetch = useRefetchAfter();
  return useMutation({ mutationFn: (id: string) => revokeSession(id), onSettled: refetch });
}

export function useRevokeOthers() {
  const refetch = useRefetchAfter();
  return useMutation({ mutationFn: () => revokeOtherSessions(), onSettled: refetch });
}

/** Every session of one device. */
export function useRevokeDevice() {
  const refetch = useRefetchAfter();
  return useMutation({ mutationFn: (key: string) => revokeDevice(key), onSettled: refetch });
}
