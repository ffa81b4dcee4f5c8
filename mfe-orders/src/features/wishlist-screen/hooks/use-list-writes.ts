import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { track, useAuth, type ListItem, type ProductList } from '@portal/runtime';
import { createList, moveListItem, removeListItem, type ItemRef } from '../api/list-items';
import type { WishLists } from '../api/get-wishlists';
import { wishListsKey } from './use-wishlists';

type Lists = (lists: ProductList[]) => ProductList[];

/** Applies `change` to every connection's lists in the cached read. */
function updateLists(client: QueryClient, profileId: string | null, change: Lists): void {
  client.setQueryData<WishLists>(
    wishListsKey(profileId),
    (old) => old && { ...old, connections: old.connections.map((c) => ({ ...c, lists: change(c.lists) })) },
  );
}

/** After a change the server made: the cached read re-read, and My Orders' "On your wish list" with it. */
function refresh(client: QueryClient, profileId: string | null): void {
  void client.invalidateQueries({ queryKey: wishListsKey(profileId) });
  // My Orders' purchases, named by their key's first part (another feature's read).
  void client.invalidateQueries({ queryKey: ['transactions'] });
}

/** Removes an item (my_orders_wishlist_remove); the list shows it gone at once. */
export function useRemoveItem() {
  const client = useQueryClient();
  const { profile_id } = useAuth();
  return useMutation({
    mutationFn: (ref: ItemRef) => removeListItem(ref),
    onSuccess: (_, ref) => {
      updateLists(client, profile_id, (lists) => lists.map((l) => ({ ...l, items: l.items.filter((i) => i.id !== ref.itemId) })));
      track('my_orders_wishlist_remove');
      refresh(client, profile_id);
    },
  });
}

/** Moves an item to another list (my_orders_wishlist_move); the same product there gives way. */
export function useMoveItem() {
  const client = useQueryClient();
  const { profile_id } = useAuth();
  return useMutation({
    mutationFn: ({ ref, to }: { ref: ItemRef; to: string }) => moveListItem(ref, to),
    onSuccess: (moved: ListItem) => {
      updateLists(client, profile_id, (lists) =>
        lists.map((l) => {
          const others = l.items.filter((i) => i.id !== moved.id && !(l.id === moved.list_id && sameProduct(i, moved)));
          return { ...l, items: l.id === moved.list_id ? [...others, moved] : others };
        }),
      );
      track('my_orders_wishlist_move');
      refresh(client, profile_id);
    },
  });
}

const sameProduct = (a: ListItem, b: ListItem) => a.product_id === b.product_id && a.product_variant_id === b.product_variant_id;

/** Makes a new, empty list in a connection (my_orders_wishlist_new_list). */
export function useCreateList() {
  const client = useQueryClient();
  const { profile_id } = useAuth();
  return useMutation({
    mutationFn: ({ connectionId, name }: { connectionId: string; name: string }) => createList(connectionId, name),
    onSuccess: (list, { connectionId }) => {
      client.setQueryData<WishLists>(
        wishListsKey(profile_id),
        (old) =>
          old && {
            ...old,
            connections: old.connections.map((c) =>
              c.connection.id === connectionId ? { ...c, lists: [...c.lists, { ...list, items: [] }] } : c,
            ),
          },
      );
      track('my_orders_wishlist_new_list');
      refresh(client, profile_id);
    },
  });
}
