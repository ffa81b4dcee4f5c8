// Offline, My Orders and the claims show what this device last read (kept by the query persister
// under ORDERS_CACHE_KEY) with when that was, never "Something went wrong"; "Load more" waits for
// the network, and says so.
import { act, screen, waitFor } from '@testing-library/react';
import { QueryClient, dehydrate } from '@tanstack/react-query';
import { ORDERS_CACHE_KEY, networkStore } from '@portal/runtime';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { ORDERS, backend, claim, page, renderAt, resetAll } from './fixtures';

const SAVED_AT = Date.parse('2026-11-20T22:30:00Z');
const MISSING = "Not available offline: this hasn't been loaded on this device yet.";
const MORE_OFFLINE = "You can load more when you're back online.";

let stub: FetchStub;

function storeCache(entries: Array<[unknown[], unknown]>, buster = 'p_demo') {
  const other = new QueryClient();
  for (const [key, data] of entries) other.setQueryData(key, data, { updatedAt: SAVED_AT });
  localStorage.setItem(ORDERS_CACHE_KEY, JSON.stringify({ buster, timestamp: Date.now(), clientState: dehydrate(other) }));
}

const offline = () => act(() => networkStore.set({ online: false }));

beforeEach(() => resetAll());
afterEach(() => {
  act(() => networkStore.set({ online: true }));
  stub.restore();
});

it('offline, My Orders shows the purchases last read, with their time, and no error', async () => {
  storeCache([
    [['transactions', 'p_demo'], { pages: [page(ORDERS, { per_page: ORDERS.length, total: ORDERS.length + 5 })], pageParams: [1] }],
  ]);
  stub = backend();
  offline();
  await renderAt('/transactions');
  expect(await screen.findByText('MC01-100200', { exact: false })).toBeInTheDocument();
  expect(screen.getByText(/^Last updated .*21 Nov.*9:30/i)).toBeInTheDocument();
  expect(screen.queryByRole('alert')).toBeNull();
  expect(screen.queryByText(/Something went wrong|unknown error/i)).toBeNull();
  const more = screen.getByRole('button', { name: 'Load more orders' });
  expect(more).toBeDisabled();
  expect(more).toHaveAccessibleDescription(MORE_OFFLINE);
  expect(stub.calls.filter((c) => c.path.startsWith('/api/profile'))).toEqual([]);
});

it('offline without anything kept: a note, not an error', async () => {
  stub = backend();
  offline();
  await renderAt('/transactions');
  expect(await screen.findByText(MISSING)).toBeInTheDocument();
  expect(screen.queryByRole('alert')).toBeNull();
});

it('offline, the claims last read are shown', async () => {
  storeCache([[['claims', 'p_demo'], { data: [claim()] }]]);
  stub = backend();
  offline();
  await renderAt('/claim-transaction');
  expect(await screen.findByText('MC01-100234', { exact: false })).toBeInTheDocument();
  expect(screen.queryByText(MISSING)).toBeNull();
  expect(screen.queryByRole('alert')).toBeNull();
});

it('online, saves the purchases under the member’s id; another member’s cache is discarded', async () => {
  storeCache([[['transactions', 'p_other'], { pages: [page(ORDERS)], pageParams: [1] }]], 'p_other');
  stub = backend();
  await renderAt('/transactions');
  await screen.findByText('MC01-100200', { exact: false });
  const stored = () => JSON.parse(localStorage.getItem(ORDERS_CACHE_KEY) ?? 'null');
  await waitFor(() => expect(stored()?.buster).toBe('p_demo'), { timeout: 3000 });
  expect(stored().clientState.queries.map((q: { queryKey: unknown[] }) => q.queryKey)).toEqual([['transactions', 'p_demo']]);
});
