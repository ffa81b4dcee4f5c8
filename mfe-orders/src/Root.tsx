import { Routes } from '@portal/runtime';
import { Providers } from './providers';
import { PageLinks } from './screens/PageLinks';
import { routes } from './screens/routes';

/** The tab's screens (src/screens) on its routes, inside its providers. */
export function Root() {
  return (
    <Providers>
      <PageLinks />
      <Routes routes={routes} />
    </Providers>
  );
}
