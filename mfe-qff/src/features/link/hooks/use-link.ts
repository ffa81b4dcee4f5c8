import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { addToast } from '@portal/runtime';
import { afterQffWrite } from '../../shared/hooks/use-qff';
import { useTrack } from '../../../lib/analytics';
import { linkQff, validateQff } from '../api/link';

export const useValidateQff = () => useMutation({ mutationFn: validateQff });

/** Links the account; the page shows the linked account at once, and says so. */
export function useLinkQff() {
  const client = useQueryClient();
  const track = useTrack();
  const { t } = useTranslation();
  return useMutation({
    mutationFn: linkQff,
    onSuccess: (status) => {
      afterQffWrite(client, { status });
      track('qff_link');
      addToast({ type: 'success', text: t('link.done') });
    },
  });
}
