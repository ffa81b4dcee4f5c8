// The shell's routes: the one place where its pages (src/features/<feature>) are put on the paths
// it owns (the tabs' paths are theirs: mfe/routes.ts). layout/App.tsx puts what this draws in <main>.
import { Suspense, lazy } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading, useAuth, useSearch, useStore } from '@portal/runtime';
import { Login } from '../features/login/components/Login';
import { LinkLanding } from '../features/login/components/LinkLanding';
import { linkStore } from '../auth-link';
import { Home } from './Home';
import { LoggedOut } from '../features/status/components/LoggedOut';
import { NotLoggedIn } from '../features/status/components/NotLoggedIn';
import { NotFound } from '../features/status/components/NotFound';
import { RemoteFailed } from '../features/status/components/RemoteFailed';
import { remoteForPath } from '../mfe/routes';
import { remoteStatus } from '../mfe/status';
import { visitKindFor } from '../mfe/visit-routes';

// Store and event pages: their own chunk, fetched when one is opened.
const VisitScreen = lazy(() =>
  import(/* webpackChunkName: "stores" */ '../features/stores/components/VisitScreen').then((m) => ({ default: m.VisitScreen })),
);
// Undoing a change of the sign-in address (the link sent to the old address): its own chunk too.
const EmailChangeUndo = lazy(() =>
  import(/* webpackChunkName: "email-change" */ '../features/email-change/components/UndoScreen').then((m) => ({
    default: m.EmailChangeUndo,
  })),
);

/** What the shell itself draws in <main> for a path; null means an MFE owns it. */
export function Screen({ path }: { path: string }) {
  const { t } = useTranslation('shell');
  const auth = useAuth();
  const status = useStore(remoteStatus);
  const link = useStore(linkStore);
  const search = useSearch();
  if (link.phase === 'pending' || link.phase === 'exchanging' || link.phase === 'kept') return <LinkLanding />;
  const visit = visitKindFor(path, search);
  if (visit) {
    return (
      <Suspense fallback={<Loading />}>
        <VisitScreen kind={visit} path={path} search={search} />
      </Suspense>
    );
  }
  if (path === '/email-change/undo') {
    return (
      <Suspense fallback={<Loading />}>
        <EmailChangeUndo />
      </Suspense>
    );
  }
  if (path === '/') return <Login />;
  if (path === '/logged-out') return <LoggedOut />;
  const owner = remoteForPath(path);
  if (path !== '/home' && !owner) return <NotFound />;
  if (!auth.authenticated) {
    if (auth.loading) return <p role="status">{t('app.loading')}</p>;
    return <NotLoggedIn />;
  }
  if (path === '/home') return <Home />;
  if (status.manifest === 'failed' || (owner && status.failed.includes(owner.remote))) return <RemoteFailed />;
  if (status.manifest === 'loading')
    return (
      <p role="status" className="skeleton">
        {t('app.loading')}
      </p>
    );
  return null;
}
