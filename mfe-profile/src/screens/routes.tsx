import { type RouteDef } from '@portal/runtime';
import { screen } from '@portal/kit/mfe-screens';

/**
 * This MFE's own routes under its prefixes; titles are the spec's screen-view titles (the privacy
 * centre, issue 13, is a page under My Details: /profile/privacy).
 */
export const routes: RouteDef[] = [
  {
    path: '/profile',
    title: 'My Details',
    Component: screen(() => import(/* webpackChunkName: "details" */ '../features/details/components/MyDetails').then((m) => m.MyDetails)),
  },
  {
    path: '/profile/privacy',
    title: 'Privacy Centre',
    Component: screen(() => import(/* webpackChunkName: "privacy" */ '../features/privacy/components/Privacy').then((m) => m.Privacy)),
  },
  {
    path: '/size',
    title: 'My Size',
    Component: screen(() => import(/* webpackChunkName: "size" */ '../features/size/components/MySize').then((m) => m.MySize)),
  },
  {
    path: '/messaging',
    title: 'Messaging Preferences',
    Component: screen(() =>
      import(/* webpackChunkName: "messaging" */ '../features/messaging/components/Messaging').then((m) => m.Messaging),
    ),
  },
  {
    path: '/preference',
    title: 'Preference',
    Component: screen(() =>
      import(/* webpackChunkName: "preference" */ '../features/preference/components/Preference').then((m) => m.Preference),
    ),
  },
];
