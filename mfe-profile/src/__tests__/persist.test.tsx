// Spec 4, profile data on the client: cache per profile id, shown stale then reloaded, saved only
// when loaded and idle, another id's cache discarded.
import { act, screen, waitFor } from '@testing-library/react';
import { QueryClient, dehydrate } from '@tanstack/react-query';
import { PROFILE_CACHE_KEY } from '@portal/runtime';
import type { FetchStub, StubResponse } from '@portal/kit/fetch-stub';
import { PROFILE, backend, renderAt, resetAll } from './fixtures';
import { queryClient } from '../providers';
import { persistOptions } from '../persist';
import { profileKey } from '../features/shared/hooks/use-profile';

let stub: FetchStub;

function held() {
  let release!: (r: StubResponse) => void;
  const answer = new Promise<StubResponse>((resolve) => (release = resolve));
  return { route: () => answer, release };
}

/** What the persister writes: the buster (profile id), a timestamp and the dehydrated queries. */
function storedCache(buster: string, profileId: string, firstName: string, ageMs = 1000) {
  const other = new QueryClient();
  other.setQueryData(profileKey(profileId), { ...PROFILE, id: profileId, first_name: firstName });
  localStorage.setItem(PROFILE_CACHE_KEY, JSON.stringify({ buster, timestamp: Date.now() - ageMs, clientState: dehydrate(other) }));
}

const stored = () => JSON.parse(localStorage.getItem(PROFILE_CACHE_KEY) ?? 'null');

beforeEach(() => resetAll());
afterEach(() => stub.restore());

it('starts from the cache of the signed-in profile, marked stale, then reloads', async () => {
  storedCache('p_demo', 'p_demo', 'Cached');
  const profile = held();
  stub = backend({ 'GET /api/profile': profile.route });
  await renderAt('/profile');
  // Saved a second ago (fresher than the 30 s stale time), still shown at once and reloaded.
  expect(await screen.findByText('Cached Demo')).toBeInTheDocument();
  await waitFor(() => expect(stub.calls.filter((c) => c.path === '/api/profile')).toHaveLength(1));
  await act(async () => profile.release({ body: PROFILE }));
  expect(await screen.findByText('Dana Demo')).toBeInTheDocument();
});

it('discards the cache of another profile id instead of showing it', async () => {
  storedCache('p_other', 'p_other', 'Olga');
  const profile = held();
  stub = backend({ 'GET /api/profile': profile.route });
  await renderAt('/profile');
  await waitFor(() => expect(stub.calls.filter((c) => c.path === '/api/profile')).toHaveLength(1));
  expect(screen.queryByText(/Olga/)).toBeNull();
  expect(queryClient.getQueryData(profileKey('p_other'))).toBeUndefined();
  expect(localStorage.getItem(PROFILE_CACHE_KEY)).toBeNull();
  await act(async () => profile.release({ body: PROFILE }));
  expect(await screen.findByText('Dana Demo')).toBeInTheDocument();
});

it('saves the cache under the profile id once loaded, and not while the first load is running', async () => {
  // A save throttled by an earlier test lands first; this test starts from empty storage after it.
  await act(() => new Promise((r) => setTimeout(r, 1100)));
  localStorage.clear();
  const profile = held();
  stub = backend({ 'GET /api/profile': profile.route });
  await renderAt('/profile');
  await waitFor(() => expect(stub.calls.filter((c) => c.path === '/api/profile')).toHaveLength(1));
  // Other queries (tiers…) land meanwhile; with the profile not initialised nothing is written.
  await act(() => new Promise((r) => setTimeout(r, 1200)));
  expect(localStorage.getItem(PROFILE_CACHE_KEY)).toBeNull();
  await act(async () => profile.release({ body: PROFILE }));
  const keys = () => stored()?.clientState.queries.map((q: { queryKey: unknown[] }) => q.queryKey);
  await waitFor(() => expect(stored()?.buster).toBe('p_demo'), { timeout: 3000 });
  // The tiers load once the profile is shown: a later save adds them.
  await waitFor(
    () =>
      expect(keys()).toEqual(
        expect.arrayContaining([
          ['profile', 'p_demo'],
          ['tiers', 'p_demo'],
        ]),
      ),
    { timeout: 3000 },
  );
  // Only profile data of this id: not the access log nor another id.
  expect(keys().every((k: unknown[]) => k[1] === 'p_demo' && ['profile', 'tiers'].includes(String(k[0])))).toBe(true);
});

it('does not save while the profile is reloading', async () => {
  stub = backend();
  const options = persistOptions(queryClient, 'p_demo', 0);
  const client = { buster: 'p_demo', timestamp: Date.now(), clientState: { queries: [], mutations: [] } };
  queryClient.setQueryData(profileKey('p_demo'), PROFILE);
  const reload = held();
  stub.restore();
  stub = backend({ 'GET /api/profile': reload.route });
  const fetching = queryClient.fetchQuery({
    queryKey: profileKey('p_demo'),
    queryFn: () => reload.route().then((r) => r.body),
    staleTime: 0,
  });
  await options.persister.persistClient(client);
  await new Promise((r) => setTimeout(r, 10));
  expect(localStorage.getItem(PROFILE_CACHE_KEY)).toBeNull();
  reload.release({ body: PROFILE });
  await fetching;
  await options.persister.persistClient(client);
  await waitFor(() => expect(stored()?.buster).toBe('p_demo'));
});

it('where the browser blocks storage (a third-party iframe), My Details still works, keeping nothing', async () => {
  const real = Object.getOwnPropertyDescriptor(window, 'localStorage')!;
  Object.defineProperty(window, 'localStorage', {
    configurable: true,
    get: () => {
      throw new DOMException('Access is denied for this document.', 'SecurityError');
    },
  });
  try {
    stub = backend();
    await renderAt('/profile');
    expect(await screen.findByText('Dana Demo')).toBeInTheDocument();
    await act(() => new Promise((r) => setTimeout(r, 1100)));
  } finally {
    Object.defineProperty(window, 'localStorage', real);
  }
});
