import { useTranslation } from 'react-i18next';
import { Routes, type RouteDef } from '@portal/runtime';
import { SubNav, screen } from '@portal/build/mfe-screens';
import { Providers } from './providers';

/** This MFE's own routes; titles are the spec's screen-view titles. */
export const routes: RouteDef[] = [
  {
    path: '/transactions',
    title: 'My Orders',
    Component: screen(() => import(/* webpackChunkName: "orders" */ './features/transactions/components/MyOrders').then((m) => m.MyOrders)),
  },
  {
    path: '/claim-transaction',
    title: 'Claim Transaction',
    Component: screen(() =>
      import(/* webpackChunkName: "claim" */ './features/claim/components/ClaimTransaction').then((m) => m.ClaimTransaction),
    ),
  },
];

/** Links between this MFE's pages (only My Orders is in the shell's tab bar). */
function PageLinks() {
  const { t } = useTranslation();
  const items = [
    { href: '/transactions', label: t('orders.title') },
    { href: '/claim-transaction', label: t('claim.title') },
  ];
  return <SubNav label={t('nav.label')} items={items} />;
}

export function Root() {
  return (
    <Providers>
      <PageLinks />
      <Routes routes={routes} />
    </Providers>
  );
}
