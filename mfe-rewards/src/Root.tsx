import { Routes, type RouteDef } from '@portal/runtime';
import { Providers } from './providers';
import { Rewards } from './features/rewards/components/Rewards';
import { RewardDetail } from './features/rewards/components/RewardDetail';
import { Offers } from './features/offers/components/Offers';

/** This MFE's own routes; titles are the spec's screen-view titles. */
export const routes: RouteDef[] = [
  { path: '/rewards', title: 'Rewards', Component: Rewards },
  { path: '/rewards/item/:id', title: 'Rewards Item Detail', Component: RewardDetail },
  { path: '/offers', title: 'Offers', Component: Offers },
];

export function Root() {
  return (
    <Providers>
      <Routes routes={routes} />
    </Providers>
  );
}
