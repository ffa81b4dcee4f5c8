import { createMfeProviders } from '@portal/kit/mfe-providers';
import { NS, catalogs } from './i18n/catalogs';
import { followBalance } from './lib/follow-balance';

export const { queryClient, Providers } = createMfeProviders(NS, catalogs);
followBalance(queryClient);
