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

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(window.history.state, '', to);
  else window.history.pushState(window.history.state, '', to);
  window.dispatchEvent(new Event(LOCATION_EVENT));
}

/**
 * Asked before a member's in-app navigation (a `Link`, the tab bar, a sub-nav) leaves the page:
 * answers whether to go. A page with unsaved work registers one while it has some, and asks the
 * member (My Details' "Leave without saving?"). Programmatic navigation (sign-out, an expired
 * session, a redirect) is never held up.
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
    for (const guard of guards) if (!(await guard(to))) return;
    navigate(to);
  })();
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
