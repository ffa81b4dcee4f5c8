import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  BdiTrans,
  Link,
  logout,
  stopImpersonation,
  logoUrl,
  stickyHeader,
  navigate,
  removeToast,
  track,
  useAuth,
  useConfig,
  useDrawn,
  useOnline,
  useProgress,
  useToasts,
  TAB_CLICK_EVENTS,
} from '@portal/runtime';
import { useTabScroll } from './tab-scroll';
import { siteTitle } from './page-title';

export const PROGRESS_DELAY_MS = 64;

export function ProgressBar() {
  const { t } = useTranslation('shell');
  const pending = useProgress();
  const [shown, setShown] = useState(false);
  useEffect(() => {
    if (pending === 0) {
      if (shown) setShown(false);
      return undefined;
    }
    if (shown) return undefined;
    const timer = setTimeout(() => setShown(true), PROGRESS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [pending, shown]);
  if (!shown || pending === 0) return null;
  return (
    <div className="progress" role="progressbar" aria-label={t('app.loading')} aria-busy="true">
      <span />
    </div>
  );
}

export function Header() {
  const { t, i18n } = useTranslation('shell');
  const auth = useAuth();
  const { config } = useConfig();
  const tenant = siteTitle(config, i18n.language, t('app.name'));
  const sticky = stickyHeader(config);
  // The layout shows the Logged out screen once loggedOut is set (also for embed-triggered logout).
  const onLogout = () => void logout();
  // Drawn at build time, the button waits for the script.
  const drawn = useDrawn();
  return (
    <header className={`header${sticky ? ' header--sticky' : ''}`}>
      <div className="header__bar">
        <Link className="header__logo" href={auth.authenticated ? '/home' : '/'}>
          <img src={logoUrl(config)} alt={t('app.logoAlt')} width="32" height="32" />
          <span className="header__title">{tenant}</span>
        </Link>
        <span className="header__spacer" />
        {auth.authenticated && (
          <button type="button" className="btn-link" onClick={onLogout} disabled={drawn || auth.loading}>
            {t('app.logout')}
          </button>
        )}
      </div>
    </header>
  );
}

const TABS = [
  { key: 'home', href: '/home' },
  { key: 'profile', href: '/profile' },
  { key: 'transactions', href: '/transactions' },
  { key: 'rewards', href: '/rewards' },
  { key: 'offers', href: '/offers' },
] as const;

export function TabBar({ path }: { path: string }) {
  const { t } = useTranslation('shell');
  const nav = useRef<HTMLElement>(null);
  // The current tab in view after a change of page or of language (the labels' widths).
  useTabScroll(nav, `${path}|${TABS.map(({ key }) => t(`tabs.${key}`)).join('|')}`);
  return (
    <nav className="tabs" aria-label={t('tabs.label')} ref={nav}>
      <ul>
        {TABS.map(({ key, href }) => {
          const current = path === href || path.startsWith(`${href}/`);
          return (
            <li key={key}>
              <Link
                href={href}
                aria-current={current ? 'page' : undefined}
                onClick={() => TAB_CLICK_EVENTS[href] && track(TAB_CLICK_EVENTS[href])}
              >
                {t(`tabs.${key}`)}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

export function OfflineBanner() {
  const { t } = useTranslation('shell');
  const online = useOnline();
  if (online) return null;
  return (
    <div className="banner banner--offline" role="status">
      <strong>{t('offline.title')}</strong>
      <span>{t('offline.text')}</span>
    </div>
  );
}

export function ImpersonationBanner() {
  const { t } = useTranslation('shell');
  const auth = useAuth();
  if (!auth.impersonating || !auth.authenticated) return null;
  const p = auth.impersonation?.impersonatedProfile;
  const name = (p ? `${p.first_name} ${p.last_name}`.trim() : '') || '…';
  const stop = () => {
    void stopImpersonation().then((backToStaff) => {
      if (backToStaff) navigate('/home');
    });
  };
  return (
    <div className="banner banner--impersonation" role="region" aria-label={t('impersonation.label')}>
      <span role="status">
        <BdiTrans ns="shell" k="impersonation.banner" values={{ name }} />
      </span>
      <button type="button" className="btn btn-secondary" onClick={stop} disabled={auth.loading}>
        {t('impersonation.stop')}
      </button>
    </div>
  );
}

export function Toasts() {
  const { t } = useTranslation('shell');
  const toasts = useToasts();
  return (
    <section className="toasts" aria-live="polite" aria-label={t('toasts.label')}>
      {toasts.map((toast) => (
        // eslint-disable-next-line jsx-a11y/click-events-have-key-events -- a click on a toast (ToastInput.onClick, set by no caller today) is a pointer shortcut only; making it reachable by keyboard means a button inside the toast (a markup change of its own)
        <div
          key={toast.id}
          className={`toast toast--${toast.type}${toast.out ? ' toast--out' : ''}`}
          role={toast.type === 'error' ? 'alert' : 'status'}
          onClick={toast.onClick}
        >
          <div className="toast__body">
            {toast.title && <strong>{toast.title}</strong>}
            {toast.text && <div>{toast.text}</div>}
          </div>
          {toast.canDismiss && (
            <button
              type="button"
              className="toast__close"
              aria-label={t('toast.close', { ns: 'runtime' })}
              onClick={(e) => {
                e.stopPropagation();
                removeToast(toast.id);
              }}
            >
              ×
            </button>
          )}
        </div>
      ))}
    </section>
  );
}
