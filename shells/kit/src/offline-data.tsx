// Reads kept for offline (the till in a basement), for the tabs that show the member's data
// (Rewards, My Orders), by TanStack Query's persister, as mfe-profile keeps its profile:
// - `followNetwork()`: TanStack Query's online state follows the runtime's (browser events and the
//   3 s poll), so offline a query with data keeps it and waits (paused), instead of failing;
// - `createOfflineCache(client, …)`: the named queries of the signed-in member saved in
//   localStorage under one key, restored on the next page load (marked stale: reloaded once
//   online); the profile id is the buster, so another member's cache is discarded, never shown;
//   it is written only while that member is signed in, and removed at any session change
//   (sign-out, another account, a staff view) and by the runtime's sign-out (SESSION_STORAGE_KEYS);
// - `<OfflineNote updatedAt>`: offline, "You're offline: … Last updated <time>" above the data;
// - `<NoData query>`: what a section shows without data: loading, or offline a note that it has
//   not been loaded on this device yet (not an error), else the error with a retry.
// Strings in the tab's own namespace: offlineData.note, offlineData.lastUpdated,
// offlineData.missing, in each of its languages. A build-time package: each tab bundles its copy.
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { onlineManager, type Query, type QueryClient } from '@tanstack/react-query';
import { createAsyncStoragePersister } from '@tanstack/query-async-storage-persister';
import { PersistQueryClientProvider, type PersistQueryClientOptions } from '@tanstack/react-query-persist-client';
import { ErrorState, Loading, authStore, networkStore, onSessionChange, useAuth, useOnline } from '@portal/runtime';
import { formatDate, useTimeZone } from './dates';

/** Kept for 30 days after it was saved: older is dropped, not shown. */
export const OFFLINE_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** Saved at most once a second. */
export const OFFLINE_SAVE_THROTTLE_MS = 1000;

let following = false;

/** TanStack Query (a shared singleton) online when the runtime says so; called once per tab, at load. */
export function followNetwork(): void {
  if (following) return;
  following = true;
  onlineManager.setEventListener((setOnline) => {
    setOnline(networkStore.get().online);
    return networkStore.subscribe((s) => setOnline(s.online));
  });
}

function localStorageIfAllowed(): Storage | undefined {
  try {
    return typeof window === 'undefined' ? undefined : window.localStorage;
  } catch {
    return undefined; // blocked (a third-party iframe): nothing is kept
  }
}

function forget(key: string): void {
  try {
    localStorageIfAllowed()?.removeItem(key);
  } catch {
    /* ignore */
  }
}

export interface OfflineCacheOptions {
  /** The localStorage key (one of the runtime's SESSION_STORAGE_KEYS, cleared at sign-out). */
  key: string;
  /** The first parts of the query keys kept (keys are [name, profileId, …]). */
  names: readonly string[];
  /** A further say on one query (e.g. no expired voucher); true when absent. */
  keep?: (query: Query, now: number) => boolean;
  maxAge?: number;
  throttleTime?: number;
}

export interface OfflineCache {
  /** Wraps the tab's tree: restores the signed-in member's saved reads and keeps them saved. */
  OfflineCache: (props: { children: ReactNode }) => ReactNode;
  /** The persist options for one member (exported for tests). */
  persistOptions: (profileId: string) => Omit<PersistQueryClientOptions, 'queryClient'>;
  /** For tests: forget which members this page has restored. */
  resetRestored: () => void;
}

export function createOfflineCache(client: QueryClient, options: OfflineCacheOptions): OfflineCache {
  const { key, keep, maxAge = OFFLINE_MAX_AGE_MS, throttleTime = OFFLINE_SAVE_THROTTLE_MS } = options;
  const names = new Set(options.names);
  /** Members whose cache this page already restored (a remount does not mark it stale again). */
  const restored = new Set<string>();
  // Another account (or none): nothing of the previous one stays on the device.
  onSessionChange(() => forget(key));

  const persistOptions = (profileId: string): Omit<PersistQueryClientOptions, 'queryClient'> => {
    const storage = localStorageIfAllowed();
    // Checked as it is written (saves are throttled): one still on its way at a sign-out, or a
    // switch of account, is dropped.
    const guarded = storage && {
      getItem: (k: string) => storage.getItem(k),
      setItem: (k: string, value: string) => {
        if (authStore.get().profile_id === profileId) storage.setItem(k, value);
      },
      removeItem: (k: string) => storage.removeItem(k),
    };
    return {
      buster: profileId,
      maxAge,
      persister: createAsyncStoragePersister({ storage: guarded, key, throttleTime }),
      dehydrateOptions: {
        shouldDehydrateQuery: (query: Query) =>
          query.state.status === 'success' &&
          query.queryKey[1] === profileId &&
          names.has(String(query.queryKey[0])) &&
          (keep ? keep(query, Date.now()) : true),
        shouldDehydrateMutation: () => false,
      },
    };
  };

  function Persisted({ profileId, children }: { profileId: string; children: ReactNode }) {
    const persistOpts = useMemo(() => persistOptions(profileId), [profileId]);
    const onRestored = () => {
      if (restored.has(profileId)) return undefined;
      restored.add(profileId);
      // Shown at once, reloaded as soon as the network is there.
      return client.invalidateQueries({ predicate: (q) => q.queryKey[1] === profileId && names.has(String(q.queryKey[0])) });
    };
    return (
      <PersistQueryClientProvider client={client} persistOptions={persistOpts} onSuccess={onRestored}>
        {children}
      </PersistQueryClientProvider>
    );
  }

  function OfflineCache({ children }: { children: ReactNode }) {
    const { profile_id: profileId } = useAuth();
    if (!profileId) return children;
    // Keyed by profile id: another account restores (and so busts) afresh.
    return (
      <Persisted key={profileId} profileId={profileId}>
        {children}
      </Persisted>
    );
  }

  return { OfflineCache, persistOptions, resetRestored: () => restored.clear() };
}

/** "26 Nov 2026, 7:17 am": the kit's `dateTime` style, in the page's language and the tenant's zone. */
export function formatUpdated(at: number, lang: string, zone: string): string {
  return formatDate(at, lang, zone, 'dateTime') ?? '';
}

/** Offline, above data kept on the device: that it is the last known, and when it was read. Online: nothing. */
export function OfflineNote({ updatedAt, className }: { updatedAt: number | undefined; className?: string }) {
  const { t, i18n } = useTranslation();
  const zone = useTimeZone();
  const online = useOnline();
  if (online) return null;
  return (
    <p className={['offline-data', className].filter(Boolean).join(' ')} role="status">
      <span className="offline-data__note">{t('offlineData.note')}</span>{' '}
      {updatedAt ? (
        <span className="offline-data__time">{t('offlineData.lastUpdated', { time: formatUpdated(updatedAt, i18n.language, zone) })}</span>
      ) : null}
    </p>
  );
}

/** The parts of a query result `NoData` reads. */
export interface QueryLike {
  isError: boolean;
  error: unknown;
  fetchStatus: string;
  refetch: () => unknown;
}

/**
 * What a section shows while it has no data: a spinner while it loads; offline (waiting for the
 * network, or failed for want of it) that this device has not loaded it yet; else the error.
 */
export function NoData({ query }: { query: QueryLike }) {
  const { t } = useTranslation();
  const online = useOnline();
  if (!online && (query.fetchStatus === 'paused' || query.isError))
    return <p className="muted offline-data__missing">{t('offlineData.missing')}</p>;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  return <Loading />;
}
