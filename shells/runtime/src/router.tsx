import { useEffect, useSyncExternalStore, type AnchorHTMLAttributes, type JSX, type MouseEvent } from 'react';
import { screenView } from './analytics';
import { useDrawn } from './store';

// A tiny router shared by the shell and the MFEs: path state from the History API.
// single-spa patches pushState, so navigate() also drives single-spa's rerouting.

export const LOCATION_EVENT = 'portal:locationchange';

function subscribe(cb: () => void): () => void {
  window.addEventListener('popstate', cb);
  window.addEventListener(LOCATION_EVENT, cb);
  return () => {
    window.removeEventListener('popstate', cb);
    window.removeEventListener(LOCATION_EVENT, cb);
  };
}

const getPath = () => window.location.pathname;
const getSearch = () => window.location.search;

// The address a page drawn ahead of time was drawn for (the shell's build renders its pages to
// HTML): what the router gives while that page is rendered and hydrated (see DrawnAhead).
let serverPath = '/';
let serverSearch = '';
const getServerPath = () => serverPath;
const getServerSearch = () => serverSearch;
const hasWindow = () => typeof window !== 'undefined';

/** The address a page drawn ahead of time shows (see usePathname). */
export function setServerLocation(pathname: string, search = ''): void {
  serverPath = pathname;
  serverSearch = search;
}

// While drawn ahead of time only the drawn address is read (see useStore); rendering on the
// server without a drawn address gives the current one where there is a window.
export function usePathname(): string {
  const drawn = useDrawn();
  const read = drawn || !hasWindow() ? getServerPath : getPath;
  return useSyncExternalStore(subscribe, drawn ? getServerPath : getPath, read);
}

export function useSearch(): string {
  const drawn = useDrawn();
  const read = drawn || !hasWindow() ? getServerSearch : getSearch;
  return useSyncExternalStore(subscribe, drawn ? getServerSearch : getSearch, read);
}

// Each history entry this router makes carries its place in the tab's history (`portalIndex` in
// history.state), so a Back or Forward (popstate) tells how far it moved: see `onPopState`.
const INDEX = 'portalIndex';
/** The place of the entry shown, as far as this router knows. */
let index = 0;
/** The address shown (path and query): what a Back or Forward would leave. */
let here = '';

const addressOf = (l: { pathname: string; search: string }) => `${l.pathname}${l.search}`;

function indexIn(state: unknown): number | null {
  const value = state && typeof state === 'object' ? (state as Record<string, unknown>)[INDEX] : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

function withIndex(state: unknown, at: number): Record<string, unknown> {
  return { ...(state && typeof state === 'object' ? state : {}), [INDEX]: at };
}

/** The shown entry's place, written into it when it has none (the first page, a `#` link). */
function stamp(): number {
  const known = indexIn(window.history.state);
  if (known === null) window.history.replaceState(withIndex(window.history.state, index), '');
  else index = known;
  here = addressOf(window.location);
  return index;
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const at = stamp();
  if (options.replace) window.history.replaceState(withIndex(window.history.state, at), '', to);
  else {
    index = at + 1;
    window.history.pushState(withIndex(window.history.state, at + 1), '', to);
  }
  here = addressOf(window.location);
  window.dispatchEvent(new Event(LOCATION_EVENT));
}

/**
 * Asked before a member's in-app navigation (a `Link`, the tab bar, a sub-nav, the browser's Back
 * or Forward) leaves the page: answers whether to go. A page with unsaved work registers one while
 * it has some, and asks the member (My Details' "Leave without saving?"). Programmatic navigation
 * (sign-out, an expired session, a redirect) is never held up.
 */
export type LeaveGuard = (to: string) => boolean | Promise<boolean>;
const leaveGuards = new Set<LeaveGuard>();

/** Registers `guard` until the returned function is called. */
export function addLeaveGuard(guard: LeaveGuard): () => void {
  leaveGuards.add(guard);
  return () => {
    leaveGuards.delete(guard);
  };
}

/**
 * Navigates as a member's click on a link does: at once when no page holds unsaved work (or the
 * link leads where the page already is), otherwise once every leave guard agrees.
 */
export function requestNavigation(to: string): void {
  const guards = [...leaveGuards];
  const here = new URL(window.location.href);
  const there = new URL(to, here);
  if (guards.length === 0 || (there.pathname === here.pathname && there.search === here.search)) {
    navigate(to);
    return;
  }
  void (async () => {
    if (await leaveAgreed(guards, to)) navigate(to);
  })();
}

async function leaveAgreed(guards: LeaveGuard[], to: string): Promise<boolean> {
  for (const guard of guards) if (!(await guard(to))) return false;
  return true;
}

// Back and Forward (issue 24). The browser has already moved when popstate comes, so with a leave
// guard registered a move to another address is held: this listener, added when the runtime loads
// (before single-spa's, and before any listener single-spa captures), stops the event, moves back
// to where the member was (history.go by the move's delta, read from the entries' places), asks
// the guards, and makes the move again once they all agree. Its own two moves are told apart
// (`restoring`, `goingOn`), so neither asks again: the first is stopped silently, the second
// reaches the router and single-spa as the member's own Back would. With no guard, or to the same address (a `#`
// link), nothing changes. An entry with no place known (one made by another pushState) is asked
// about where it is, and on "Stay" the member's address is put back as a new entry.
let restoring = 0;
let goingOn = false;
let held: { to: string; delta: number } | null = null;
let asking = false;

function letThrough(): void {
  index = indexIn(window.history.state) ?? index;
  here = addressOf(window.location);
}

function ask(to: string, then: (go: boolean) => void): void {
  asking = true;
  void leaveAgreed([...leaveGuards], to).then(
    (go) => {
      asking = false;
      then(go);
    },
    () => {
      asking = false;
      then(false);
    },
  );
}

function onPopState(event: PopStateEvent): void {
  // single-spa's own event for a pushState or replaceState: not a move of the member's. An entry
  // another pushState made (not navigate) gets its place here.
  const made = (event as PopStateEvent & { singleSpaTrigger?: string }).singleSpaTrigger;
  if (made) {
    if (indexIn(window.history.state) === null) {
      if (made === 'pushState') index++;
      window.history.replaceState(withIndex(window.history.state, index), '');
    }
    letThrough();
    return;
  }
  if (restoring > 0) {
    restoring--;
    event.stopImmediatePropagation();
    index = indexIn(window.history.state) ?? index;
    if (restoring === 0 && held && !asking) {
      const { to, delta } = held;
      ask(to, (go) => {
        held = null;
        if (!go) return;
        goingOn = true;
        window.history.go(delta);
      });
    }
    return;
  }
  if (goingOn) {
    goingOn = false;
    letThrough();
    return;
  }
  const to = `${window.location.pathname}${window.location.search}${window.location.hash}`;
  if (leaveGuards.size === 0 || addressOf(window.location) === here) {
    letThrough();
    return;
  }
  event.stopImmediatePropagation();
  const target = indexIn(window.history.state);
  const delta = target === null ? 0 : target - index;
  if (delta !== 0) {
    // Back where the member was first; asked once there (a second Back while asking only comes back).
    if (!held && !asking) held = { to, delta };
    restoring++;
    window.history.go(-delta);
    return;
  }
  if (asking) {
    // Moved again while asked already, and with no place known: back to the member's address.
    window.history.pushState(withIndex(null, index), '', here);
    return;
  }
  const from = here;
  ask(to, (go) => {
    if (go) {
      goingOn = true;
      window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }));
    } else window.history.pushState(withIndex(null, index), '', from);
  });
}

if (hasWindow()) {
  stamp();
  window.addEventListener('popstate', onPopState);
}

/** Matches '/rewards/item/:id' style patterns; returns params or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const p = pattern.split('/').filter(Boolean);
  const s = path.split('/').filter(Boolean);
  if (p.length !== s.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < p.length; i++) {
    if (p[i].startsWith(':')) params[p[i].slice(1)] = decodeURIComponent(s[i]);
    else if (p[i] !== s[i]) return null;
  }
  return params;
}

export type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { href: string };

/** An <a> that navigates without a page load (modifier clicks behave as usual). */
export function Link({ href, onClick, children, ...rest }: LinkProps) {
  const handle = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    if (rest.target && rest.target !== '_self') return;
    e.preventDefault();
    requestNavigation(href);
  };
  return (
    <a href={href} onClick={handle} {...rest}>
      {children}
    </a>
  );
}

export interface RouteDef {
  path: string;
  /** Screen-view title for native analytics (spec section 2). */
  title: string;
  Component: (props: { params: Record<string, string> }) => JSX.Element | null;
}

/** Renders the first matching route and reports its screen view on mount. */
export function Routes({ routes }: { routes: RouteDef[] }) {
  const path = usePathname().replace(/(.)\/+$/, '$1');
  let found: { route: RouteDef; params: Record<string, string> } | null = null;
  for (const route of routes) {
    const params = matchPath(route.path, path);
    if (params) {
      found = { route, params };
      break;
    }
  }
  const title = found?.route.title;
  useEffect(() => {
    if (title) screenView(title);
  }, [title, path]);
  if (!found) return null;
  const { Component } = found.route;
  return <Component params={found.params} />;
}
