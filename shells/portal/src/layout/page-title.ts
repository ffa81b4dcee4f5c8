import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { matchPath, useAuth, useConfig, type PortalConfig } from '@portal/runtime';
import { configText, type ConfigText } from '@portal/kit/content';
import { remoteForPath } from '../mfe/routes';
import { visitKindFor } from '../mfe/visit-routes';

// The document title follows the route and the language: "Rewards · My account", "المكافآت ·
// حسابي". The page's name is the shell's (`pageTitle.*`, every language), for every route of the
// spec, the tabs' sub-routes included; the site's name is the tenant's `general.siteMeta.title`
// in the page's language (else its default), or the shell's own "My account".

/** Each route's page name (`pageTitle.<key>`), the tabs' routes included (mfe/routes.ts). */
const ROUTE_TITLES: [route: string, key: string][] = [
  ['/', 'signIn'],
  ['/home', 'home'],
  ['/logged-out', 'loggedOut'],
  ['/email-change/undo', 'emailChangeUndo'],
  ['/profile', 'profile'],
  ['/profile/privacy', 'privacy'],
  ['/size', 'size'],
  ['/messaging', 'messaging'],
  ['/preference', 'preference'],
  ['/transactions', 'transactions'],
  ['/claim-transaction', 'claim'],
  ['/wishlist', 'wishlist'],
  ['/rewards', 'rewards'],
  ['/rewards/item/:id', 'reward'],
  ['/offers', 'offers'],
];

/** The `pageTitle` key of the page at `path` (`search` names a store or an event on `/`). */
export function pageTitleKey(path: string, search: string, staffHome = false): string {
  const visit = visitKindFor(path, search);
  if (visit) return visit === 'event' ? 'event' : 'store';
  if (path === '/home' && staffHome) return 'staff';
  const known = ROUTE_TITLES.find(([route]) => matchPath(route, path));
  if (known) return known[1];
  return remoteForPath(path) ? 'home' : 'notFound';
}

/** The site's name in `lang`: the tenant's title, else `fallback`. */
export function siteTitle(config: PortalConfig | null, lang: string, fallback: string): string {
  const title = config?.general?.siteMeta?.title as ConfigText | null | undefined;
  return configText(title, lang).trim() || fallback;
}

/** Keeps `document.title` as "{page} · {site}" for the current route and language. */
export function usePageTitle(path: string, search: string): void {
  const { t, i18n } = useTranslation('shell');
  const { config } = useConfig();
  const { staff, impersonating } = useAuth();
  const lang = i18n.language;
  const key = pageTitleKey(path, search, staff && !impersonating);
  const site = siteTitle(config, lang, t('app.name'));
  const title = t('pageTitle.format', { page: t(`pageTitle.${key}`), site, interpolation: { escapeValue: false } });
  // Also after a config is applied (the runtime writes the site's plain title then).
  useEffect(() => {
    document.title = title;
  }, [title, config]);
}
