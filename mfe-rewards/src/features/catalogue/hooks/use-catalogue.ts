import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { announceDataChanged } from '@portal/kit/mfe-providers';
import { addToast, isHttpError, track, useAuth, type Balances } from '@portal/runtime';
import { getCatalogue, redeem } from '../api/catalogue';

export function useCatalogue() {
  const { profile_id } = useAuth();
  return useQuery({ queryKey: ['catalogue', profile_id], queryFn: ({ signal }) => getCatalogue(signal) });
}

export interface RedeemInput {
  catalogueId: string;
  /** One per confirmation, the same for any retry of it. */
  idempotencyKey: string;
  name: string;
}

/**
 * Redeems points for a catalogue item. On success the new balance shows at once, a toast says so
 * (also when the dialog was closed meanwhile), and everything the redemption changed is fetched
 * again: the balance, rewards and points in every micro-frontend (announced), the expiring
 * points, the tier and the catalogue here. A 409 means this page's numbers were out of date.
 * Reported as rewards_redeem (the catalogue item and the points spent).
 */
export function useRedeem() {
  const client = useQueryClient();
  const { profile_id } = useAuth();
  const { t } = useTranslation();
  const refresh = (keys: string[]) => {
    // cancelRefetch false: a fetch already on its way (started by the announcement) is kept, not sent twice.
    for (const key of keys) void client.invalidateQueries({ queryKey: [key] }, { cancelRefetch: false });
  };
  return useMutation({
    mutationFn: ({ catalogueId, idempotencyKey }: RedeemInput) => redeem(catalogueId, idempotencyKey),
    onSuccess: ({ data }, { name, catalogueId }) => {
      track('rewards_redeem', { catalogue_id: catalogueId, points: data.points_spent });
      client.setQueryData<Balances>(['balances', profile_id], (old) => old && { ...old, data: { ...old.data, points: data.balance } });
      announceDataChanged(['balances', 'rewards', 'points']);
      refresh(['expiring', 'tiers', 'catalogue']);
      addToast({ type: 'success', text: t('redeem.toast', { name }) });
    },
    onError: (err) => {
      if (isHttpError(err) && err.status === 409) refresh(['balances', 'catalogue']);
    },
  });
}
