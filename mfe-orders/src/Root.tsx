import { Suspense, lazy, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Loading, Routes, TAB_CLICK_EVENTS, track, usePathname, type RouteDef } from '@portal/runtime';
import { Providers } from './providers';

/** Each screen is its own chunk: opening one route downloads only that screen's code. */
function screen(load: () => Promise<ComponentType>): RouteDef['Component'] {
  const Screen = lazy(() => load().then((Component) => ({ default: Component })));
  return () => (
    <Suspense fallback={<Loading />}>
      <Screen />
    </Suspense>
  );
}

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
    Component: screen(() => import(/* webpackChunkName: "claim" */ './features/claim/components/ClaimTransaction').then((m) => m.ClaimTransaction)),
  },
];

/** Links between this MFE's pages (only My Orders is in the shell's tab bar). */
function SubNav() {
  const { t } = useTranslation();
  const path = usePathname();
  const items = [
    { href: '/transactions', label: t('orders.title') },
    { href: '/claim-transaction', label: t('claim.title') },
  ];
  return (
    <nav className="subnav" aria-label={t('nav.label')}>
      {items.map(({ href, label }) => (
        <Link
          key={href}
          href={href}
          aria-current={path === href ? 'page' : undefined}
          // Spec 9 click events: my_orders_click, claim_transaction_click.
          onClick={() => track(TAB_CLICK_EVENTS[href])}
        >
          {label}
        </Link>
      ))}
    </nav>
  );
}

export function Root() {
  return (
    <Providers>
      <SubNav />
      <Routes routes={routes} />
    </Providers>
  );
}
