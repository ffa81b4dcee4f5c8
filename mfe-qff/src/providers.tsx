import { createMfeStrings } from '@portal/kit/mfe-strings';
import { NS, catalogs } from './i18n/catalogs';

// The summary's strings only. No react-query here: the summary's one GET is a plain fetch (see
// features/shared/hooks/use-cached-qff-status.ts); the account views bring react-query and their
// strings in their own chunk.
export const Providers = createMfeStrings(NS, catalogs);
