import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useAuth, type RewardList, type RewardResponse } from '@portal/runtime';
import { getReward, getRewards } from '../api/rewards';

export function useRewards() {
  const { profile_id } = useAuth();
  return useQuery({ queryKey: ['rewards', profile_id], queryFn: ({ signal }) => getRewards(signal) });
}

/** One reward; drawn at once from the list when it is loaded, while its own answer comes. */
export function useReward(id: number | null) {
  const { profile_id } = useAuth();
  const client = useQueryClient();
  return useQuery<RewardResponse>({
    queryKey: ['rewards', profile_id, 'item', id],
    queryFn: ({ signal }) => getReward(id!, signal),
    enabled: id !== null,
    placeholderData: () => {
      const reward = client.getQueryData<RewardList>(['rewards', profile_id])?.data.find((r) => r.id === id);
      return reward ? { data: reward } : undefined;
    },
  });
}
