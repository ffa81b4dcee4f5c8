import { initI18n, type TransactionItem } from '@portal/runtime';
import { stubFetch, type FetchStub, type StubRoute } from '@portal/kit/fetch-stub';
import { WishListError, addToWishList, assignToConnectionList } from '../features/transactions/api/wishlist';
import { refused } from './fixtures';

const SHIRT: TransactionItem = {
  id: 't1_item0',
  name: 'Linen shirt',
  quantity: 1,
  amount_cents: 8990,
  product: { id: 'prd_linen_shirt', name: 'Linen shirt', variant_id: 'var_linen_shirt_m' },
  list_item: null,
};
const BELT: TransactionItem = {
  ...SHIRT,
  id: 't1_item1',
  name: 'Canvas belt',
  product: { id: 'prd_canvas_belt', name: 'Canvas belt', variant_id: '' },
};

const SHOP = {
  id: 'con_shop',
  definition: { id: 'def_shop' },
  connector: 'shopify',
  name: 'Online shop',
  created_at: '2026-11-01T00:00:00Z',
};
const WISH = {
  id: 'con_wish',
  definition: { id: 'wishlist' },
  connector: 'portal-lists',
  name: 'Wish lists',
  created_at: '2026-11-01T00:00:00Z',
};
const LIST = { id: 'lst_wish', handle: 'wishlist', name: 'Wish list', items: [] };
const LINK = { id: 'li_1', list_id: 'lst_wish', connection_id: 'con_wish' };
const listItem = (body: Record<string, unknown>) => ({
  data: {
    id: 'li_1',
    list_id: 'lst_wish',
    product_id: body.product_id ?? '',
    product_variant_id: body.product_variant_id ?? '',
    source: body.source,
    created_at: '2026-11-21T00:00:00Z',
  },
});

/** A member who already has the wish-list connection and its list. */
function existing(routes: Record<string, StubRoute> = {}): FetchStub {
  return stubFetch({
    'GET /api/connections': { body: { data: [SHOP, WISH] } },
    'GET /api/connections/con_wish/lists': { body: { data: [LIST] } },
    'POST /api/connections/con_wish/lists/lst_wish/items': (req) => ({ status: 201, body: listItem(req.body as Record<string, unknown>) }),
    'POST /api/profile/transactions/items/t1_item0/list-item': { body: { data: LINK } },
    'POST /api/profile/transactions/items/t1_item1/list-item': { body: { data: LINK } },
    ...routes,
  });
}

let stub: FetchStub;
beforeEach(() => initI18n('?lang=en'));
afterEach(() => stub?.restore());

const steps = () => stub.calls.map((c) => `${c.method} ${c.url}`);
const bodies = () => stub.calls.filter((c) => c.method === 'POST').map((c) => [c.path, c.body]);

async function failure(run: () => Promise<unknown>): Promise<WishListError> {
  try {
    await run();
  } catch (err) {
    expect(err).toBeInstanceOf(WishListError);
    return err as WishListError;
  }
  throw new Error('expected a failure');
}

describe('add to wish list: the client flow', () => {
  it('creates the wishlist connection and its list when the member has neither, adds the variant and links the item', async () => {
    stub = existing({
      'GET /api/connections': { body: { data: [SHOP] } },
      'POST /api/connections': { status: 201, body: { data: WISH } },
      'GET /api/connections/con_wish/lists': { body: { data: [] } },
      'POST /api/connections/con_wish/lists': { status: 201, body: { data: LIST } },
    });
    await expect(addToWishList(SHIRT)).resolves.toEqual(LINK);
    expect(steps()).toEqual([
      'GET /api/connections?page%5Bsize%5D=500',
      'POST /api/connections',
      'GET /api/connections/con_wish/lists?filter%5Bhandle%5D=wishlist',
      'POST /api/connections/con_wish/lists',
      'POST /api/connections/con_wish/lists/lst_wish/items',
      'POST /api/profile/transactions/items/t1_item0/list-item',
    ]);
    expect(bodies()).toEqual([
      ['/api/connections', { definition_id: 'wishlist' }],
      ['/api/connections/con_wish/lists', { handle: 'wishlist', name: 'Wish list' }],
      ['/api/connections/con_wish/lists/lst_wish/items', { source: 'profile-portal', product_variant_id: 'var_linen_shirt_m' }],
      ['/api/profile/transactions/items/t1_item0/list-item', { product_list_item_id: 'li_1', type: 'link' }],
    ]);
  });

  it('uses the member’s wishlist connection and list, and the product when it has no variant', async () => {
    stub = existing();
    await expect(addToWishList(BELT)).resolves.toEqual(LINK);
    expect(steps()).toEqual([
      'GET /api/connections?page%5Bsize%5D=500',
      'GET /api/connections/con_wish/lists?filter%5Bhandle%5D=wishlist',
      'POST /api/connections/con_wish/lists/lst_wish/items',
      'POST /api/profile/transactions/items/t1_item1/list-item',
    ]);
    expect(bodies()[0]).toEqual([
      '/api/connections/con_wish/lists/lst_wish/items',
      { source: 'profile-portal', product_id: 'prd_canvas_belt' },
    ]);
  });

  it('finds what another add made meanwhile when creating answers 409', async () => {
    let connections = [SHOP];
    let lists: unknown[] = [];
    stub = existing({
      'GET /api/connections': () => ({ body: { data: connections } }),
      'POST /api/connections': () => {
        connections = [SHOP, WISH];
        return refused({ definition_id: 'You already have this connection' }, 409, 'You already have this connection');
      },
      'GET /api/connections/con_wish/lists': () => ({ body: { data: lists } }),
      'POST /api/connections/con_wish/lists': () => {
        lists = [LIST];
        return refused({ handle: 'taken' }, 409, 'Error creating list');
      },
    });
    await expect(addToWishList(SHIRT)).resolves.toEqual(LINK);
    expect(steps().filter((s) => s.startsWith('GET'))).toHaveLength(4);
  });

  it.each([
    ['the connections cannot be read', { 'GET /api/connections': { status: 500 } }, 'Error creating list'],
    [
      'the connection cannot be created',
      { 'GET /api/connections': { body: { data: [] } }, 'POST /api/connections': refused({ definition_id: 'Unknown' }) },
      'Error creating list',
    ],
    ['the lists cannot be read', { 'GET /api/connections/con_wish/lists': { status: 404 } }, 'Error creating list'],
    [
      'the list cannot be created',
      {
        'GET /api/connections/con_wish/lists': { body: { data: [] } },
        'POST /api/connections/con_wish/lists': refused({ handle: 'Required' }, 422, 'Error creating list'),
      },
      'Error creating list',
    ],
    [
      'the item cannot be added',
      { 'POST /api/connections/con_wish/lists/lst_wish/items': refused({ product_id: 'Give one' }, 422, 'Error creating list Item') },
      'Error creating list Item',
    ],
    [
      'the item cannot be added (network)',
      { 'POST /api/connections/con_wish/lists/lst_wish/items': { networkError: true } },
      'Error creating list Item',
    ],
    [
      'the purchase cannot be linked',
      { 'POST /api/profile/transactions/items/t1_item0/list-item': refused({}, 404, 'Error assigning item') },
      'Error assigning item',
    ],
  ] as [string, Record<string, StubRoute>, string][])('fails with the spec’s message when %s', async (_, routes, message) => {
    stub = existing(routes);
    const err = await failure(() => addToWishList(SHIRT));
    expect(err.message).toBe(message);
    // The failing call (each case's last route) was the last one made: nothing ran after it.
    const last = stub.calls[stub.calls.length - 1];
    expect(`${last.method} ${last.path}`).toBe(Object.keys(routes).at(-1));
  });

  it.each([
    ['no connection id', '', { handle: 'wishlist', item: SHIRT }],
    ['no list', 'con_wish', null],
    ['a list without a handle', 'con_wish', { handle: '', item: SHIRT }],
    ['a list without an item', 'con_wish', { handle: 'wishlist', item: null }],
    ['an item without a product', 'con_wish', { handle: 'wishlist', item: { ...SHIRT, product: null } }],
    ['a product without ids', 'con_wish', { handle: 'wishlist', item: { ...SHIRT, product: { id: '', name: 'x', variant_id: '' } } }],
  ] as const)('an assignment with %s is "Invalid Arguments", before any call', async (_, connectionId, list) => {
    stub = existing();
    const err = await failure(() => assignToConnectionList(connectionId, list as never));
    expect(err.message).toBe('Invalid Arguments');
    expect(err.code).toBe('invalidArguments');
    expect(stub.calls).toEqual([]);
  });

  it('creates nothing for an item that cannot go on a list', async () => {
    stub = existing();
    expect((await failure(() => addToWishList({ ...SHIRT, product: null }))).message).toBe('Invalid Arguments');
    expect(stub.calls).toEqual([]);
  });
});
