import type { ReactNode } from 'react';
import { ORDERS_CACHE_KEY } from '@portal/runtime';
import { createMfeProviders } from '@portal/kit/mfe-providers';
import { createOfflineCache, followNetwork } from '@portal/kit/offline-data';
import { NS, catalogs } from './i18n/catalogs';

const mfe = createMfeProviders(NS, catalogs);
export const { queryClient } = mfe;
followNetwork();

/** What My Orders and the claims show offline, from the last visit: the purchases and the claims. */
export const offlineCache = createOfflineCache(queryClient, { key: ORDERS_CACHE_KEY, names: ['transactions', 'claims', 'wishlists'] });

/** Strings and the query client of this MFE, with the member's last known data kept for offline. */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <mfe.Providers>
      <offlineCache.OfflineCache>{children}</offlineCache.OfflineCache>
    </mfe.Providers>
  );
}
