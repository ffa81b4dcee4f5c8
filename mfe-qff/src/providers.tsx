import { createMfeStrings } from '@portal/build/src/mfe-strings';
import { NS, catalogs } from './i18n/catalogs';

// No react-query here: the panel's one GET is a plain fetch (see use-qff-points).
export const Providers = createMfeStrings(NS, catalogs);
