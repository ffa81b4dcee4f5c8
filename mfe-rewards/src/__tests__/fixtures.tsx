// Shared by this MFE's tests: the contract's bodies (issue 9), the tenant config and a signed-in member.
import {
  REWARDS_CACHE_KEY,
  type Benefit,
  type CatalogueItem,
  type PointsEntry,
  type PointsPage,
  type PortalConfig,
  type Reward,
} from '@portal/runtime';
import { stubFetch, type FetchStub, type StubRoute } from '@portal/kit/fetch-stub';
import { errorAnswer, renderRoot, resetScreens, signIn, toasts } from '@portal/kit/screen-testing';
import { Root } from '../Root';
import { offlineCache, queryClient } from '../providers';

export const CONFIG = {
  general: { tenant: 'demo', timeZone: 'Australia/Melbourne' },
  lastUpdated: 1,
} as unknown as PortalConfig;

/** This year in Melbourne: the expiring dates are shown without it. */
export const THIS_YEAR = new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Melbourne', year: 'numeric' }).format(new Date());

export function reward(id: number, extra: Partial<Reward> = {}): Reward {
  return {
    id,
    name: '$10 voucher',
    description: 'Ten dollars off your next shop',
    terms: 'One per visit. Not redeemable for cash.',
    points_cost: 0,
    source: 'gift',
    catalogue_id: null,
    code: 'K7QM-4TXA-9PWD',
    status: 'available',
    issued_at: '2026-10-01T00:00:00Z',
    expires_at: '2026-12-31T02:00:00Z',
    used_at: null,
    ...extra,
  } as Reward;
}

/** The demo member's rewards: two available gifts, a used coffee, an expired free shipping. */
export const REWARDS: Reward[] = [
  reward(101),
  reward(102, { name: 'Free coffee', description: 'Any size, any milk', code: 'C0FF-EE12-3456', expires_at: null }),
  reward(103, {
    name: 'Free coffee',
    source: 'redemption',
    catalogue_id: 'coffee',
    points_cost: 300,
    code: 'USED-0000-0001',
    status: 'used',
    used_at: '2026-09-20T01:00:00Z',
  }),
  reward(104, { name: 'Free shipping', code: 'SHIP-0000-0002', status: 'expired', expires_at: '2026-09-01T02:00:00Z' }),
];

export function item(id: string, name: string, points: number, balance = 3049, extra: Partial<CatalogueItem> = {}): CatalogueItem {
  const needed = Math.max(0, points - balance);
  return {
    id,
    name,
    description: '',
    terms: '',
    points,
    valid_days: 30,
    affordable: needed === 0,
    points_needed: needed,
    ...extra,
  } as CatalogueItem;
}

export const CATALOGUE: CatalogueItem[] = [
  item('coffee', 'Free coffee', 300, 3049, { description: 'Any size, any milk', terms: 'One per visit.' }),
  item('voucher10', '$10 voucher', 1000),
  item('tote', 'Canvas tote bag', 1500),
  item('voucher25', '$25 voucher', 2500),
  item('styling', 'Personal styling session', 6000, 3049, { valid_days: 90 }),
];

export function entry(
  id: string,
  points: number,
  source: string,
  reason: string,
  issued_at: string,
  extra: Partial<PointsEntry> = {},
): PointsEntry {
  const kind =
    source === 'redemption' || source === 'conversion'
      ? 'spend'
      : source === 'expiry'
        ? 'expire'
        : source === 'staff' || source === 'import'
          ? 'adjust'
          : 'earn';
  return { id, points, kind, source, reason, reference: `ref:${id}`, issued_at, expires_at: null, ...extra } as PointsEntry;
}

export const LEDGER: PointsEntry[] = [
  entry('led_3', -300, 'redemption', 'Free coffee', '2026-11-10T03:00:00Z'),
  entry('led_2', 130, 'purchase', 'Melbourne Central', '2026-11-02T03:15:00Z', { expires_at: '2027-11-02T03:15:00Z' }),
  entry('led_1', -50, 'expiry', '', '2026-10-15T13:00:00Z'),
];

export const pointsPage = (data: PointsEntry[], meta: Partial<PointsPage['meta']> = {}): PointsPage =>
  ({ data, meta: { page: 1, per_page: 20, total: data.length, ...meta } }) as PointsPage;

export const TIER_PROGRESS = {
  measure: 'points',
  window_days: 365,
  qualifying: 3049,
  current: { handle: 'gold', name: 'Gold', threshold: 2000 },
  next: { handle: 'platinum', name: 'Platinum', threshold: 5000 },
  needed: 1951,
  progress_percent: 60,
  kept_until: '2026-12-18T02:00:00Z',
};

export function offer(id: number, extra: Partial<Benefit> = {}): Benefit {
  return {
    id,
    definition_id: id + 100,
    name: 'Double points this weekend',
    description: 'Earn 2x points on everything',
    banner_desktop: null,
    banner_mobile: null,
    ends_at: '2026-11-30T12:59:00Z',
    is_claimable: true,
    activated: false,
    activated_at: null,
    ...extra,
  } as Benefit;
}

export const OFFERS: Benefit[] = [
  offer(201, {
    name: 'Double points, this weekend only',
    description: 'Shop Saturday or Sunday and earn twice the points',
    banner_desktop: 'https://cdn.example.com/banners/double-wide.jpg',
    banner_mobile: 'https://cdn.example.com/banners/double-narrow.jpg',
  }),
  offer(202, {
    name: 'Birthday gift',
    description: 'A treat in your birthday month',
    is_claimable: false,
    ends_at: '2026-12-31T12:59:00Z',
  }),
  offer(203, {
    name: 'Free alterations',
    description: 'On any full-price suit',
    activated: true,
    activated_at: '2026-11-01T00:00:00Z',
    ends_at: '2027-01-31T12:59:00Z',
  }),
];

/** The routes every screen reads; a test adds or replaces what it exercises. */
export function backend(routes: Record<string, StubRoute> = {}): FetchStub {
  return stubFetch({
    'GET /api/profile/balances': { body: { data: { points: 3049, currency: 'AUD' } } },
    'GET /api/profile/tiers/progress': { body: { data: TIER_PROGRESS } },
    'GET /api/profile/points/expiring': {
      body: { data: [{ points: 1200, date: `${THIS_YEAR}-12-18`, expires_at: `${THIS_YEAR}-12-17T13:00:00Z` }] },
    },
    'GET /api/profile/rewards': { body: { data: REWARDS } },
    'GET /api/profile/rewards/catalogue': { body: { data: CATALOGUE } },
    'GET /api/profile/points': { body: pointsPage(LEDGER) },
    'GET /api/profile/benefits': { body: { data: OFFERS } },
    ...routes,
  });
}

export const failure = errorAnswer;

export { signIn };

/** Before each test: no offline cache of an earlier test (kept in localStorage), then resetScreens. */
export function resetAll() {
  localStorage.removeItem(REWARDS_CACHE_KEY);
  offlineCache.resetRestored();
  resetScreens(queryClient, CONFIG);
}

/** Renders this MFE at `path`. */
export const renderAt = (path: string) => renderRoot(Root, path);

export { toasts };
export const callsTo = (stub: FetchStub, method: string, path: string) => stub.calls.filter((c) => c.method === method && c.path === path);
