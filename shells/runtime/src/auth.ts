import { SIGNED_OUT, authStore, type AuthState } from './auth-store';
import { http, onUnauthorized } from './http';
import { addToast } from './toasts';
import { i18n } from './i18n';
import { postToHost } from './bridge';
import type { ExchangeResponse } from './api/types';

export const TOKEN_KEY = 'portal.auth';
export const LOGOUT_DELAY_MS = 400;
/** Everything logout clears (auth, caches, member details, card flag, mode, impersonation). */
export const SESSION_STORAGE_KEYS = [
  TOKEN_KEY,
  'portal.cache',
  'portal.profile',
  'portal.member',
  'portal.cardDisplay',
  'portal.mode',
  'portal.impersonation',
];

export interface TokenPayload {
  pid: string;
  exp: number;
}

function b64decode(input: string): string {
  let s = input.replace(/-/g, '+').replace(/_/g, '/').replace(/\s/g, '');
  while (s.length % 4) s += '=';
  const binary = atob(s);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** Decodes base64 → JWT → payload; null unless it has pid and exp (no expiry check). */
export function decodeToken(token: string | null | undefined): TokenPayload | null {
  if (!token || typeof token !== 'string') return null;
  try {
    const jwt = b64decode(token);
    const parts = jwt.split('.');
    if (parts.length !== 3) return null;
    const payload = JSON.parse(b64decode(parts[1]));
    if (!payload || typeof payload !== 'object') return null;
    if (typeof payload.pid !== 'string' && typeof payload.pid !== 'number') return null;
    if (typeof payload.exp !== 'number') return null;
    return { pid: String(payload.pid), exp: payload.exp };
  } catch {
    return null;
  }
}

/** Spec 5: valid only if it decodes, has pid and exp, and exp is in the future. */
export function validateToken(token: string | null | undefined, nowMs = Date.now()): TokenPayload | null {
  const payload = decodeToken(token);
  if (!payload) return null;
  return payload.exp * 1000 > nowMs ? payload : null;
}

let expiryTimer: ReturnType<typeof setTimeout> | undefined;

function scheduleExpiryCheck(expiry: number | null): void {
  if (expiryTimer) clearTimeout(expiryTimer);
  expiryTimer = undefined;
  if (!expiry) return;
  const ms = Math.min(expiry * 1000 - Date.now() + 50, 2 ** 31 - 1);
  expiryTimer = setTimeout(checkSession, Math.max(ms, 0));
}

function clearSessionStorage(): void {
  try {
    SESSION_STORAGE_KEYS.forEach((k) => localStorage.removeItem(k));
  } catch {
    /* storage unavailable */
  }
}

/** Stores a session token; returns false (and signs out) when the token is not valid. */
export function setSession(token: string): boolean {
  const payload = validateToken(token);
  if (!payload) {
    clearSessionStorage();
    authStore.set({ ...SIGNED_OUT });
    return false;
  }
  try {
    localStorage.setItem(TOKEN_KEY, token);
  } catch {
    /* private mode */
  }
  authStore.set({
    ...SIGNED_OUT,
    token,
    profile_id: payload.pid,
    expiry: payload.exp,
    authenticated: true,
  });
  scheduleExpiryCheck(payload.exp);
  postToHost({ action: 'login', profile_id: payload.pid });
  return true;
}

/** Starts from the cached token in local storage. */
export function initAuth(): AuthState {
  let cached: string | null = null;
  try {
    cached = localStorage.getItem(TOKEN_KEY);
  } catch {
    cached = null;
  }
  if (cached && validateToken(cached)) {
    const payload = validateToken(cached)!;
    authStore.set({ ...SIGNED_OUT, token: cached, profile_id: payload.pid, expiry: payload.exp, authenticated: true });
    scheduleExpiryCheck(payload.exp);
  } else {
    if (cached) clearSessionStorage();
    authStore.set({ ...SIGNED_OUT });
  }
  return authStore.get();
}

/** Exchanges the one-time link token from the e-mail for a session token. */
export async function exchangeLinkToken(linkToken: string): Promise<ExchangeResponse> {
  authStore.set({ loading: true });
  try {
    const res = await http<ExchangeResponse>('/api/auth/exchange', { method: 'POST', body: { token: linkToken } });
    if (!res || !setSession(res.token)) {
      throw new Error('Invalid session token');
    }
    return res;
  } catch (err) {
    authStore.set({ ...SIGNED_OUT });
    throw err;
  }
}

/** Ends the session when its expiry has passed, with the spec's toast. */
export function checkSession(nowMs = Date.now()): boolean {
  const { authenticated, expiry } = authStore.get();
  if (!authenticated) return false;
  if (expiry && expiry * 1000 > nowMs) return true;
  expireSession();
  return false;
}

export function expireSession(): void {
  if (!authStore.get().authenticated) return;
  clearSessionStorage();
  scheduleExpiryCheck(null);
  authStore.set({ ...SIGNED_OUT });
  addToast({ type: 'error', text: i18n.t('session.expired', { ns: 'runtime' }), timeout: 5000 });
}

/** Logout: after 400 ms clears auth and cached member data, then sets loggedOut. */
export function logout(): Promise<void> {
  authStore.set({ loading: true });
  return new Promise((resolve) => {
    setTimeout(() => {
      clearSessionStorage();
      scheduleExpiryCheck(null);
      authStore.set({ ...SIGNED_OUT, loggedOut: true });
      postToHost({ action: 'logout' });
      resolve();
    }, LOGOUT_DELAY_MS);
  });
}

/** Staff view of a member: the backend answers with a session token for that member. */
export async function impersonate(profileId: string, staffId: string): Promise<void> {
  authStore.set({ loading: true, impersonating: true });
  try {
    const res = await http<{ token?: string; profile?: { first_name: string; last_name: string } }>(
      `/api/auth/impersonate/${encodeURIComponent(profileId)}`,
      { method: 'POST', body: { staffId } },
    );
    if (!res || !res.token) throw new Error('Impersonation failed, no token received');
    if (!setSession(res.token)) throw new Error('Impersonation failed, no token received');
    authStore.set({
      impersonating: true,
      impersonation: { impersonatedProfile: res.profile ?? null },
    });
    try {
      localStorage.setItem('portal.impersonation', JSON.stringify(res.profile ?? null));
    } catch {
      /* ignore */
    }
  } catch (err) {
    authStore.set({ ...SIGNED_OUT });
    throw err;
  }
}

// Session checked on every update of the auth state, and on 401 from the API.
authStore.subscribe((s) => {
  if (s.authenticated && s.expiry && s.expiry * 1000 <= Date.now()) expireSession();
});
onUnauthorized(expireSession);
