import { createMfe } from '@portal/kit/mfe-app';
import { Root, isQffView } from './Root';

// single-spa lifecycles exposed to the shell as ./app, mounted as parcels through the runtime's
// <RemoteParcel remote="mfe_qff" props={{ view }} />: the summary on /home, the full view in
// Rewards, the identity view in My Details. Each parcel in a <div> of its own.
export const { bootstrap, mount, unmount, update } = createMfe(Root, {
  container: 'own',
  awaitCommit: false,
  rootProps: (props) => ({ view: isQffView(props.view) ? props.view : 'summary' }),
});
