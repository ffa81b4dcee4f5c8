import { createMfe } from '@portal/kit/mfe-app';
import { Root } from './Root';

// single-spa lifecycles exposed to the shell as ./app.
export const { bootstrap, mount, unmount, update } = createMfe(Root);
