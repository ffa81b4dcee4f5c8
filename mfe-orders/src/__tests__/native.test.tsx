// Inside a native wrapper: My Orders' "Go to wish list" (gotoWishlist) and "Go to cart" (gotoCart),
// each only when the wrapper offers it; the wish-list add and the claim reported with the spec's
// prefixes (my_orders_, claim_transaction_).
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { installReactNative, postedActions, postedEvents, removeNativeWrappers } from '@portal/kit/native-testing';
import { backend, claim, renderAt, resetAll } from './fixtures';
import { daysBefore, todayIn } from '../lib/dates';

let stub: FetchStub;
let posted: Record<string, unknown>[];
beforeEach(() => {
  resetAll();
  posted = [];
});
afterEach(() => {
  stub.restore();
  removeNativeWrappers();
});

const reactNative = () => installReactNative(posted);
const actions = () => postedActions(posted).map((m) => m.action);
const events = () => postedEvents(posted);

async function openOrders() {
  await renderAt('/transactions');
  await screen.findByRole('button', { name: /Melbourne Central/ });
}
const appLinks = () => screen.queryByRole('group', { name: 'In the app' });

describe('My Orders inside the app', () => {
  it('shows no app buttons in a browser', async () => {
    stub = backend();
    await openOrders();
    expect(appLinks()).toBeNull();
    expect(screen.queryByRole('button', { name: 'Go to cart' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Go to wish list' })).toBeNull();
  });

  it('a wrapper that declares nothing gets both; each posts its action and an event', async () => {
    reactNative();
    stub = backend();
    await openOrders();
    const group = appLinks()!;
    fireEvent.click(within(group).getByRole('button', { name: 'Go to wish list' }));
    fireEvent.click(within(group).getByRole('button', { name: 'Go to cart' }));
    expect(actions()).toEqual(['gotoWishlist', 'gotoCart']);
    expect(events()).toEqual([
      { name: 'my_orders_goto_wishlist', params: {} },
      { name: 'my_orders_goto_cart', params: {} },
    ]);
  });

  it('a wrapper (iOS shape) that declares only gotoCart gets only "Go to cart"', async () => {
    window.webkit = { messageHandlers: { portal: { postMessage: (m: unknown) => posted.push(m as Record<string, unknown>) } } };
    window.PortalNative = { actions: ['gotoCart'] };
    stub = backend();
    await openOrders();
    expect(
      within(appLinks()!)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Go to cart']);
    fireEvent.click(screen.getByRole('button', { name: 'Go to cart' }));
    expect(actions()).toEqual(['gotoCart']);
  });

  it('a wrapper that declares neither shows no group at all', async () => {
    reactNative();
    window.PortalNative = { actions: ['addAppleWallet'] };
    stub = backend();
    await openOrders();
    expect(appLinks()).toBeNull();
  });
});

describe('custom events', () => {
  it('my_orders_wishlist_add when an item goes on the wish list', async () => {
    reactNative();
    const WISH = {
      id: 'con_wish',
      definition: { id: 'wishlist' },
      connector: 'portal-lists',
      name: 'Wish lists',
      created_at: '2026-11-01T00:00:00Z',
    };
    stub = backend({
      'GET /api/connections': { body: { data: [WISH] } },
      'GET /api/connections/con_wish/lists': { body: { data: [{ id: 'lst_wish', handle: 'wishlist', name: 'Wish list', items: [] }] } },
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
      'POST /api/profile/transactions/items/t1_item0/list-item': {
        body: { data: { id: 'li_9', list_id: 'lst_wish', connection_id: 'con_wish' } },
      },
    });
    await openOrders();
    fireEvent.click(screen.getByRole('button', { name: /Melbourne Central/ }));
    const items = screen.getByRole('list', { name: 'Items' });
    const shirt = within(items)
      .getAllByRole('listitem')
      .find((li) => li.textContent?.startsWith('Linen shirt'))!;
    fireEvent.click(within(shirt).getByRole('button', { name: /Add to wish list/ }));
    await within(shirt).findByText('On your wish list');
    expect(events()).toEqual([{ name: 'my_orders_wishlist_add', params: {} }]);
  });

  it('claim_transaction_submit with the claim’s status', async () => {
    reactNative();
    stub = backend({
      'POST /api/profile/claims': { status: 201, body: { data: claim({ status: 'pending', points: 0, transaction_id: null }) } },
    });
    await renderAt('/claim-transaction');
    await screen.findByRole('option', { name: 'Melbourne Central' });
    const values: Record<string, string> = {
      Store: 'melbourne-central',
      'Date of purchase': daysBefore(todayIn('Australia/Melbourne'), 1),
      'Receipt number': 'MC01-100234',
      'Amount paid': '12',
    };
    for (const [label, value] of Object.entries(values)) fireEvent.change(screen.getByLabelText(label), { target: { value } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit claim' }));
    await screen.findByText('Claim received: pending');
    await waitFor(() => expect(events()).toEqual([{ name: 'claim_transaction_submit', params: { status: 'pending' } }]));
  });
});
