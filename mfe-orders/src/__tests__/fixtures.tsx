// Shared by this MFE's tests: the contract's bodies, the tenant config and a signed-in member.
import { ORDERS_CACHE_KEY, type Claim, type PortalConfig, type Transaction, type TransactionList } from '@portal/runtime';
import { stubFetch, type FetchStub, type StubResponse, type StubRoute } from '@portal/kit/fetch-stub';
import { errorAnswer, renderRoot, resetScreens, signIn, toasts } from '@portal/kit/screen-testing';
import { Root } from '../Root';
import { offlineCache, queryClient } from '../providers';

export const CONFIG = {
  general: { tenant: 'demo', timeZone: 'Australia/Melbourne' },
  components: { claims: { windowDays: 30, pointsPerDollar: 1 } },
  lastUpdated: 1,
} as unknown as PortalConfig;

export function tx(id: string, transacted_at: string, extra: Partial<Transaction> = {}): Transaction {
  return {
    id,
    transacted_at,
    store: 'Melbourne Central',
    store_handle: 'melbourne-central',
    receipt_number: `R-${id}`,
    total_cents: 1000,
    currency: 'AUD',
    points: 10,
    items: [],
    ...extra,
  };
}

/** The demo's orders as the contract shows them: a shirt (a variant) and a belt (no variant). */
export const ORDERS: Transaction[] = [
  tx('t1', '2026-11-02T03:15:00Z', {
    receipt_number: 'MC01-100200',
    total_cents: 12990,
    points: 130,
    items: [
      {
        id: 't1_item0',
        name: 'Linen shirt',
        quantity: 1,
        amount_cents: 8990,
        product: { id: 'prd_linen_shirt', name: 'Linen shirt', variant_id: 'var_linen_shirt_m' },
        list_item: null,
      },
      {
        id: 't1_item1',
        name: 'Canvas belt',
        quantity: 1,
        amount_cents: 4000,
        product: { id: 'prd_canvas_belt', name: 'Canvas belt', variant_id: '' },
        list_item: { id: 'li_belt', list_id: 'lst_1', connection_id: 'con_1' },
      },
    ],
  }),
  tx('t2', '2026-11-02T01:00:00Z', {
    store: 'Chadstone',
    store_handle: 'chadstone',
    receipt_number: 'CH02-200480',
    total_cents: -2500,
    points: 0,
  }),
  tx('t3', '2026-10-20T05:00:00Z', { store: '', store_handle: 'online', receipt_number: 'WEB-300917', total_cents: 4000 }),
];

export const page = (data: Transaction[], meta: Partial<TransactionList['meta']> = {}): TransactionList => ({
  data,
  meta: { page: 1, per_page: 20, total: data.length, ...meta },
});

export function claim(extra: Partial<Claim> = {}): Claim {
  return {
    id: 'clm_1',
    store: 'melbourne-central',
    store_name: 'Melbourne Central',
    date: '2026-11-20',
    receipt_number: 'MC01-100234',
    amount_cents: 5995,
    status: 'credited',
    points: 60,
    transaction_id: 'txn_9',
    message: '',
    created_at: '2026-11-21T00:00:00Z',
    updated_at: '2026-11-21T00:00:00Z',
    ...extra,
  };
}

export const LOCATIONS = {
  latitude: null,
  longitude: null,
  locations: [
    {
      id: 2,
      handle: 'chadstone',
      name: 'Chadstone',
      external_code: 'CH02',
      external_id: '1002',
      latitude: -37.88,
      longitude: 145.08,
      distance: null,
    },
    {
      id: 1,
      handle: 'melbourne-central',
      name: 'Melbourne Central',
      external_code: 'MC01',
      external_id: '1001',
      latitude: -37.81,
      longitude: 144.96,
      distance: null,
    },
  ],
};

/** The routes every screen reads; a test adds or replaces what it exercises. */
export function backend(routes: Record<string, StubRoute> = {}): FetchStub {
  return stubFetch({
    'GET /api/profile/transactions': { body: page(ORDERS) },
    'GET /api/profile/claims': { body: { data: [] } },
    'GET /api/geolocation': { body: LOCATIONS },
    ...routes,
  });
}

export const refused = (errors: Record<string, string>, status = 422, message = 'Please check the highlighted fields'): StubResponse =>
  errorAnswer(status, message, errors);

export { signIn };

/** Before each test: no offline cache of an earlier test (kept in localStorage), then resetScreens. */
export function resetAll() {
  localStorage.removeItem(ORDERS_CACHE_KEY);
  offlineCache.resetRestored();
  resetScreens(queryClient, CONFIG);
}

/** Renders this MFE at `path`. */
export const renderAt = (path: string) => renderRoot(Root, path);

export { toasts };
