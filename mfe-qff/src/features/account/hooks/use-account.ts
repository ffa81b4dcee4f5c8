import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { addToast, useAuth } from '@portal/runtime';
import { afterQffWrite, qffKey } from '../../shared/hooks/use-qff';
import { useTrack } from '../../../lib/analytics';
import { getQffHistory, nextHistoryPage, unlinkQff } from '../api/account';
import type { QffActivity, QffHistoryPage } from '../api/types';

/** The airline account's activity, page by page (only asked for while linked). */
export function useQffHistory(enabled: boolean) {
  const { profile_id } = useAuth();
  return useInfiniteQuery({
    queryKey: qffKey.history(profile_id),
    queryFn: ({ pageParam, signal }) => getQffHistory(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: nextHistoryPage,
    enabled,
  });
}

/** Every loaded entry once (an entry added meanwhile shifts the pages: no repeats), and the total. */
export function allActivity(pages: QffHistoryPage[] | undefined): { entries: QffActivity[]; total: number } {
  const seen = new Set<string>();
  const entries: QffActivity[] = [];
  for (const page of pages ?? []) {
    for (const entry of page.data ?? []) {
      if (seen.has(entry.id)) continue;
      seen.add(entry.id);
      entries.push(entry);
    }
  }
  const total = Math.max(pages?.[pages.length - 1]?.meta?.total ?? 0, entries.length);
  return { entries, total };
}

/** Unlinks; the page shows the link wizard again, and says so. */
export function useUnlinkQff() {
  const client = useQueryClient();
  const track = useTrack();
  const { t } = useTranslation();
  return useMutation({
    mutationFn: unlinkQff,
    onSuccess: (status, { reason }) => {
      afterQffWrite(client, { status });
      track('qff_unlink', { reason });
      addToast({ type: 'success', text: t('unlink.done') });
    },
  });
}
