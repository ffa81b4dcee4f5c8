import type { ReactNode } from 'react';
import { createMfeProviders } from '@portal/kit/mfe-providers';
import { NS, catalogs } from './i18n/catalogs';
import { ProfileCache } from './persist';

const mfe = createMfeProviders(NS, catalogs);
export const { queryClient } = mfe;

/** Strings and the query client of this MFE, with the profile cache kept across page loads. */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <mfe.Providers>
      <ProfileCache client={queryClient}>{children}</ProfileCache>
    </mfe.Providers>
  );
}
