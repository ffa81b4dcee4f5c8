// /wishlist writes: remove an item, move it to another list (the same product there gives way),
// make a new list, open the product from the tenant's URL pattern; a staff view only reads;
// offline the writes are off; failures say why in the member's language.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { configStore, networkStore, type PortalConfig } from '@portal/runtime';
import type { FetchStub, StubRoute } from '@portal/kit/fetch-stub';
import { handleFor } from '../features/wishlist-screen/api/list-items';
import { productUrl } from '../features/wishlist-screen/lib/product-url';
import { CONFIG, backend, refused, renderAt, resetAll, signIn, toasts } from './fixtures';

const WISH = {
  id: 'con_wish',
  definition: { id: 'wishlist' },
  connector: 'portal-lists',
  name: 'Wish lists',
  created_at: '2026-11-01T00:00:00Z',
};
const item = (id: string, list: string, variant: string, product = '') => ({
  id,
  list_id: list,
  product_id: product,
  product_variant_id: variant,
  source: 'profile-portal',
  created_at: '2026-11-03T00:00:00Z',
});
const SHIRT = item('li_1', 'lst_wish', 'var_linen_shirt_m');
const BELT = item('li_2', 'lst_wish', '', 'prd_canvas_belt');
const LISTS = [
  { id: 'lst_wish', handle: 'wishlist', name: 'Wish list', items: [SHIRT, BELT] },
  { id: 'lst_gifts', handle: 'gifts-x1', name: 'Gifts', items: [item('li_3', 'lst_gifts', '', 'prd_canvas_belt')] },
];
const ITEM_PATH = '/api/connections/con_wish/lists/lst_wish/items';

type Item = ReturnType<typeof item>;
type List = { id: string; handle: string; name: string; items: Item[] };

/**
 * The member's lists as the server keeps them: GET answers what the writes left (a DELETE or a
 * move answered 2xx changes them, as the connections service does), so a re-read agrees.
 */
function withLists(routes: Record<string, StubRoute> = {}, start: List[] = LISTS) {
  const lists: List[] = start.map((l) => ({ ...l, items: [...l.items] }));
  const writes: Record<string, StubRoute> = {};
  for (const [key, route] of Object.entries(routes)) {
    writes[key] = async (req) => {
      const reply = typeof route === 'function' ? await route(req) : route;
      const ok = (reply.status ?? 200) < 300;
      const id = req.path.split('/items/')[1]?.split('/')[0];
      if (ok && req.method === 'DELETE') for (const l of lists) l.items = l.items.filter((i) => i.id !== id);
      if (ok && req.path.endsWith('/move')) {
        const moved = (reply.body as { data: Item }).data;
        for (const l of lists)
          l.items = l.items.filter(
            (i) =>
              i.id !== moved.id &&
              !(l.id === moved.list_id && i.product_id === moved.product_id && i.product_variant_id === moved.product_variant_id),
          );
        lists.find((l) => l.id === moved.list_id)?.items.push(moved);
      }
      if (ok && req.method === 'POST' && req.path.endsWith('/lists')) lists.push((reply.body as { data: List }).data);
      return reply;
    };
  }
  return backend({
    'GET /api/connections': { body: { data: [WISH] } },
    'GET /api/connections/con_wish/lists': () => ({ body: { data: lists } }),
    ...writes,
  });
}

const region = (name: string) => screen.findByRole('region', { name });
const names = (r: HTMLElement) =>
  within(r)
    .queryAllByRole('listitem')
    .map((li) => li.querySelector('.wishlist-item__name')?.textContent);

let stub: FetchStub;
beforeEach(() => resetAll());
afterEach(() => {
  act(() => networkStore.set({ online: true }));
  stub.restore();
});

describe('removing an item', () => {
  it('deletes it, shows it gone, says so and puts the focus on its list', async () => {
    stub = withLists({ [`DELETE ${ITEM_PATH}/li_1`]: { status: 204 } });
    await renderAt('/wishlist');
    const wish = await region('Wish list');
    fireEvent.click(within(wish).getByRole('button', { name: /^Remove\s*: Linen shirt$/ }));
    await waitFor(() => expect(names(wish)).toEqual(['Canvas belt']));
    expect(stub.calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`${ITEM_PATH}/li_1`]);
    expect(toasts()).toContain('success: Linen shirt removed from your wish list');
    expect(within(wish).getByRole('heading', { name: 'Wish list' })).toHaveFocus();
    // My Orders reads its links again ("On your wish list" follows the list).
    await waitFor(() => expect(stub.calls.filter((c) => c.path === '/api/profile/transactions').length).toBeGreaterThan(1));
  });

  it("an item already gone says so, in the member's words", async () => {
    stub = withLists({ [`DELETE ${ITEM_PATH}/li_1`]: refused({}, 404, 'No such list item') });
    await renderAt('/wishlist');
    fireEvent.click(within(await region('Wish list')).getByRole('button', { name: /^Remove\s*: Linen shirt$/ }));
    await waitFor(() => expect(toasts()).toContain('error: That item has already changed. The list is up to date now.'));
  });
});

describe('moving an item', () => {
  it('moves it to the list chosen; the same product there gives way', async () => {
    stub = withLists({
      [`POST ${ITEM_PATH}/li_2/move`]: (req) => ({ body: { data: { ...BELT, list_id: (req.body as { list_id: string }).list_id } } }),
    });
    await renderAt('/wishlist');
    const wish = await region('Wish list');
    const row = within(wish).getAllByRole('listitem')[1];
    const select = within(row).getByLabelText('Move to (Canvas belt)');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Gifts']);
    fireEvent.change(select, { target: { value: 'lst_gifts' } });
    fireEvent.click(within(row).getByRole('button', { name: /^Move\s*: Canvas belt$/ }));
    const gifts = await region('Gifts');
    await waitFor(() => expect(names(wish)).toEqual(['Linen shirt']));
    expect(names(gifts)).toEqual(['Canvas belt']);
    expect(stub.calls.find((c) => c.method === 'POST')?.body).toEqual({ list_id: 'lst_gifts' });
    expect(toasts()).toContain('success: Canvas belt moved to Gifts');
    expect(within(wish).getByRole('heading', { name: 'Wish list' })).toHaveFocus();
  });

  it('a full list says so', async () => {
    stub = withLists({ [`POST ${ITEM_PATH}/li_1/move`]: refused({}, 422, 'This list already holds 200 items, the most it can') });
    await renderAt('/wishlist');
    fireEvent.click(within(await region('Wish list')).getByRole('button', { name: /^Move\s*: Linen shirt$/ }));
    await waitFor(() => expect(toasts()).toContain('error: That list is full. Remove something from it first.'));
  });

  it('with one list only, there is nowhere to move to', async () => {
    stub = withLists({}, [LISTS[0]]);
    await renderAt('/wishlist');
    const wish = await region('Wish list');
    expect(within(wish).queryByRole('button', { name: /^Move/ })).toBeNull();
    expect(within(wish).getAllByRole('button', { name: /^Remove/ })).toHaveLength(2);
  });
});

describe('a new list', () => {
  it('is made in the wish list connection and offered to move to', async () => {
    stub = withLists({
      'POST /api/connections/con_wish/lists': (req) => {
        const b = req.body as { handle: string; name: string };
        return { status: 201, body: { data: { id: 'lst_new', handle: b.handle, name: b.name, items: [] } } };
      },
    });
    await renderAt('/wishlist');
    await region('Wish list');
    fireEvent.click(screen.getByRole('button', { name: 'Create list' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter a name for the list');
    fireEvent.change(screen.getByLabelText('New list'), { target: { value: ' Birthday ideas ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create list' }));
    expect(await screen.findByRole('region', { name: 'Birthday ideas' })).toBeInTheDocument();
    const body = stub.calls.find((c) => c.method === 'POST')?.body as { handle: string; name: string };
    expect(body.name).toBe('Birthday ideas');
    expect(body.handle).toMatch(/^birthday-ideas-[a-z0-9]+$/);
    const select = within(await region('Wish list')).getByLabelText('Move to (Linen shirt)');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Gifts', 'Birthday ideas']);
  });

  it('handles: Latin letters and digits, never empty, at most 32', () => {
    const r = () => 'abc123';
    expect(handleFor('Birthday ideas!', r)).toBe('birthday-ideas-abc123');
    expect(handleFor('هدايا', r)).toBe('list-abc123');
    expect(handleFor('Crème brûlée', r)).toBe('creme-brulee-abc123');
    expect(handleFor('x'.repeat(60), r)).toHaveLength(31);
    expect(handleFor('x'.repeat(60), r)).toMatch(/^[a-z0-9_-]{1,32}$/);
  });
});

describe('opening the product', () => {
  const withUrls = {
    ...CONFIG,
    components: {
      connections: { productUrl: 'https://shop.example.com/products/{id}', variantUrl: 'https://shop.example.com/variants/{id}' },
    },
  } as unknown as PortalConfig;

  it('links each item to its page in the shop, in a new tab', async () => {
    act(() => configStore.set({ config: withUrls, loaded: true }));
    stub = withLists();
    await renderAt('/wishlist');
    const wish = await region('Wish list');
    const shirt = within(wish).getByRole('link', { name: /^Linen shirt\s*\(opens the shop in a new tab\)$/ });
    expect(shirt).toHaveAttribute('href', 'https://shop.example.com/variants/var_linen_shirt_m');
    expect(shirt).toHaveAttribute('target', '_blank');
    expect(shirt).toHaveAttribute('rel', 'noopener noreferrer');
    expect(within(wish).getByRole('link', { name: /Canvas belt/ })).toHaveAttribute(
      'href',
      'https://shop.example.com/products/prd_canvas_belt',
    );
  });

  it('without a pattern (or with one that is not https), items are not links', async () => {
    stub = withLists();
    await renderAt('/wishlist');
    expect(within(await region('Wish list')).queryAllByRole('link')).toEqual([]);
    const http = {
      components: { connections: { productUrl: 'http://shop.example.com/{id}', variantUrl: 'https://shop.example.com/v' } },
    } as unknown as PortalConfig;
    expect(productUrl(SHIRT, http)).toBeNull();
    expect(productUrl({ product_id: 'a b', product_variant_id: '' }, withUrls)).toBe('https://shop.example.com/products/a%20b');
  });
});

describe('who may change it', () => {
  it('a staff view reads the lists and has no way to change them', async () => {
    signIn({ impersonating: true });
    stub = withLists();
    await renderAt('/wishlist');
    const wish = await region('Wish list');
    expect(names(wish)).toEqual(['Linen shirt', 'Canvas belt']);
    expect(screen.queryByRole('button', { name: /Remove|Move|Create list/ })).toBeNull();
    expect(screen.queryByLabelText('New list')).toBeNull();
  });

  it('offline, the writes are off', async () => {
    stub = withLists();
    await renderAt('/wishlist');
    const wish = await region('Wish list');
    act(() => networkStore.set({ online: false }));
    expect(within(wish).getByRole('button', { name: /^Remove\s*: Linen shirt$/ })).toBeDisabled();
    expect(within(wish).getByRole('button', { name: /^Move\s*: Linen shirt$/ })).toBeDisabled();
    expect(screen.getByRole('button', { name: /Create list/ })).toBeDisabled();
  });
});
