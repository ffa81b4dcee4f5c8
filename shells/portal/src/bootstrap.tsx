import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import {
  authStore,
  checkSession,
  handleEmbedMessage,
  i18n,
  initAuth,
  initI18n,
  isEmbedded,
  languageReady,
  loadConfig,
  logout,
  postToHost,
  registerCatalogs,
  startProgress,
  watchNetwork,
  watchSession,
  http,
  impersonate,
  type Profile,
} from '@portal/runtime';
import { App } from './layout/App';
import { SHELL_NS, shellCatalogs } from './i18n/catalogs';
import { handleUrlToken } from './auth-link';

initI18n();
registerCatalogs(SHELL_NS, shellCatalogs);
initAuth();
void loadConfig();
watchNetwork();
watchSession();
void handleUrlToken();

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

// Messages from an embedding page.
if (isEmbedded()) {
  window.addEventListener('message', (event) => {
    if (event.source !== window.parent) return;
    try {
      handleEmbedMessage(event.data, {
        logout: () => logout(),
        getCustomer: async () => {
          if (!authStore.get().authenticated) return;
          const p = await http<Profile>('/api/profile');
          postToHost({
            action: 'customer',
            email: p.email,
            first_name: p.first_name,
            last_name: p.last_name,
            region: p.region?.handle ?? null,
            tier: p.tier_handle ?? null,
          });
        },
        getUrl: () => postToHost({ action: 'url', url: window.location.href }),
        impersonate: async (data) => {
          const profileId = typeof data.profileId === 'string' ? data.profileId : '';
          if (!profileId) throw new Error('Invalid Arguments');
          await impersonate(profileId, typeof data.reason === 'string' ? data.reason : undefined);
        },
      });
    } catch (err) {
      console.warn((err as Error).message);
    }
  });
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
