import { createMfe } from '@portal/build/mfe-app';
import { Root } from './Root';

// single-spa lifecycles exposed to the shell as ./app.
export const { bootstrap, mount, unmount, update } = createMfe(Root);
