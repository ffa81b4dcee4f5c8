import { useTranslation } from 'react-i18next';
import { Routes, type RouteDef } from '@portal/runtime';
import { SubNav, screen } from '@portal/build/src/mfe-screens';
import { Providers } from './providers';

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
function PageLinks() {
  const { t } = useTranslation();
  const items = [
    { href: '/profile', label: t('profile.title') },
    { href: '/size', label: t('size.title') },
    { href: '/messaging', label: t('messaging.title') },
    { href: '/preference', label: t('preference.title') },
  ];
  return <SubNav label={t('nav.label')} items={items} />;
}

export function Root() {
  return (
    <Providers>
      <PageLinks />
      <Routes routes={routes} />
    </Providers>
  );
}
