// /wishlist: the member's connection lists with their items (named from the purchases loaded),
// an empty state, "Open in app" (gotoWishlist) only where the native wrapper offers it, and
// offline the lists last read, read-only.
import { act, fireEvent, screen, within } from '@testing-library/react';
import { QueryClient, dehydrate } from '@tanstack/react-query';
import { ORDERS_CACHE_KEY, networkStore } from '@portal/runtime';
import type { FetchStub, StubRoute } from '@portal/kit/fetch-stub';
import { installReactNative, postedActions, removeNativeWrappers } from '@portal/kit/native-testing';
import { backend, renderAt, resetAll } from './fixtures';

const WISH = {
  id: 'con_wish',
  definition: { id: 'wishlist' },
  connector: 'portal-lists',
  name: 'Wish lists',
  created_at: '2026-11-01T00:00:00Z',
};
const item = (id: string, variant: string, product = '') => ({
  id,
  list_id: 'lst_wish',
  product_id: product,
  product_variant_id: variant,
  source: 'profile-portal',
  created_at: '2026-11-03T00:00:00Z',
});
const LISTS = [
  {
    id: 'lst_wish',
    handle: 'wishlist',
    name: 'Wish list',
    items: [item('li_1', 'var_linen_shirt_m'), item('li_2', '', 'prd_canvas_belt')],
  },
  { id: 'lst_gifts', handle: 'gifts', name: 'Gifts', items: [item('li_3', '', 'prd_unknown')] },
];

function withLists(lists: unknown[], routes: Record<string, StubRoute> = {}) {
  return backend({
    'GET /api/connections': { body: { data: [WISH] } },
    'GET /api/connections/con_wish/lists': { body: { data: lists } },
    ...routes,
  });
}

let stub: FetchStub;
let posted: Record<string, unknown>[];
beforeEach(() => {
  resetAll();
  posted = [];
});
afterEach(() => {
  act(() => networkStore.set({ online: true }));
  stub.restore();
  removeNativeWrappers();
});

describe('the wish list screen', () => {
  it('lists each list with its items, named from the purchases', async () => {
    stub = withLists(LISTS);
    await renderAt('/wishlist');
    expect(await screen.findByRole('heading', { level: 1, name: 'Wish List' })).toBeInTheDocument();
    const wish = await screen.findByRole('region', { name: 'Wish list' });
    const wishItems = within(wish).getAllByRole('listitem');
    expect(wishItems.map((li) => li.querySelector('.wishlist-item__name')?.textContent)).toEqual(['Linen shirt', 'Canvas belt']);
    const gifts = screen.getByRole('region', { name: 'Gifts' });
    expect(within(gifts).getByText('Product prd_unknown')).toBeInTheDocument();
    expect(stub.calls.some((c) => c.url.includes('page%5Bsize%5D=500'))).toBe(true);
  });

  it('without the purchases, the items show their ids', async () => {
    stub = withLists(LISTS, { 'GET /api/profile/transactions': { status: 500, body: { error: true, message: '' } } });
    await renderAt('/wishlist');
    const wish = await screen.findByRole('region', { name: 'Wish list' });
    expect(within(wish).getByText('Product var_linen_shirt_m')).toBeInTheDocument();
  });

  it('says so when no list holds anything', async () => {
    stub = withLists([{ ...LISTS[0], items: [] }]);
    await renderAt('/wishlist');
    expect(await screen.findByText('Your wish list is empty. Add purchases to it from My Orders.')).toBeInTheDocument();
  });

  it('a member with no connection sees the empty state', async () => {
    stub = backend({ 'GET /api/connections': { body: { data: [] } } });
    await renderAt('/wishlist');
    expect(await screen.findByText(/Your wish list is empty/)).toBeInTheDocument();
  });

  it('is linked from My Orders', async () => {
    stub = withLists(LISTS);
    await renderAt('/transactions');
    const nav = await screen.findByRole('navigation', { name: 'My orders sections' });
    expect(within(nav).getByRole('link', { name: 'Wish List' })).toHaveAttribute('href', '/wishlist');
  });

  it('no "Open in app" in a browser', async () => {
    stub = withLists(LISTS);
    await renderAt('/wishlist');
    await screen.findByRole('region', { name: 'Wish list' });
    expect(screen.queryByRole('button', { name: 'Open in app' })).toBeNull();
  });

  it('inside the app, "Open in app" posts gotoWishlist', async () => {
    installReactNative(posted);
    stub = withLists(LISTS);
    await renderAt('/wishlist');
    fireEvent.click(await screen.findByRole('button', { name: 'Open in app' }));
    expect(postedActions(posted).map((m) => m.action)).toEqual(['gotoWishlist']);
  });

  it('offline, shows the lists last read on this device', async () => {
    const other = new QueryClient();
    other.setQueryData(['wishlists', 'p_demo'], { connections: [{ connection: WISH, lists: LISTS }], names: { li_3: 'Silk scarf' } });
    localStorage.setItem(ORDERS_CACHE_KEY, JSON.stringify({ buster: 'p_demo', timestamp: Date.now(), clientState: dehydrate(other) }));
    stub = backend();
    act(() => networkStore.set({ online: false }));
    await renderAt('/wishlist');
    const gifts = await screen.findByRole('region', { name: 'Gifts' });
    expect(within(gifts).getByText('Silk scarf')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(stub.calls.filter((c) => c.path.startsWith('/api/connections'))).toEqual([]);
  });
});
