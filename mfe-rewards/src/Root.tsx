import { Routes } from '@portal/runtime';
import { Providers } from './providers';
import { routes } from './screens/routes';

/** The tab's screens (src/screens) on its routes, inside its providers. */
export function Root() {
  return (
    <Providers>
      <Routes routes={routes} />
    </Providers>
  );
}
