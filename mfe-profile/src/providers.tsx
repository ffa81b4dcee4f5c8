import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import { i18n, isHttpError, onSessionChange, registerCatalogs } from '@portal/runtime';
import { NS, catalogs } from './i18n/catalogs';

registerCatalogs(NS, catalogs);

/** One client per MFE, kept across mounts so tab switches reuse the cache. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      retry: (count, error) => count < 1 && !(isHttpError(error) && error.status < 500),
    },
  },
});

// Another account (or none) now: nothing of the previous one may stay in the cache.
onSessionChange(() => queryClient.clear());

export function Providers({ children, client = queryClient }: { children: ReactNode; client?: QueryClient }) {
  return (
    <I18nextProvider i18n={i18n} defaultNS={NS}>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </I18nextProvider>
  );
}
