import { SIGNED_OUT, authStore, setServerLocation } from '@portal/runtime';

/**
 * The pages the shell's build draws to HTML with React's server renderer, so that a phone paints
 * them before any script has run; the client then hydrates that HTML (src/start.tsx). The
 * gateway answers `/` with `index.html` and every other page with `app.html`.
 *
 * - `login` (index.html): the login page (`/`), signed out.
 * - `app` (app.html): the signed-in frame (header, tabs) with the member's start page, Home, as
 *   it first draws before any data: the greeting without a name, the cards, and room kept for the
 *   frequent-flyer summary. A member lands on /home; on another page the frame and Home show
 *   until the page's own content replaces them.
 *
 * Both are drawn in English with the portal's defaults (title "My account", `lang="en"`,
 * `dir="ltr"`); the member's language, the tenant's config and the browser's state (offline, a
 * native wrapper) follow once hydrated.
 */
export const DRAWN_PAGES = {
  login: { path: '/', signedIn: false },
  app: { path: '/home', signedIn: true },
} as const;

export type DrawnPage = keyof typeof DRAWN_PAGES;

export function isDrawnPage(value: unknown): value is DrawnPage {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(DRAWN_PAGES, value);
}

/**
 * The state `page` is drawn in, as the stores' server state (what server rendering and hydration
 * read): its address, and a member signed in or nobody. Every other store's server state is the
 * one it starts with (no config, online, no toasts, English). The build's renderer and the
 * client call this alike, so the hydrating render matches the HTML.
 */
export function drawAhead(page: DrawnPage): void {
  const { path, signedIn } = DRAWN_PAGES[page];
  setServerLocation(path, '');
  authStore.setServerState({ ...SIGNED_OUT, authenticated: signedIn });
}
