import { useQuery } from '@tanstack/react-query';
import { useAuth } from '@portal/runtime';
import { getAccessLog } from '../api/get-access-log';

export function useAccessLog() {
  const { profile_id } = useAuth();
  return useQuery({
    queryKey: ['access-log', profile_id],
    queryFn: ({ signal }) => getAccessLog(signal),
  });
}
