// Profile data on the client (spec 4), kept by TanStack Query's persister under PROFILE_CACHE_KEY:
// - starts from the cache when it belongs to the signed-in profile (the buster is the profile
//   id, so another profile's cache is discarded, not shown), marked stale, then reloads;
// - the cache is saved only when the profile is initialised (loaded) and not loading;
// - sign-out clears the key with the rest of the session (runtime SESSION_STORAGE_KEYS).
import { useMemo, type ReactNode } from 'react';
import type { Query, QueryClient } from '@tanstack/react-query';
import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
import { PersistQueryClientProvider, type PersistQueryClientOptions } from '@tanstack/react-query-persist-client';
import { PROFILE_CACHE_KEY, useAuth } from '@portal/runtime';
import { profileKey } from './features/shared/hooks/use-profile';

/** The queries kept across page loads, keyed [name, profileId]. */
const PERSISTED = new Set(['profile', 'tiers']);
/** Saved at most once a second. */
export const SAVE_THROTTLE_MS = 1000;

/** Profile ids whose cache this page already restored (a remount, e.g. another tab of this MFE, does not reload again). */
const restored = new Set<string>();

/** The page's localStorage; none where the browser blocks it (e.g. a third-party iframe): then nothing is kept. */
function localStorageIfAllowed(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined;
  }
}

export function persistOptions(
  client: QueryClient,
  profileId: string,
  throttleTime = SAVE_THROTTLE_MS,
): Omit<PersistQueryClientOptions, 'queryClient'> {
  const storage = localStorageIfAllowed();
  const persister = createAsyncStoragePersister({ storage, key: PROFILE_CACHE_KEY, throttleTime });
  const initialisedAndIdle = () => {
    const state = client.getQueryState(profileKey(profileId));
    return state?.status === 'success' && state.fetchStatus === 'idle';
  };
  return {
    buster: profileId,
    persister: {
      ...persister,
      persistClient: (persisted) => (initialisedAndIdle() ? persister.persistClient(persisted) : undefined),
    },
    dehydrateOptions: {
      shouldDehydrateQuery: (query: Query) =>
        query.state.status === 'success' && query.queryKey[1] === profileId && PERSISTED.has(String(query.queryKey[0])),
      shouldDehydrateMutation: () => false,
    },
  };
}

/** Wraps this MFE's tree: restores the signed-in member's cached profile data and keeps it saved. */
export function ProfileCache({ client, children }: { client: QueryClient; children: ReactNode }) {
  const { profile_id: profileId } = useAuth();
  if (!profileId) return children;
  // Keyed by profile id: another account restores (and so busts) afresh and saves under its own id.
  return (
    <Persisted key={profileId} client={client} profileId={profileId}>
      {children}
    </Persisted>
  );
}

function Persisted({ client, profileId, children }: { client: QueryClient; profileId: string; children: ReactNode }) {
  const options = useMemo(() => persistOptions(client, profileId), [client, profileId]);
  const onRestored = () => {
    if (restored.has(profileId)) return undefined;
    restored.add(profileId);
    // Restored data is marked stale: the screens show it and reload it at once.
    return client.invalidateQueries({ predicate: (q) => q.queryKey[1] === profileId });
  };
  return (
    <PersistQueryClientProvider client={client} persistOptions={options} onSuccess={onRestored}>
      {children}
    </PersistQueryClientProvider>
  );
}

/** For tests: forget which profiles this page has restored. */
export function resetRestored(): void {
  restored.clear();
}
