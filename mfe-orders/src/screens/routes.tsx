import { type RouteDef } from '@portal/runtime';
import { screen } from '@portal/kit/mfe-screens';

/** This MFE's own routes; titles are the spec's screen-view titles. */
export const routes: RouteDef[] = [
  {
    path: '/transactions',
    title: 'My Orders',
    Component: screen(() =>
      import(/* webpackChunkName: "orders" */ '../features/transactions/components/MyOrders').then((m) => m.MyOrders),
    ),
  },
  {
    path: '/claim-transaction',
    title: 'Claim Transaction',
    Component: screen(() =>
      import(/* webpackChunkName: "claim" */ '../features/claim/components/ClaimTransaction').then((m) => m.ClaimTransaction),
    ),
  },
  {
    path: '/wishlist',
    title: 'Wish List',
    Component: screen(() =>
      import(/* webpackChunkName: "wishlist" */ '../features/wishlist-screen/components/WishLists').then((m) => m.WishLists),
    ),
  },
];
