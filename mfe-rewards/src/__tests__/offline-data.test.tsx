// Offline, Rewards shows what this device last read (kept by the query persister under
// REWARDS_CACHE_KEY) with when that was, and an offline note, never "Something went wrong"; a
// ready-to-use voucher the list loaded opens offline (QR code and code) until its expiry passes.
import { act, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, dehydrate } from '@tanstack/react-query';
import { REWARDS_CACHE_KEY, forgetSession, networkStore } from '@portal/runtime';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { CATALOGUE, LEDGER, OFFERS, REWARDS, TIER_PROGRESS, backend, pointsPage, renderAt, resetAll, reward } from './fixtures';
import { offlineCache, queryClient } from '../providers';

/** 21 Nov 2026, 9:30 am in Melbourne (the tenant's zone). */
const SAVED_AT = Date.parse('2026-11-20T22:30:00Z');
const MISSING = "Not available offline: this hasn't been loaded on this device yet.";
const NOTE = "You're offline: this is what this device saved on your last visit.";

let stub: FetchStub;

/** What the persister writes: the buster (profile id), a timestamp and the dehydrated queries. */
function storeCache(entries: Array<[unknown[], unknown]>, buster = 'p_demo') {
  const other = new QueryClient();
  for (const [key, data] of entries) other.setQueryData(key, data, { updatedAt: SAVED_AT });
  localStorage.setItem(REWARDS_CACHE_KEY, JSON.stringify({ buster, timestamp: Date.now(), clientState: dehydrate(other) }));
}

const EVERYTHING: Array<[unknown[], unknown]> = [
  [['balances', 'p_demo'], { data: { points: 3049, currency: 'AUD' } }],
  [['tiers', 'p_demo', 'progress'], { data: TIER_PROGRESS }],
  [['expiring', 'p_demo'], { data: [] }],
  [['rewards', 'p_demo'], { data: REWARDS }],
  [['catalogue', 'p_demo'], { data: CATALOGUE }],
  [['points', 'p_demo', 'history'], { pages: [pointsPage(LEDGER)], pageParams: [1] }],
];

const offline = () => act(() => networkStore.set({ online: false }));

beforeEach(() => resetAll());
afterEach(() => {
  act(() => networkStore.set({ online: true }));
  stub.restore();
});

it('offline, Rewards shows the last known data with its time and an offline note, no error', async () => {
  storeCache(EVERYTHING);
  stub = backend();
  offline();
  await renderAt('/rewards');
  expect(await screen.findByText('3,049 points')).toBeInTheDocument();
  const note = screen.getByText(NOTE).closest('p')!;
  expect(note).toHaveAttribute('role', 'status');
  expect(within(note).getByText(/^Last updated .*21 Nov.*9:30/i)).toBeInTheDocument();
  expect(screen.getAllByRole('link', { name: 'Free coffee' }).length).toBeGreaterThan(0);
  expect(screen.queryByRole('alert')).toBeNull();
  expect(screen.queryByText(/Something went wrong|unknown error/i)).toBeNull();
  // Nothing was asked of the network: the queries wait for it.
  expect(stub.calls.filter((c) => c.path.startsWith('/api/profile'))).toEqual([]);
  // Back online, everything shown is read again.
  act(() => networkStore.set({ online: true }));
  await waitFor(() => expect(stub.calls.some((c) => c.path === '/api/profile/balances')).toBe(true));
  await waitFor(() => expect(screen.queryByText(NOTE)).toBeNull());
});

it('offline, a section this device never loaded says so, not an error', async () => {
  storeCache([[['balances', 'p_demo'], { data: { points: 3049, currency: 'AUD' } }]]);
  stub = backend();
  offline();
  await renderAt('/rewards');
  expect(await screen.findByText('3,049 points')).toBeInTheDocument();
  expect((await screen.findAllByText(MISSING)).length).toBeGreaterThan(0);
  expect(screen.queryByRole('alert')).toBeNull();
  expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
});

it('offline, the offers kept on this device are shown with their time', async () => {
  storeCache([[['benefits', 'p_demo'], { data: OFFERS }]]);
  stub = backend();
  offline();
  await renderAt('/offers');
  expect(await screen.findByText('Free alterations')).toBeInTheDocument();
  expect(screen.getByText(/^Last updated /)).toBeInTheDocument();
  expect(screen.queryByRole('alert')).toBeNull();
});

it('offline, a ready-to-use voucher the list loaded opens from the cache: its QR code and code', async () => {
  storeCache([[['rewards', 'p_demo'], { data: REWARDS }]]);
  stub = backend();
  offline();
  await renderAt('/rewards/item/101');
  expect(await screen.findByRole('heading', { level: 1, name: '$10 voucher' })).toBeInTheDocument();
  const qr = await screen.findByRole('img', { name: 'QR code of voucher K7QM-4TXA-9PWD' });
  expect(qr.tagName.toLowerCase()).toBe('svg');
  expect(screen.getByText('K7QM-4TXA-9PWD')).toBeInTheDocument();
  expect(screen.getByText(/^Last updated /)).toBeInTheDocument();
  expect(screen.queryByRole('alert')).toBeNull();
});

it('a voucher whose expiry passed since it was kept is expired: no QR code to scan', async () => {
  const lapsed = reward(105, { name: 'Lapsed gift', code: 'LAPS-0000-0005', status: 'available', expires_at: '2026-01-01T00:00:00Z' });
  storeCache([[['rewards', 'p_demo'], { data: [...REWARDS, lapsed] }]]);
  stub = backend();
  offline();
  await renderAt('/rewards/item/105');
  expect(await screen.findByRole('heading', { level: 1, name: 'Lapsed gift' })).toBeInTheDocument();
  expect(screen.getByText('This reward has expired.')).toBeInTheDocument();
  expect(screen.queryByRole('img', { name: /QR code/ })).toBeNull();
});

it('keeps a voucher’s own page for offline only while it is ready to use', () => {
  const { shouldDehydrateQuery } = offlineCache.persistOptions('p_demo').dehydrateOptions!;
  const kept = (id: number, extra: Parameters<typeof reward>[1]) => {
    queryClient.setQueryData(['rewards', 'p_demo', 'item', id], { data: reward(id, extra) });
    return shouldDehydrateQuery!(queryClient.getQueryCache().find({ queryKey: ['rewards', 'p_demo', 'item', id] })!);
  };
  expect(kept(101, {})).toBe(true);
  expect(kept(102, { expires_at: '2026-01-01T00:00:00Z' })).toBe(false);
  expect(kept(103, { status: 'used' })).toBe(false);
  // Another member's queries are never kept under this one.
  queryClient.setQueryData(['balances', 'p_other'], { data: { points: 1 } });
  expect(shouldDehydrateQuery!(queryClient.getQueryCache().find({ queryKey: ['balances', 'p_other'] })!)).toBe(false);
});

it('discards another member’s cache instead of showing it', async () => {
  storeCache(EVERYTHING, 'p_other');
  stub = backend();
  offline();
  await renderAt('/rewards');
  expect((await screen.findAllByText(MISSING)).length).toBeGreaterThan(0);
  expect(screen.queryByText('3,049 points')).toBeNull();
  await waitFor(() => expect(localStorage.getItem(REWARDS_CACHE_KEY)).toBeNull());
});

it('online, saves what it read under the member’s id', async () => {
  stub = backend();
  await renderAt('/rewards');
  await screen.findByText('3,049 points');
  const stored = () => JSON.parse(localStorage.getItem(REWARDS_CACHE_KEY) ?? 'null');
  await waitFor(() => expect(stored()?.buster).toBe('p_demo'), { timeout: 3000 });
  await waitFor(
    () =>
      expect(stored().clientState.queries.map((q: { queryKey: unknown[] }) => q.queryKey)).toEqual(
        expect.arrayContaining([
          ['balances', 'p_demo'],
          ['rewards', 'p_demo'],
          ['catalogue', 'p_demo'],
        ]),
      ),
    { timeout: 3000 },
  );
});

it('sign-out removes what was kept, and a save still on its way is dropped', async () => {
  stub = backend();
  await renderAt('/rewards');
  await screen.findByText('3,049 points');
  await waitFor(() => expect(localStorage.getItem(REWARDS_CACHE_KEY)).not.toBeNull(), { timeout: 3000 });
  // Something read just now: its save is throttled, still to come when the member signs out.
  act(() => queryClient.setQueryData(['balances', 'p_demo'], { data: { points: 1, currency: 'AUD' } }));
  act(() => forgetSession());
  expect(localStorage.getItem(REWARDS_CACHE_KEY)).toBeNull();
  await act(() => new Promise((r) => setTimeout(r, 1200)));
  expect(localStorage.getItem(REWARDS_CACHE_KEY)).toBeNull();
});
