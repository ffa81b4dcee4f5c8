import { QueryClientProvider } from '@tanstack/react-query';
import { createMfeStrings } from '@portal/kit/mfe-strings';
import { queryClient } from '../features/shared/hooks/use-qff';
import { AnalyticsPrefix } from '../lib/analytics';
import { ACCOUNT_NS, accountCatalogs } from '../i18n/account-catalogs';
import { FullView } from './FullView';
import { IdentityView } from './IdentityView';

// The account views' chunk: react-query and their strings load with it, never on /home.
const Strings = createMfeStrings(ACCOUNT_NS, accountCatalogs);

export type AccountViewName = 'full' | 'identity';

/** 'full' in the Rewards tab (events rewards_…), 'identity' in My Details (events my_details_…). */
export default function AccountView({ view }: { view: AccountViewName }) {
  return (
    <QueryClientProvider client={queryClient}>
      <Strings>
        <AnalyticsPrefix value={view === 'identity' ? 'my_details_' : 'rewards_'}>
          {view === 'identity' ? <IdentityView /> : <FullView />}
        </AnalyticsPrefix>
      </Strings>
    </QueryClientProvider>
  );
}
