import { useTranslation } from 'react-i18next';
import { Link, Routes, TAB_CLICK_EVENTS, track, usePathname, type RouteDef } from '@portal/runtime';
import { Providers } from './providers';
import { MyDetails } from './features/details/components/MyDetails';
import { MySize } from './features/size/components/MySize';
import { Messaging } from './features/messaging/components/Messaging';
import { Preference } from './features/preference/components/Preference';

/** This MFE's own routes under its prefixes; titles are the spec's screen-view titles. */
export const routes: RouteDef[] = [
  { path: '/profile', title: 'My Details', Component: MyDetails },
  { path: '/size', title: 'My Size', Component: MySize },
  { path: '/messaging', title: 'Messaging Preferences', Component: Messaging },
  { path: '/preference', title: 'Preference', Component: Preference },
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
