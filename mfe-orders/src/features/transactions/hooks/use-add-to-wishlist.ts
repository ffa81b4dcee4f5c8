import { useMutation, useQueryClient } from '@tanstack/react-query';
import { track, useAuth, type TransactionItem } from '@portal/runtime';
import { addToWishList } from '../api/wishlist';
import { setItemLink } from './use-transactions';

/**
 * Adds one purchased item to the wish list. Adds run one at a time (one scope), so a second
 * finds the connection and list the first one made instead of racing to create them. Reported as
 * my_orders_wishlist_add.
 */
export function useAddToWishList() {
  const client = useQueryClient();
  const { profile_id } = useAuth();
  return useMutation({
    scope: { id: 'wishlist' },
    mutationFn: (item: TransactionItem) => addToWishList(item),
    onSuccess: (link, item) => {
      setItemLink(client, profile_id, item.id, link);
      track('my_orders_wishlist_add');
    },
  });
}
