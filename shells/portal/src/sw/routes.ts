// Which requests the service worker (./sw.ts) answers how: plain functions, tested in jest.

/** The shell's page, precached under this URL: what every deep link gets when offline. */
export const SHELL_URL = '/';

/** Navigations that are not pages of the app: the API, dev tools, health. */
export const NOT_PAGES = [/^\/api(\/|$)/, /^\/_dev(\/|$)/, /^\/healthz$/];

/** The list of remotes and their current versions. */
export const isRemoteManifest = (pathname: string): boolean => pathname === '/mfe-manifest.json';

/** A file of a published remote version: /mfe/<package>/<version>/<file>. */
export const isRemoteFile = (pathname: string): boolean => /^\/mfe\/(?:[^/]+\/){2,}[^/]+$/.test(pathname);
