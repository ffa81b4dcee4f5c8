// The wish list screen's read (spec: connection lists): the member's connections, 500 to a page,
// each with its lists and their items. List items carry only product or variant ids, so their
// names come from the member's latest 100 purchases (the item a purchase is linked to, else the
// product or variant bought); one read, kept offline as a whole.
import { http, type Connection, type ConnectionList, type ProductList, type ProductLists, type TransactionList } from '@portal/runtime';

/** Spec 9: connections are read 500 to a page. */
export const CONNECTIONS_PAGE_SIZE = 500;
/** Purchases read for the names (the API's largest page). */
export const PURCHASES_FOR_NAMES = 100;

export interface ConnectionWithLists {
  connection: Connection;
  lists: ProductList[];
}

export interface WishLists {
  connections: ConnectionWithLists[];
  /** Product names by list item id, variant id or product id. */
  names: Record<string, string>;
}

async function purchasedNames(signal?: AbortSignal): Promise<Record<string, string>> {
  const query = new URLSearchParams({
    page: '1',
    per_page: String(PURCHASES_FOR_NAMES),
    sort: '-transacted_at',
    include: 'product',
    include_list_item: '1',
  });
  const names: Record<string, string> = {};
  const page = await http<TransactionList>(`/api/profile/transactions?${query}`, { signal });
  for (const tx of page.data ?? []) {
    for (const item of tx.items ?? []) {
      const name = item.product?.name || item.name;
      if (!name) continue;
      for (const id of [item.list_item?.id, item.product?.variant_id, item.product?.id]) {
        if (id && !(id in names)) names[id] = name;
      }
    }
  }
  return names;
}

/** Every connection of the member with its lists (in the service's order), and the names known. */
export async function getWishLists(signal?: AbortSignal): Promise<WishLists> {
  const query = new URLSearchParams({ 'page[size]': String(CONNECTIONS_PAGE_SIZE) });
  const [connections, names] = await Promise.all([
    http<ConnectionList>(`/api/connections?${query}`, { signal }),
    // Names are a nicety: without them the items show their ids.
    purchasedNames(signal).catch(() => ({})),
  ]);
  const withLists = await Promise.all(
    connections.data.map(async (connection) => {
      const lists = await http<ProductLists>(`/api/connections/${encodeURIComponent(connection.id)}/lists`, { signal });
      return { connection, lists: lists.data };
    }),
  );
  return { connections: withLists, names };
}
