import { Routes, type RouteDef } from '@portal/runtime';
import { Providers } from './providers';
import { MyOrders } from './features/transactions/components/MyOrders';
import { ClaimTransaction } from './features/claim/components/ClaimTransaction';

/** This MFE's own routes; titles are the spec's screen-view titles. */
export const routes: RouteDef[] = [
  { path: '/transactions', title: 'My Orders', Component: MyOrders },
  { path: '/claim-transaction', title: 'Claim Transaction', Component: ClaimTransaction },
];

export function Root() {
  return (
    <Providers>
      <Routes routes={routes} />
    </Providers>
  );
}
