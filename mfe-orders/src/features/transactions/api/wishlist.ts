// "Add to wish list" (spec 5 and 7, contract "Client flow"): find or create the member's
// `wishlist` connection, find or create its list with handle `wishlist`, add the product, then
// link the purchased item to that list item. Each step's failure surfaces as the spec's message.
import {
  http,
  isHttpError,
  type ConnectionList,
  type ConnectionResponse,
  type LinkRequest,
  type LinkResponse,
  type ListItemLink,
  type ListItemResponse,
  type NewConnection,
  type NewList,
  type NewListItem,
  type ProductList,
  type ProductListResponse,
  type ProductLists,
  type TransactionItem,
} from '@portal/runtime';

export const WISHLIST_DEFINITION = 'wishlist';
export const WISHLIST_HANDLE = 'wishlist';
export const LIST_SOURCE = 'profile-portal';
/** Spec 9: connections are read 500 to a page. */
export const CONNECTIONS_PAGE_SIZE = 500;

/** The spec's catalogue messages (section 8) for this flow. */
export const WISHLIST_ERRORS = {
  invalidArguments: 'Invalid Arguments',
  createList: 'Error creating list',
  createItem: 'Error creating list Item',
  assign: 'Error assigning item',
} as const;
export type WishListErrorCode = keyof typeof WISHLIST_ERRORS;

export class WishListError extends Error {
  constructor(
    readonly code: WishListErrorCode,
    readonly cause?: unknown,
  ) {
    super(WISHLIST_ERRORS[code]);
    this.name = 'WishListError';
  }
}

/** What a list item is made of: the variant bought when the product has one, else the product. */
export function listItemBodyOf(item: TransactionItem | null | undefined): { product_variant_id: string } | { product_id: string } | null {
  const product = item?.product;
  if (!item?.id || !product) return null;
  if (product.variant_id) return { product_variant_id: product.variant_id };
  if (product.id) return { product_id: product.id };
  return null;
}

const isConflict = (err: unknown) => isHttpError(err) && err.status === 409;

async function step<T>(code: WishListErrorCode, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw err instanceof WishListError ? err : new WishListError(code, err);
  }
}

async function findConnection(definitionId: string): Promise<ConnectionList['data'][number] | undefined> {
  const query = new URLSearchParams({ 'page[size]': String(CONNECTIONS_PAGE_SIZE) });
  const list = await http<ConnectionList>(`/api/connections?${query}`);
  return list.data.find((c) => c.definition?.id === definitionId);
}

/** The member's connection for `definitionId`, created when they have none (409: made meanwhile). */
export function findOrCreateConnection(definitionId = WISHLIST_DEFINITION): Promise<string> {
  return step('createList', async () => {
    let connection = await findConnection(definitionId);
    if (!connection) {
      try {
        const body: NewConnection = { definition_id: definitionId };
        connection = (await http<ConnectionResponse>('/api/connections', { method: 'POST', body })).data;
      } catch (err) {
        if (!isConflict(err)) throw err;
        connection = await findConnection(definitionId);
      }
    }
    if (!connection?.id) throw new WishListError('createList');
    return connection.id;
  });
}

async function findList(connectionId: string, handle: string): Promise<ProductList | undefined> {
  const query = new URLSearchParams({ 'filter[handle]': handle });
  const lists = await http<ProductLists>(`/api/connections/${encodeURIComponent(connectionId)}/lists?${query}`);
  return lists.data.find((l) => l.handle === handle);
}

/** The connection's list with `handle`, created when missing (409: made meanwhile). */
export function findOrCreateList(connectionId: string, handle: string): Promise<ProductList> {
  return step('createList', async () => {
    let list = await findList(connectionId, handle);
    if (!list) {
      try {
        const body: NewList = { handle, name: 'Wish list' };
        list = (await http<ProductListResponse>(`/api/connections/${encodeURIComponent(connectionId)}/lists`, { method: 'POST', body }))
          .data;
      } catch (err) {
        if (!isConflict(err)) throw err;
        list = await findList(connectionId, handle);
      }
    }
    if (!list?.id) throw new WishListError('createList');
    return list;
  });
}

export interface ListAssignment {
  handle?: string | null;
  item?: TransactionItem | null;
}

/**
 * Spec 5: an assignment needs a connection id and a list with a handle and an item, else
 * 'Invalid Arguments'. Finds or creates the list, adds the item to it and links the purchased
 * item to that list item; resolves to the link.
 */
export async function assignToConnectionList(
  connectionId: string | null | undefined,
  list: ListAssignment | null | undefined,
): Promise<ListItemLink> {
  const body = listItemBodyOf(list?.item);
  if (!connectionId || !list?.handle || !list.item || !body) throw new WishListError('invalidArguments');
  const target = await findOrCreateList(connectionId, list.handle);
  const newItem: NewListItem = { source: LIST_SOURCE, ...body };
  const listItem = await step(
    'createItem',
    async () =>
      (
        await http<ListItemResponse>(`/api/connections/${encodeURIComponent(connectionId)}/lists/${encodeURIComponent(target.id)}/items`, {
          method: 'POST',
          body: newItem,
        })
      ).data,
  );
  if (!listItem?.id) throw new WishListError('createItem');
  const link: LinkRequest = { product_list_item_id: listItem.id, type: 'link' };
  const itemId = list.item.id;
  return step(
    'assign',
    async () =>
      (await http<LinkResponse>(`/api/profile/transactions/items/${encodeURIComponent(itemId)}/list-item`, { method: 'POST', body: link }))
        .data,
  );
}

/** Adds a purchased item to the member's wish list; resolves to its link. */
export async function addToWishList(item: TransactionItem | null | undefined): Promise<ListItemLink> {
  // Nothing is created for an item that cannot be added.
  if (!listItemBodyOf(item)) throw new WishListError('invalidArguments');
  const connectionId = await findOrCreateConnection(WISHLIST_DEFINITION);
  return assignToConnectionList(connectionId, { handle: WISHLIST_HANDLE, item });
}
