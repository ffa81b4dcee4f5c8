// The service worker (/sw.js). scripts/sw.mjs bundles this file and writes into it, with Workbox's
// injectManifest, the files to precache: the shell (its pages: index.html as `/`, app.html as
// `/home`; all of shell/, the icons) and
// the build of each remote that /mfe-manifest.json names at that moment. It is written again after
// every build and every publish of a remote, so a new remote version means a new service worker.
//
// - Pages: the network first (a fresh page with the current security headers), else the page kept
//   at install (the login page for `/`, the signed-in frame for the rest): the portal opens offline.
// - /mfe-manifest.json: the network first, else the last copy: offline, the remotes last used.
// - /mfe/<package>/<version>/...: a version's files never change in place, so from the cache
//   first. The current versions are precached; an older one (still open in a tab when a new
//   version was published) is fetched and kept as it is asked for. A page always reads one
//   version's remoteEntry and chunks together: the path names the version.
// - /api: never answered from here. What the member sees offline (their card, the last known
//   balance, and Rewards' and My Orders' last known data: @portal/kit/offline-data) the app keeps
//   itself, in localStorage, per member, cleared at sign-out.
// So after one visit, a later one opens offline at any address the app owns, even one never
// opened before: its page is the precached frame, its remote's files are all precached.
// - A new worker takes over at once (skipWaiting, clientsClaim): the next page load uses it.
import { clientsClaim } from 'workbox-core';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { ExpirationPlugin } from 'workbox-expiration';
import { enable as enableNavigationPreload } from 'workbox-navigation-preload';
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute, type PrecacheEntry } from 'workbox-precaching';
import { warmStrategyCache } from 'workbox-recipes';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst, NetworkOnly } from 'workbox-strategies';
import { LOGIN_PAGE_URL, NOT_PAGES, isRemoteFile, isRemoteManifest, offlinePage } from './routes';

declare const self: { __WB_MANIFEST: Array<PrecacheEntry | string>; skipWaiting(): Promise<void> };

void self.skipWaiting();
clientsClaim();
// The page's request starts while the worker wakes up (the network-first strategies use it).
enableNavigationPreload();

// Registered before the precache route, which would otherwise answer `/` from the cache.
registerRoute(
  new NavigationRoute(
    new NetworkOnly({
      networkTimeoutSeconds: 5,
      // Offline: the page the gateway would have answered (index.html for `/`, app.html for the
      // rest), or the login page from a worker installed before app.html was built.
      plugins: [
        {
          handlerDidError: async ({ request }) =>
            (await matchPrecache(offlinePage(new URL(request.url).pathname))) ?? (await matchPrecache(LOGIN_PAGE_URL)) ?? Response.error(),
        },
      ],
    }),
    { denylist: NOT_PAGES },
  ),
);

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

// The gateway answers each member's releases with `Vary: Authorization` (a canary is per member);
// offline, the last list this browser was given is the one to use, whatever token asks for it
// now (the one that loaded it, a renewed one, or none at install), so the match ignores Vary.
const remoteList = new NetworkFirst({ cacheName: 'portal-mfe-manifest', networkTimeoutSeconds: 4, matchOptions: { ignoreVary: true } });
registerRoute(({ url, sameOrigin }) => sameOrigin && isRemoteManifest(url.pathname), remoteList);
// Kept at install too: the page that registered this worker read the list before it was there.
warmStrategyCache({ urls: ['/mfe-manifest.json'], strategy: remoteList });

registerRoute(
  ({ url, sameOrigin }) => sameOrigin && isRemoteFile(url.pathname),
  new CacheFirst({
    cacheName: 'portal-mfe',
    plugins: [
      new CacheableResponsePlugin({ statuses: [200] }),
      new ExpirationPlugin({ maxEntries: 400, maxAgeSeconds: 60 * 24 * 60 * 60, purgeOnQuotaError: true }),
    ],
  }),
);
