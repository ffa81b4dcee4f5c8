// What every micro-frontend wraps its React tree in: its i18n namespace on the shared i18next
// instance, and one TanStack Query client that forgets everything when the account changes.
// Bundled into each MFE at build time (react-query itself stays a shared singleton), so the
// runtime does not depend on react-query and each MFE still builds and deploys on its own.
// An MFE without react-query uses `createMfeStrings` from './mfe-strings' alone.
import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { isHttpError, onSessionChange, type Catalogs } from '@portal/runtime';
import { createMfeStrings } from './mfe-strings';

export interface MfeProviders {
  /** One client per MFE, kept across mounts so tab switches reuse the cache. */
  queryClient: QueryClient;
  Providers: (props: { children: ReactNode; client?: QueryClient }) => ReactNode;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        // Client errors (4xx) are answers, not hiccups: no retry.
        retry: (count, error) => count < 1 && !(isHttpError(error) && error.status < 500),
      },
    },
  });
}

const DATA_CHANGED = 'portal:data-changed';

/**
 * Tells every micro-frontend on the page that some data changed on the server, by the first part
 * of their query keys (e.g. `['transactions', 'balances']` after a credited claim). Each MFE's
 * query client marks those queries stale: shown ones refetch now, the others when next shown
 * (another MFE's cache would otherwise keep the old points for its whole staleTime).
 */
export function announceDataChanged(keys: string[]): void {
  window.dispatchEvent(new CustomEvent<string[]>(DATA_CHANGED, { detail: keys }));
}

/** Invalidates `client`'s queries named by each announcement; returns the unsubscribe. */
export function invalidateOnDataChanged(client: QueryClient): () => void {
  const listener = (event: Event) => {
    const keys = (event as CustomEvent<unknown>).detail;
    if (!Array.isArray(keys)) return;
    for (const key of keys) if (typeof key === 'string') void client.invalidateQueries({ queryKey: [key] });
  };
  window.addEventListener(DATA_CHANGED, listener);
  return () => window.removeEventListener(DATA_CHANGED, listener);
}

/**
 * An MFE's query client: forgets everything when the account changes, and marks stale what
 * another MFE announces it changed. (mfe-qff creates its own in the chunk that needs queries.)
 */
export function createMfeQueryClient(): QueryClient {
  const queryClient = createQueryClient();
  // Another account (or none) now: nothing of the previous one may stay in the cache.
  onSessionChange(() => queryClient.clear());
  // What another MFE changed (a claim credited: the transactions and the points balance).
  if (typeof window !== 'undefined') invalidateOnDataChanged(queryClient);
  return queryClient;
}

/** Registers the MFE's catalogs and returns its query client and provider component. */
export function createMfeProviders(ns: string, catalogs: Catalogs): MfeProviders {
  const Strings = createMfeStrings(ns, catalogs);
  const queryClient = createMfeQueryClient();

  function Providers({ children, client = queryClient }: { children: ReactNode; client?: QueryClient }) {
    return (
      <QueryClientProvider client={client}>
        <Strings>{children}</Strings>
      </QueryClientProvider>
    );
  }

  return { queryClient, Providers };
}
