import { type RouteDef } from '@portal/runtime';
import { screen } from '@portal/kit/mfe-screens';

// Rewards and Offers are both tabs of the shell's Frame (whose tab links fire rewards_click and
// offers_click): no sub-navigation of our own. The detail page links back to Rewards.

/** This MFE's own routes; titles are the spec's screen-view titles. */
export const routes: RouteDef[] = [
  {
    path: '/rewards',
    title: 'Rewards',
    Component: screen(() => import(/* webpackChunkName: "rewards" */ './Rewards').then((m) => m.Rewards)),
  },
  {
    path: '/rewards/item/:id',
    title: 'Rewards Item Detail',
    Component: screen(() =>
      import(/* webpackChunkName: "reward" */ '../features/rewards/components/RewardDetail').then((m) => m.RewardDetail),
    ),
  },
  {
    path: '/offers',
    title: 'Offers',
    Component: screen(() => import(/* webpackChunkName: "offers" */ '../features/offers/components/Offers').then((m) => m.Offers)),
  },
];
