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

/** Registers the MFE's catalogs and returns its query client and provider component. */
export function createMfeProviders(ns: string, catalogs: Catalogs): MfeProviders {
  const Strings = createMfeStrings(ns, catalogs);
  const queryClient = createQueryClient();
  // Another account (or none) now: nothing of the previous one may stay in the cache.
  onSessionChange(() => queryClient.clear());

  function Providers({ children, client = queryClient }: { children: ReactNode; client?: QueryClient }) {
    return (
      <QueryClientProvider client={client}>
        <Strings>{children}</Strings>
      </QueryClientProvider>
    );
  }

  return { queryClient, Providers };
}
