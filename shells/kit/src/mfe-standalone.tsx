// Every micro-frontend's standalone entry (`npm run build:standalone`, then serve dist/ with an
// SPA fallback next to the API): its Root without the shell, in the page's <div id="root">.
// Sign-in comes from the token cached in localStorage. The shell loads ./app instead.
import type { ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { initAuth, initI18n, loadConfig, matchPath, type RouteDef } from '@portal/runtime';

export interface StandaloneOptions<P> {
  /** The tab's routes: a page on none of them is replaced by the first. */
  routes?: RouteDef[];
  /** Root's props, read from the page (e.g. `?view=`). */
  rootProps?: (location: Location) => P;
}

/** Starts the runtime (i18n, sign-in, config) and renders `Root` into #root. */
export function runStandalone<P extends object>(Root: ComponentType<P>, options: StandaloneOptions<P> = {}): void {
  const { routes, rootProps = () => ({}) as P } = options;
  initI18n();
  initAuth();
  void loadConfig();
  if (routes?.length && !routes.some((r) => matchPath(r.path, window.location.pathname))) {
    window.history.replaceState(null, '', routes[0].path);
  }
  const el = document.getElementById('root');
  if (el) createRoot(el).render(<Root {...rootProps(window.location)} />);
}
