import { Suspense, lazy } from 'react';
import { Loading } from '@portal/runtime';
import { Providers } from './providers';
import { QffSummary } from './features/summary/components/QffSummary';

/**
 * Which UI a mount shows (the parcel's `view` prop): 'summary' on /home (the default), 'full' in
 * the Rewards tab, 'identity' among My Details' linked identities.
 */
export type QffView = 'summary' | 'full' | 'identity';

export const isQffView = (value: unknown): value is QffView => value === 'summary' || value === 'full' || value === 'identity';

// The account views are a chunk of their own (with react-query and their strings): /home, which
// shows only the summary, never downloads them.
const AccountView = lazy(() => import(/* webpackChunkName: "account" */ './screens/AccountView'));

export function Root({ view = 'summary' }: { view?: QffView }) {
  if (view === 'summary') {
    return (
      <Providers>
        <QffSummary />
      </Providers>
    );
  }
  return (
    <Suspense fallback={<Loading />}>
      <AccountView view={view} />
    </Suspense>
  );
}
