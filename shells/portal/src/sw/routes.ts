// Which requests the service worker (./sw.ts) answers how: plain functions, tested in jest.

/**
 * The shell's two pages (drawn at build time), each precached under an address the gateway
 * answers with it, so the copy carries the page's security headers: the login page (index.html)
 * as `/`, the signed-in frame (app.html) as `/home` (the gateway's page for every address but
 * `/`). scripts/sw.mjs precaches them under these addresses.
 */
export const LOGIN_PAGE_URL = '/';
export const APP_PAGE_URL = '/home';

/** The precached page a navigation to `pathname` gets offline: the one the gateway would answer. */
export function offlinePage(pathname: string): string {
  return pathname === '/' ? LOGIN_PAGE_URL : APP_PAGE_URL;
}

/** Navigations that are not pages of the app: the API, dev tools, health. */
export const NOT_PAGES = [/^\/api(\/|$)/, /^\/_dev(\/|$)/, /^\/healthz$/];

/** The list of remotes and their current versions. */
export const isRemoteManifest = (pathname: string): boolean => pathname === '/mfe-manifest.json';

/** A file of a published remote version: /mfe/<package>/<version>/<file>. */
export const isRemoteFile = (pathname: string): boolean => /^\/mfe\/(?:[^/]+\/){2,}[^/]+$/.test(pathname);
