import { useQuery } from '@tanstack/react-query';
import { useAuth } from '@portal/runtime';
import { getTransactions } from '../api/get-transactions';

export function useTransactions() {
  const { profile_id } = useAuth();
  return useQuery({
    queryKey: ['transactions', profile_id],
    queryFn: ({ signal }) => getTransactions(signal),
  });
}
