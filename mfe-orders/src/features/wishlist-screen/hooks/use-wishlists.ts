import { useQuery } from '@tanstack/react-query';
import { useAuth } from '@portal/runtime';
import { getWishLists } from '../api/get-wishlists';

/** Kept offline with the tab's other reads (its first part is in the offline cache's names). */
export const wishListsKey = (profileId: string | null | undefined) => ['wishlists', profileId] as const;

/** The member's connections with their lists and items. */
export function useWishLists() {
  const { profile_id } = useAuth();
  return useQuery({
    queryKey: wishListsKey(profile_id),
    queryFn: ({ signal }) => getWishLists(signal),
  });
}
