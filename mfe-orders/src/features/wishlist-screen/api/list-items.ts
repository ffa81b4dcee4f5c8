// The wish list screen's writes (spec: connection lists): remove an item, move it to another of
// the member's lists, and make a list to move items to. Each names the item through its
// connection and list; another member's ids answer 404.
import { http, type ListItem, type ListItemResponse, type ProductList, type ProductListResponse } from '@portal/runtime';

export interface ItemRef {
  connectionId: string;
  listId: string;
  itemId: string;
}

const itemPath = ({ connectionId, listId, itemId }: ItemRef) =>
  `/api/connections/${encodeURIComponent(connectionId)}/lists/${encodeURIComponent(listId)}/items/${encodeURIComponent(itemId)}`;

/** DELETE …/items/{itemId}: 204. */
export async function removeListItem(ref: ItemRef): Promise<void> {
  await http<void>(itemPath(ref), { method: 'DELETE' });
}

/** POST …/items/{itemId}/move: the same item, in `toListId` now. */
export async function moveListItem(ref: ItemRef, toListId: string): Promise<ListItem> {
  return (await http<ListItemResponse>(`${itemPath(ref)}/move`, { method: 'POST', body: { list_id: toListId } })).data;
}

/**
 * A handle for a list named `name`: its Latin letters and digits, lowercased and joined by `-`,
 * with a few random characters so two lists of the same name (or of a name in another script,
 * which leaves nothing) never collide.
 */
export function handleFor(name: string, random: () => string = () => Math.random().toString(36).slice(2, 8)): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 24);
  return `${base || 'list'}-${random()}`.slice(0, 32);
}

/** POST /api/connections/{id}/lists: a new, empty list named `name`. */
export async function createList(connectionId: string, name: string): Promise<ProductList> {
  const body = { handle: handleFor(name), name: name.trim() };
  return (await http<ProductListResponse>(`/api/connections/${encodeURIComponent(connectionId)}/lists`, { method: 'POST', body })).data;
}
