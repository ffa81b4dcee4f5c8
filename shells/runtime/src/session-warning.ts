// A session ends at the token's exp (the absolute limit, counted from the sign-in) or after the
// server's idle limit without a call. Two minutes before the first of the two, `sessionWarning`
// holds when it ends; the shell shows it without taking the focus from what the member types.
// "Stay signed in" (`staySignedIn`) makes a call, which renews the idle limit; the absolute one
// cannot be renewed. An idle session that reaches its end is ended here as an expired one.
import { authStore } from './auth-store';
import { expireSession } from './auth';
import { http, onSessionUsed } from './http';
import { createStore } from './store';

/** The server's idle limit (PORTAL_SESSION_IDLE_SECS, 2 h by default), less a minute: the
 * gateway records a use at most once a minute. */
export const IDLE_MS = (2 * 3600 - 60) * 1000;
/** How long before the end the warning shows. */
export const WARN_MS = 2 * 60 * 1000;

export interface SessionWarning {
  /** When the session ends (ms since the epoch). */
  endsAt: number;
  /** True when the idle limit ends it, so a call renews it. */
  renewable: boolean;
}

export const sessionWarningStore = createStore<{ warning: SessionWarning | null }>({ warning: null });

let lastUsed = Date.now();
let timer: ReturnType<typeof setTimeout> | undefined;
let watchedToken: string | null = null;

function schedule(): void {
  if (timer) clearTimeout(timer);
  timer = undefined;
  const { authenticated, expiry, token } = authStore.get();
  if (!authenticated || !expiry) {
    if (sessionWarningStore.get().warning) sessionWarningStore.set({ warning: null });
    return;
  }
  if (token !== watchedToken) {
    // A new session (a sign-in, a renewal) starts its idle time now.
    watchedToken = token;
    lastUsed = Date.now();
  }
  const idleEnd = lastUsed + IDLE_MS;
  const renewable = idleEnd < expiry * 1000;
  const endsAt = Math.min(idleEnd, expiry * 1000);
  const now = Date.now();
  if (endsAt <= now) {
    sessionWarningStore.set({ warning: null });
    // The token's own expiry is checked by the auth module; an idle end is this module's.
    if (renewable) expireSession('expired');
    return;
  }
  const warnAt = endsAt - WARN_MS;
  const showing = sessionWarningStore.get().warning;
  if (warnAt <= now) {
    if (showing?.endsAt !== endsAt || showing.renewable !== renewable) sessionWarningStore.set({ warning: { endsAt, renewable } });
    timer = setTimeout(schedule, endsAt - now + 50);
  } else {
    if (showing) sessionWarningStore.set({ warning: null });
    timer = setTimeout(schedule, Math.min(warnAt - now, 2 ** 31 - 1));
  }
}

/** A call the server accepted: the idle time starts again. */
export function sessionUsed(now = Date.now()): void {
  lastUsed = now;
  schedule();
}

/** "Stay signed in": one call renews the idle limit (the answer itself does not matter). */
export async function staySignedIn(): Promise<void> {
  await http('/api/profile', { quiet: true });
}

onSessionUsed(() => sessionUsed());
authStore.subscribe(() => schedule());
schedule();
