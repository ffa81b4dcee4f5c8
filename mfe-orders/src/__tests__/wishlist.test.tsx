import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { languageReady, setLanguage } from '@portal/runtime';
import type { FetchStub, StubRoute } from '@portal/kit/fetch-stub';
import { backend, refused, renderAt, resetAll, toasts } from './fixtures';

const WISH = {
  id: 'con_wish',
  definition: { id: 'wishlist' },
  connector: 'portal-lists',
  name: 'Wish lists',
  created_at: '2026-11-01T00:00:00Z',
};
const LIST = { id: 'lst_wish', handle: 'wishlist', name: 'Wish list', items: [] };
const LINK = { id: 'li_9', list_id: 'lst_wish', connection_id: 'con_wish' };

function withWishList(routes: Record<string, StubRoute> = {}) {
  return backend({
    'GET /api/connections': { body: { data: [WISH] } },
    'GET /api/connections/con_wish/lists': { body: { data: [LIST] } },
    'POST /api/connections/con_wish/lists/lst_wish/items': {
      status: 201,
      body: {
        data: {
          id: 'li_9',
          list_id: 'lst_wish',
          product_id: '',
          product_variant_id: 'var_linen_shirt_m',
          source: 'profile-portal',
          created_at: '',
        },
      },
    },
    'POST /api/profile/transactions/items/t1_item0/list-item': { body: { data: LINK } },
    ...routes,
  });
}

let stub: FetchStub;
beforeEach(() => resetAll());
afterEach(() => {
  stub.restore();
  delete window.ReactNativeWebView;
  setLanguage('en');
});

async function openFirstOrder() {
  await renderAt('/transactions');
  fireEvent.click(await screen.findByRole('button', { name: /Melbourne Central/ }));
  return screen.getByRole('list', { name: 'Items' });
}
const line = (items: HTMLElement, name: string) =>
  within(items)
    .getAllByRole('listitem')
    .find((li) => li.textContent?.startsWith(name))!;

describe('add to wish list on My Orders', () => {
  it('adds an item, then shows it as on the wish list (focus moved there, told with a toast)', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    stub = withWishList({
      'POST /api/connections/con_wish/lists/lst_wish/items': async () => {
        await answered;
        return {
          status: 201,
          body: {
            data: {
              id: 'li_9',
              list_id: 'lst_wish',
              product_id: '',
              product_variant_id: 'var_linen_shirt_m',
              source: 'profile-portal',
              created_at: '',
            },
          },
        };
      },
    });
    const items = await openFirstOrder();
    const shirt = line(items, 'Linen shirt');
    const add = within(shirt).getByRole('button', { name: /^Add to wish list ?: Linen shirt$/ });
    add.focus();
    fireEvent.click(add);
    expect(await within(shirt).findByRole('button', { name: /Adding…/ })).toHaveAttribute('aria-busy', 'true');
    answer();
    const marked = await within(shirt).findByText('On your wish list');
    expect(within(shirt).queryByRole('button', { name: /Add to wish list/ })).toBeNull();
    expect(document.activeElement).toBe(marked);
    expect(toasts()).toEqual(['success: Linen shirt is on your wish list']);
    expect(stub.calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      '/api/connections/con_wish/lists/lst_wish/items',
      '/api/profile/transactions/items/t1_item0/list-item',
    ]);
    // The cached orders know it: collapsing and expanding again still shows it on the list.
    const toggle = screen.getByRole('button', { name: /Melbourne Central/ });
    fireEvent.click(toggle);
    fireEvent.click(toggle);
    expect(within(line(screen.getByRole('list', { name: 'Items' }), 'Linen shirt')).getByText('On your wish list')).toBeVisible();
  });

  it('shows an item already linked as on the wish list, with nothing to add', async () => {
    stub = withWishList();
    const items = await openFirstOrder();
    const belt = line(items, 'Canvas belt');
    expect(within(belt).getByText('On your wish list')).toBeInTheDocument();
    expect(within(belt).queryByRole('button')).toBeNull();
  });

  it.each([
    ['Error creating list', { 'GET /api/connections/con_wish/lists': { status: 500 } }],
    [
      'Error creating list Item',
      { 'POST /api/connections/con_wish/lists/lst_wish/items': refused({ product_id: 'x' }, 422, 'Error creating list Item') },
    ],
    ['Error assigning item', { 'POST /api/profile/transactions/items/t1_item0/list-item': refused({}, 404, 'Error assigning item') }],
  ] as [string, Record<string, StubRoute>][])('tells "%s" with an error toast and leaves the button', async (message, routes) => {
    stub = withWishList(routes);
    const items = await openFirstOrder();
    fireEvent.click(within(line(items, 'Linen shirt')).getByRole('button', { name: /Add to wish list/ }));
    await waitFor(() => expect(toasts()).toEqual([`error: ${message}`]));
    expect(within(line(items, 'Linen shirt')).getByRole('button', { name: /Add to wish list/ })).not.toHaveAttribute('aria-busy');
    expect(within(line(items, 'Linen shirt')).queryByText('On your wish list')).toBeNull();
  });

  it('tells the failure in the page’s language', async () => {
    stub = withWishList({ 'POST /api/profile/transactions/items/t1_item0/list-item': refused({}, 404, 'Error assigning item') });
    setLanguage('fr');
    await act(() => languageReady());
    await renderAt('/transactions');
    fireEvent.click(await screen.findByRole('button', { name: /Melbourne Central/ }));
    fireEvent.click(screen.getByRole('button', { name: /Ajouter à la liste d'envies ?: Linen shirt/ }));
    await waitFor(() => expect(toasts()).toEqual(["error: Erreur lors de l'attribution de l'article"]));
  });

  it('offers "View wish list" inside the native app, which posts gotoWishlist', async () => {
    const posted: string[] = [];
    window.ReactNativeWebView = { postMessage: (m: string) => posted.push(m) };
    stub = withWishList();
    const items = await openFirstOrder();
    fireEvent.click(within(line(items, 'Canvas belt')).getByRole('button', { name: 'View wish list' }));
    expect(posted.map((m) => JSON.parse(m)).filter((m) => m.action !== 'firebaseAnalytics')).toEqual([{ action: 'gotoWishlist' }]);
  });

  it('has no "View wish list" in a browser (no native wrapper)', async () => {
    stub = withWishList();
    await openFirstOrder();
    expect(screen.queryByRole('button', { name: 'View wish list' })).toBeNull();
  });
});
