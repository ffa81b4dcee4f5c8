import { http, type TransactionList } from '@portal/runtime';

export const getTransactions = (signal?: AbortSignal) =>
  http<TransactionList>('/api/profile/transactions', { signal });
