import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { isHttpError, track, useAuth, type BenefitList } from '@portal/runtime';
import { activateBenefit, getBenefits } from '../api/benefits';

const benefitsKey = (profileId: string | null | undefined) => ['benefits', profileId] as const;

export function useBenefits() {
  const { profile_id } = useAuth();
  return useQuery({ queryKey: benefitsKey(profile_id), queryFn: ({ signal }) => getBenefits(signal) });
}

/** Activates an offer; its answer replaces the offer in the list at once. A 409 (ended, or no
 * activation needed) means the list was out of date: it is fetched again. Reported as
 * offers_activate with the offer's id. */
export function useActivateBenefit() {
  const client = useQueryClient();
  const { profile_id } = useAuth();
  return useMutation({
    mutationFn: (id: number) => activateBenefit(id),
    onSuccess: ({ data: offer }) => {
      track('offers_activate', { offer_id: offer.id });
      client.setQueryData<BenefitList>(
        benefitsKey(profile_id),
        (old) => old && { ...old, data: old.data.map((b) => (b.id === offer.id ? offer : b)) },
      );
    },
    onError: (err) => {
      if (isHttpError(err) && err.status === 409) void client.invalidateQueries({ queryKey: benefitsKey(profile_id) });
    },
  });
}
