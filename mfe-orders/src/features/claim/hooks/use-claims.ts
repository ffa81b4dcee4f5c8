import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { announceDataChanged } from '@portal/kit/mfe-providers';
import { track, useAuth, type ClaimList, type ClaimRequest } from '@portal/runtime';
import { getClaims, getLocations, postClaim } from '../api/claims';

const claimsKey = (profileId: string | null | undefined) => ['claims', profileId] as const;

export function useClaims() {
  const { profile_id } = useAuth();
  return useQuery({ queryKey: claimsKey(profile_id), queryFn: ({ signal }) => getClaims(signal) });
}

export function useLocations() {
  return useQuery({ queryKey: ['locations'], queryFn: ({ signal }) => getLocations(signal), staleTime: 10 * 60_000 });
}

/**
 * Files a claim. The new claim heads the list at once (then the list is fetched again); a
 * credited one changed the member's purchases and points, so every MFE's copies of those go stale.
 * Reported as claim_transaction_submit with the claim's status (credited or pending).
 */
export function useFileClaim() {
  const client = useQueryClient();
  const { profile_id } = useAuth();
  return useMutation({
    mutationFn: (body: ClaimRequest) => postClaim(body),
    onSuccess: ({ data: claim }) => {
      track('claim_transaction_submit', { status: claim.status });
      client.setQueryData<ClaimList>(
        claimsKey(profile_id),
        (old) => old && { ...old, data: [claim, ...old.data.filter((c) => c.id !== claim.id)] },
      );
      void client.invalidateQueries({ queryKey: claimsKey(profile_id) });
      if (claim.status === 'credited') announceDataChanged(['transactions', 'balances']);
    },
  });
}
