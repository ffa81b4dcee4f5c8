import type { ReactNode } from 'react';
import { createMfeProviders } from '@portal/kit/mfe-providers';
import { NS, catalogs } from './i18n/catalogs';
import { keepDraftsPerMember } from './lib/kept-draft';
import { ProfileCache } from './persist';

const mfe = createMfeProviders(NS, catalogs);
// Unsaved edits kept in this tab follow the session (another member's are never kept).
keepDraftsPerMember();
export const { queryClient } = mfe;

/** Strings and the query client of this MFE, with the profile cache kept across page loads. */
export function Providers({ children }: { children: ReactNode }) {
  return (
    <mfe.Providers>
      <ProfileCache client={queryClient}>{children}</ProfileCache>
    </mfe.Providers>
  );
}
