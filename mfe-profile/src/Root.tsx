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

/** This MFE's own routes under its prefixes; titles are the spec's screen-view titles. */
export const routes: RouteDef[] = [
  {
    path: '/profile',
    title: 'My Details',
    Component: screen(() => import(/* webpackChunkName: "details" */ './features/details/components/MyDetails').then((m) => m.MyDetails)),
  },
  {
    path: '/size',
    title: 'My Size',
    Component: screen(() => import(/* webpackChunkName: "size" */ './features/size/components/MySize').then((m) => m.MySize)),
  },
  {
    path: '/messaging',
    title: 'Messaging Preferences',
    Component: screen(() => import(/* webpackChunkName: "messaging" */ './features/messaging/components/Messaging').then((m) => m.Messaging)),
  },
  {
    path: '/preference',
    title: 'Preference',
    Component: screen(() => import(/* webpackChunkName: "preference" */ './features/preference/components/Preference').then((m) => m.Preference)),
  },
];

/** Links between this MFE's pages (only the My Details tab is in the shell's tab bar). */
function SubNav() {
  const { t } = useTranslation();
  const path = usePathname();
  const items = [
    { href: '/profile', label: t('profile.title') },
    { href: '/size', label: t('size.title') },
    { href: '/messaging', label: t('messaging.title') },
    { href: '/preference', label: t('preference.title') },
  ];
  return (
    <nav className="subnav" aria-label={t('nav.label')}>
      {items.map(({ href, label }) => (
        <Link
          key={href}
          href={href}
          aria-current={path === href ? 'page' : undefined}
          // Spec 9 click events (my_details_click, my_size_click, messaging_preferences_click; none for Preference).
          onClick={() => TAB_CLICK_EVENTS[href] && track(TAB_CLICK_EVENTS[href])}
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
