import { Suspense, lazy, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Loading, navigate, usePathname, useAuth, useDrawn, useSearch, useStore } from '@portal/runtime';
import { Header, ImpersonationBanner, OfflineBanner, ProgressBar, TabBar, Toasts } from './Frame';
import { Login } from '../screens/Login';
import { LinkLanding } from '../screens/LinkLanding';
import { linkStore } from '../auth-link';
import { Home } from '../screens/Home';
import { LoggedOut } from '../screens/LoggedOut';
import { SessionWarning } from '../screens/SessionWarning';
import { NotLoggedIn } from '../screens/NotLoggedIn';
import { NotFound } from '../screens/NotFound';
import { RemoteFailed } from '../screens/RemoteFailed';
import { normalisePath, remoteForPath } from '../mfe/routes';
import { remoteStatus } from '../mfe/status';
import { watchRouteFocus } from './route-focus';
import { usePageTitle } from './page-title';
import { visitKindFor } from '../mfe/visit-routes';

// Store and event pages: their own chunk, fetched when one is opened.
const VisitScreen = lazy(() => import(/* webpackChunkName: "stores" */ '../stores').then((m) => ({ default: m.VisitScreen })));
// Undoing a change of the sign-in address (the link sent to the old address): its own chunk too.
const EmailChangeUndo = lazy(() =>
  import(/* webpackChunkName: "email-change" */ '../email-change/UndoScreen').then((m) => ({ default: m.EmailChangeUndo })),
);

/** What the shell itself draws in <main> for a path; null means an MFE owns it. */
function Screen({ path }: { path: string }) {
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

export function App({ onReady }: { onReady?: () => void }) {
  const { t } = useTranslation('shell');
  const path = normalisePath(usePathname());
  const auth = useAuth();
  usePageTitle(path, useSearch());
  const main = useRef<HTMLElement>(null);
  const announcer = useRef<HTMLDivElement>(null);
  // Ready once it draws the current state (a page drawn ahead of time first hydrates as drawn).
  const drawn = useDrawn();
  useEffect(() => {
    if (!drawn) onReady?.();
  }, [onReady, drawn]);
  // After a route change: the focus to the new page's main heading, which is announced.
  useEffect(() => watchRouteFocus(main.current!, announcer.current!), []);
  // Logout (button, embedding page or expiry) ends on the Logged out screen.
  useEffect(() => {
    if (auth.loggedOut && normalisePath(window.location.pathname) !== '/logged-out') navigate('/logged-out');
  }, [auth.loggedOut]);
  const staffHome = auth.staff && !auth.impersonating;
  const screen = <Screen path={path} />;
  return (
    <>
      <a className="skip-link" href="#main">
        {t('app.skip')}
      </a>
      <Header />
      <OfflineBanner />
      <ImpersonationBanner />
      {auth.authenticated && !staffHome && <TabBar path={path} />}
      <main id="main" tabIndex={-1} ref={main}>
        {/* In the main landmark: all content is in one (axe's region rule; Firefox caught it shown). */}
        <ProgressBar />
        {screen}
        <div id="mfe-outlet" />
      </main>
      <div className="visually-hidden" aria-live="polite" aria-atomic="true" ref={announcer} />
      {auth.authenticated && <SessionWarning />}
      <Toasts />
    </>
  );
}
