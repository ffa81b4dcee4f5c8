import { matchPath } from '@portal/runtime';

/**
 * Which remote owns which route. Where each remote lives (its entry URL and
 * version) comes only from /mfe-manifest.json at run time.
 */
export const MFE_ROUTES: Record<string, string[]> = {
  mfe_profile: ['/profile', '/profile/privacy', '/size', '/messaging', '/preference'],
  mfe_orders: ['/transactions', '/claim-transaction', '/wishlist'],
  mfe_rewards: ['/rewards', '/rewards/item/:id', '/offers'],
};

/** Mounted as a parcel (its summary view) inside the Home screen; also inside Rewards and My Details. */
export const HOME_PARCEL_REMOTE = 'mfe_qff';

export function normalisePath(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

export function remoteForPath(path: string): { remote: string; route: string } | null {
  const p = normalisePath(path);
  for (const [remote, routes] of Object.entries(MFE_ROUTES)) {
    for (const route of routes) {
      if (matchPath(route, p)) return { remote, route };
    }
  }
  return null;
}

/** Only same-site paths are accepted as redirect targets. */
export function safeRedirect(value: string | null | undefined, fallback = '/home'): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return fallback;
  if (value === '/') return fallback;
  return value;
}
