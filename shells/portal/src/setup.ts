// The shell's start before its first render (bootstrap.tsx runs it as one of its steps): the
// session, the language, the config, the network, the sign-in link in the address, and the
// greeting's profile on /home.
import {
  authStore,
  holdLanguage,
  initAuth,
  initI18n,
  loadConfig,
  registerCatalogs,
  takeEmbedderParam,
  watchNetwork,
  watchSession,
} from '@portal/runtime';
import { SHELL_NS, shellCatalogs } from './i18n/catalogs';
import { handleUrlToken } from './auth-link';
import { prefetchHomeProfile } from './features/home/api/home-data';
import { normalisePath } from './mfe/routes';
import { nextTask } from './next-task';

/**
 * `drawn`: the page on the screen was drawn by the build (in English), so it is hydrated in
 * English and the chosen language follows once it is: the caller calls `releaseLanguage` then.
 * `embedder`: the embedding page's address, when framed (see takeEmbedderParam).
 */
export async function setUp(drawn: boolean): Promise<{ releaseLanguage: (() => Promise<void>) | null; embedder: string | null }> {
  const releaseLanguage = drawn ? holdLanguage() : null;
  // Before the URL token is read: the embedding page's address leaves the address bar too.
  const embedder = takeEmbedderParam();
  initI18n();
  registerCatalogs(SHELL_NS, shellCatalogs);
  await nextTask();
  initAuth();
  void loadConfig();
  watchNetwork();
  watchSession();
  void handleUrlToken();
  // A member opening /home: the greeting's data is asked for now, while the page renders.
  const auth = authStore.get();
  if (auth.authenticated && (!auth.staff || auth.impersonating) && normalisePath(window.location.pathname) === '/home')
    prefetchHomeProfile();
  return { releaseLanguage, embedder };
}

/** The app's own modules (layout, screens): evaluated in a step of their own. */
export const loadApp = () => import('./start');
