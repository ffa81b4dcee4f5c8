import { useQuery } from '@tanstack/react-query';
import { useAuth } from '@portal/runtime';
import { getBenefits } from '../api/get-benefits';

export function useBenefits() {
  const { profile_id } = useAuth();
  return useQuery({ queryKey: ['benefits', profile_id], queryFn: ({ signal }) => getBenefits(signal) });
}
