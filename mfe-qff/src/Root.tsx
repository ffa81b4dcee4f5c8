import { Providers } from './providers';
import { QffPanel } from './features/points/components/QffPanel';

/** Mounted by the shell as a parcel inside /home. */
export function Root() {
  return (
    <Providers>
      <QffPanel />
    </Providers>
  );
}
