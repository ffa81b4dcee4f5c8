import { createStore, exchangeToken, navigate, takeUrlToken } from '@portal/runtime';
import { safeRedirect } from './mfe/routes';

// `?token=` on arrival. A one-time emailed link (typ "link") waits for the member's tap on
// Continue: mail scanners open links, and must not use them up. A session token handed over by a
// native wrapper is exchanged at once. Either way the token leaves the address bar immediately.

export type LinkPhase = 'none' | 'pending' | 'exchanging' | 'failed';

export interface LinkState {
  phase: LinkPhase;
  /** The link token waiting for Continue. */
  token: string | null;
  /** `redirect` from the URL (unchecked), if any. */
  redirect: string | null;
}

export const linkStore = createStore<LinkState>({ phase: 'none', token: null, redirect: null });

/** Back to the login form with "This sign-in link is invalid or has expired…". */
function fail(redirect: string | null, loc: Location): void {
  linkStore.set({ phase: 'failed', token: null, redirect });
  if (loc.pathname !== '/') {
    const back = redirect ?? `${loc.pathname}${loc.search}`;
    navigate(`/?redirect=${encodeURIComponent(back)}`, { replace: true });
  }
}

async function exchange(token: string, redirect: string | null, loc: Location): Promise<boolean> {
  try {
    const res = await exchangeToken(token);
    linkStore.set({ phase: 'none', token: null, redirect: null });
    navigate(safeRedirect(redirect ?? res.redirect), { replace: true });
    return true;
  } catch {
    fail(redirect, loc);
    return false;
  }
}

/** Reads and strips `?token=`; returns what happened. */
export async function handleUrlToken(loc: Location = window.location): Promise<'none' | 'link' | 'ok' | 'failed'> {
  const found = takeUrlToken(loc);
  if (!found) return 'none';
  if (found.kind === 'invalid') {
    fail(found.redirect, loc);
    return 'failed';
  }
  if (found.kind === 'link') {
    linkStore.set({ phase: 'pending', token: found.token, redirect: found.redirect });
    return 'link';
  }
  // A hand-over on a deep path (/profile?token=…) stays on that path.
  const here = loc.pathname !== '/' ? `${loc.pathname}${loc.search}` : null;
  return (await exchange(found.token, found.redirect ?? here, loc)) ? 'ok' : 'failed';
}

/** The member tapped Continue on the link landing screen. */
export async function continueSignIn(loc: Location = window.location): Promise<boolean> {
  const { token, redirect, phase } = linkStore.get();
  if (!token || phase === 'exchanging') return false;
  linkStore.set({ phase: 'exchanging' });
  return exchange(token, redirect, loc);
}

/** Forgets an earlier failed link (the member is trying again). */
export function clearLinkFailure(): void {
  if (linkStore.get().phase === 'failed') linkStore.set({ phase: 'none', redirect: null });
}
