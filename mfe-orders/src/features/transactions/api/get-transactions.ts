import { http, type TransactionList } from '@portal/runtime';

export const TRANSACTIONS_PER_PAGE = 20;

/** GET /api/profile/transactions, newest first, each item with its product and its list item. */
export function getTransactions(page: number, signal?: AbortSignal): Promise<TransactionList> {
  const query = new URLSearchParams({
    page: String(page),
    per_page: String(TRANSACTIONS_PER_PAGE),
    sort: '-transacted_at',
    include: 'product',
    include_list_item: '1',
  });
  return http<TransactionList>(`/api/profile/transactions?${query}`, { signal });
}

/** The next page to ask for, or undefined once every purchase is loaded. */
export function nextPage(last: TransactionList): number | undefined {
  const meta = last?.meta;
  if (!meta || !last.data?.length) return undefined;
  return meta.page * meta.per_page < meta.total ? meta.page + 1 : undefined;
}
