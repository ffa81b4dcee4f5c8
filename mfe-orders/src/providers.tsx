import { createMfeProviders } from '@portal/kit/mfe-providers';
import { NS, catalogs } from './i18n/catalogs';

export const { queryClient, Providers } = createMfeProviders(NS, catalogs);
