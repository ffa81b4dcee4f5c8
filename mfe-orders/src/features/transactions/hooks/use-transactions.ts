import { useInfiniteQuery, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useAuth, type ListItemLink, type Transaction, type TransactionList } from '@portal/runtime';
import { getTransactions, nextPage } from '../api/get-transactions';

/** Other MFEs name it by its first part ('transactions') when they tell that it changed. */
export const transactionsKey = (profileId: string | null | undefined) => ['transactions', profileId] as const;

/** The member's purchases, page by page (newest first). */
export function useTransactions() {
  const { profile_id } = useAuth();
  return useInfiniteQuery({
    queryKey: transactionsKey(profile_id),
    queryFn: ({ pageParam, signal }) => getTransactions(pageParam, signal),
    initialPageParam: 1,
    getNextPageParam: nextPage,
  });
}

/** Every loaded purchase once (a purchase added meanwhile shifts the pages: no repeats). */
export function allTransactions(data: InfiniteData<TransactionList> | undefined): Transaction[] {
  const seen = new Set<string>();
  const all: Transaction[] = [];
  for (const page of data?.pages ?? []) {
    for (const tx of page.data ?? []) {
      if (seen.has(tx.id)) continue;
      seen.add(tx.id);
      all.push(tx);
    }
  }
  return all;
}

/** Marks a purchased item as linked in the cached pages (the answer of the link call). */
export function setItemLink(client: QueryClient, profileId: string | null | undefined, itemId: string, link: ListItemLink): void {
  client.setQueryData<InfiniteData<TransactionList>>(
    transactionsKey(profileId),
    (old) =>
      old && {
        ...old,
        pages: old.pages.map((page) => ({
          ...page,
          data: page.data.map((tx) =>
            tx.items.some((i) => i.id === itemId)
              ? { ...tx, items: tx.items.map((i) => (i.id === itemId ? { ...i, list_item: link } : i)) }
              : tx,
          ),
        })),
      },
  );
}
