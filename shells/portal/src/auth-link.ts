import { allowedExternalUrl, authStore, createStore, exchangeToken, navigate, takeUrlToken, whenConfigLoaded } from '@portal/runtime';
import { safeRedirect } from './mfe/routes';

// `?token=` on arrival. A one-time emailed link (typ "link") waits for the member's tap on
// Continue: mail scanners open links, and must not use them up. A session token handed over by a
// native wrapper is exchanged at once. Either way the token (and `externalRedirect`) leaves the
// address bar immediately.
//
// A link that can't be used (already used, expired) while this browser holds a valid session
// leaves that session as it is (the runtime keeps it): the landing screen says so ('kept') and
// offers to go on to the link's page. Without a session, back to the login form ('failed').

export type LinkPhase = 'none' | 'pending' | 'exchanging' | 'failed' | 'kept';

export interface LinkState {
  phase: LinkPhase;
  /** The link token waiting for Continue. */
  token: string | null;
  /** `redirect` from the URL (unchecked), if any. */
  redirect: string | null;
  /** `externalRedirect` from the URL (unchecked): followed after Continue only on an allowed origin. */
  externalRedirect?: string | null;
}

export const linkStore = createStore<LinkState>({ phase: 'none', token: null, redirect: null, externalRedirect: null });

/**
 * The link could not be used. Still signed in (the runtime kept the session): "This sign-in link
 * has already been used or has expired. You're still signed in." Else back to the login form with
 * "This sign-in link is invalid or has expired…".
 */
function fail(redirect: string | null, loc: Location): void {
  if (authStore.get().authenticated) {
    linkStore.set({ phase: 'kept', token: null, redirect, externalRedirect: null });
    return;
  }
  linkStore.set({ phase: 'failed', token: null, redirect, externalRedirect: null });
  if (loc.pathname !== '/') {
    const back = redirect ?? `${loc.pathname}${loc.search}`;
    navigate(`/?redirect=${encodeURIComponent(back)}`, { replace: true });
  }
}

/**
 * Where a link may send the member outside the portal: the URL must parse and its origin be in
 * config general.allowedOrigins (re-checked here: the server checked it when the link was made,
 * but a URL can be edited). Anything else is ignored.
 */
async function externalTarget(url: string | null | undefined): Promise<string | null> {
  if (!url) return null;
  return allowedExternalUrl(url, await whenConfigLoaded());
}

async function exchange(token: string, redirect: string | null, loc: Location, external: string | null = null): Promise<boolean> {
  try {
    const res = await exchangeToken(token);
    const target = await externalTarget(external);
    linkStore.set({ phase: 'none', token: null, redirect: null, externalRedirect: null });
    // The portal page goes under the external one in the history, so Back returns signed in.
    navigate(safeRedirect(redirect ?? res.redirect), { replace: true });
    if (target) loc.assign(target);
    return true;
  } catch {
    fail(redirect, loc);
    return false;
  }
}

/** Reads and strips `?token=`; returns what happened ('kept': unusable, still signed in). */
export async function handleUrlToken(loc: Location = window.location): Promise<'none' | 'link' | 'ok' | 'failed' | 'kept'> {
  const found = takeUrlToken(loc);
  if (!found) return 'none';
  if (found.kind === 'invalid') {
    fail(found.redirect, loc);
    return linkStore.get().phase === 'kept' ? 'kept' : 'failed';
  }
  if (found.kind === 'link') {
    linkStore.set({ phase: 'pending', token: found.token, redirect: found.redirect, externalRedirect: found.externalRedirect });
    return 'link';
  }
  // A hand-over on a deep path (/profile?token=…) stays on that path.
  const here = loc.pathname !== '/' ? `${loc.pathname}${loc.search}` : null;
  return (await exchange(found.token, found.redirect ?? here, loc)) ? 'ok' : 'failed';
}

/** The member tapped Continue on the link landing screen. */
export async function continueSignIn(loc: Location = window.location): Promise<boolean> {
  const { token, redirect, phase, externalRedirect } = linkStore.get();
  if (!token || phase === 'exchanging') return false;
  linkStore.set({ phase: 'exchanging' });
  return exchange(token, redirect, loc, externalRedirect ?? null);
}

/** "Continue" after a link that could not be used while signed in: on to the link's page. */
export function continueSignedIn(): void {
  const { redirect, phase } = linkStore.get();
  if (phase !== 'kept') return;
  linkStore.set({ phase: 'none', token: null, redirect: null, externalRedirect: null });
  navigate(safeRedirect(redirect), { replace: true });
}

/** Forgets an earlier failed link (the member is trying again). */
export function clearLinkFailure(): void {
  if (linkStore.get().phase === 'failed') linkStore.set({ phase: 'none', redirect: null });
}
