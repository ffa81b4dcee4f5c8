import type { ReactNode } from 'react';
import { REWARDS_CACHE_KEY } from '@portal/runtime';
import { createMfeProviders } from '@portal/kit/mfe-providers';
import { createOfflineCache, followNetwork } from '@portal/kit/offline-data';
import { NS, catalogs } from './i18n/catalogs';
import { followBalance } from './lib/follow-balance';
import { keepOffline } from './lib/vouchers';

const mfe = createMfeProviders(NS, catalogs);
export const { queryClient } = mfe;
followBalance(queryClient);
followNetwork();

/**
 * What Rewards and Offers show offline, from the last visit: the points, tier and expiry, the
 * history, the member's rewards (each ready-to-use voucher until it expires), the catalogue and
 * the offers.
 */
export const offlineCache = createOfflineCache(queryClient, {
  key: REWARDS_CACHE_KEY,
  names: ['balances', 'tiers', 'expiring', 'points', 'rewards', 'catalogue', 'benefits'],
  keep: keepOffline,
});

/** Strings and the query client of this MFE, with the member's last known data kept for offline. */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <mfe.Providers>
      <offlineCache.OfflineCache>{children}</offlineCache.OfflineCache>
    </mfe.Providers>
  );
}
