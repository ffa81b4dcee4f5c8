// The shell's start. The page the build drew (index.html, app.html) is already on the screen, so
// the start goes in steps, each in a task of its own: evaluating i18next, the shared runtime (with
// React), setting up the session and the language (setup.ts), evaluating React DOM, then
// the app's modules, then hydrating (in slices: start.tsx). No step keeps the main thread busy
// for long, so the page answers taps while it starts (Total Blocking Time). The page's script
// fetched every step's files together with main.js (loader/start-after-paint.js), so only their
// evaluation waits for its step.
import { nextTask } from './next-task';
import { registerServiceWorker } from './sw-register';

async function start() {
  const root = document.getElementById('root')!;
  const drawn = root.dataset.prerendered !== undefined && root.firstElementChild !== null;
  await nextTask();
  await import('i18next');
  await nextTask();
  const runtime = await import('@portal/runtime');
  await nextTask();
  const { setUp, loadApp } = await import('./setup');
  const { releaseLanguage, embedder } = await setUp(drawn);
  const { authStore, checkSession, isEmbedded, languageReady, startProgress } = runtime;

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
    void releaseLanguage?.();
    startFederationWhenSignedIn();
    authStore.subscribe(startFederationWhenSignedIn);
  };

  await nextTask();
  await import('react-dom/client');
  await nextTask();
  const { startApp } = await loadApp();
  await nextTask();
  // The page the build drew is hydrated at once (English is in the bundle); an empty root is
  // drawn once the chosen language's strings are in (only en is in the bundle).
  if (!drawn) await languageReady();
  startApp(root, onReady);

  // Offline: the service worker of production builds (a development server has no /sw.js).
  if (process.env.NODE_ENV === 'production' && !isEmbedded()) registerServiceWorker();
}

void start();
