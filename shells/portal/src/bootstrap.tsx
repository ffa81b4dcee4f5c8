import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import {
  authStore,
  checkSession,
  i18n,
  initAuth,
  initI18n,
  isEmbedded,
  languageReady,
  loadConfig,
  registerCatalogs,
  startProgress,
  takeEmbedderParam,
  watchNetwork,
  watchSession,
} from '@portal/runtime';
import { App } from './layout/App';
import { SHELL_NS, shellCatalogs } from './i18n/catalogs';
import { handleUrlToken } from './auth-link';
import { prefetchHomeProfile } from './screens/home-data';
import { normalisePath } from './mfe/routes';
import { registerServiceWorker } from './sw-register';

// Before the URL token is read: the embedding page's address leaves the address bar too.
const embedder = takeEmbedderParam();
initI18n();
registerCatalogs(SHELL_NS, shellCatalogs);
initAuth();
void loadConfig();
watchNetwork();
watchSession();
void handleUrlToken();
// A member opening /home: the greeting's data is asked for now, while the page renders.
const auth = authStore.get();
if (auth.authenticated && (!auth.staff || auth.impersonating) && normalisePath(window.location.pathname) === '/home') prefetchHomeProfile();

// Route changes: session check, and the top progress bar (shown after 64 ms by the layout).
let routeDone: (() => void) | null = null;
window.addEventListener('single-spa:before-routing-event', () => {
  checkSession();
  routeDone?.();
  routeDone = startProgress();
});
window.addEventListener('single-spa:routing-event', () => {
  routeDone?.();
  routeDone = null;
});

// Inside an embedding page: the iframe protocol (its own chunk: only embedded visitors load it).
if (isEmbedded()) {
  void import(/* webpackChunkName: "embed" */ './embed/listener').then((m) => m.startEmbedListener(embedder));
}

// The micro-frontends (single-spa, the remote manifest) are only for a signed-in visitor: their
// code is fetched once someone is signed in, so the login page does not download it.
let started = false;
const startFederationWhenSignedIn = () => {
  if (started || !authStore.get().authenticated) return;
  started = true;
  void import(/* webpackChunkName: "federation" */ './mfe/federation').then((m) => m.startFederation());
};
let watching = false;
const onReady = () => {
  if (watching) return;
  watching = true;
  startFederationWhenSignedIn();
  authStore.subscribe(startFederationWhenSignedIn);
};

// First paint waits for the chosen language's strings (only en is in the bundle).
void languageReady().then(() => {
  createRoot(document.getElementById('root')!).render(
    <I18nextProvider i18n={i18n}>
      <App onReady={onReady} />
    </I18nextProvider>,
  );
});

// Offline: the service worker of production builds (a development server has no /sw.js).
if (process.env.NODE_ENV === 'production' && !isEmbedded()) registerServiceWorker();
