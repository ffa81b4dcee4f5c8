import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { navigate, usePathname, useAuth, useDrawn, useSearch } from '@portal/runtime';
import { Header, ImpersonationBanner, OfflineBanner, ProgressBar, TabBar, Toasts } from './Frame';
import { Screen } from '../screens/routes';
import { SessionWarning } from '../features/status/components/SessionWarning';
import { normalisePath } from '../mfe/routes';
import { watchRouteFocus } from './route-focus';
import { usePageTitle } from './page-title';

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
