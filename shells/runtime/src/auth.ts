// Auth state transitions (spec section 4): cached token at start, URL tokens, sign-in by link or
// code, logout after 400 ms, expiry checks, and staff impersonation.
import { SIGNED_OUT, authStore, type AuthState, type ImpersonatedProfile } from './auth-store';
import { http, isHttpError, onForbiddenWrite, onUnauthorized } from './http';
import { addToast } from './toasts';
import { i18n, languageFromUrl, setLanguage, takeLanguageChosenBeforeSignIn } from './i18n';
import { postToHost } from './bridge';
import { LOCATION_EVENT, navigate } from './router';
import {
  AUTH_KEY,
  CARD_DISPLAY_KEY,
  IMPERSONATION_KEY,
  LOYALTY_MEMBER_KEY,
  MODE_KEY,
  ORDERS_CACHE_KEY,
  PROFILE_CACHE_KEY,
  REWARDS_CACHE_KEY,
  STAFF_SESSION_KEY,
  clearSessionKeys,
  forgetDrafts,
  readKey,
  removeKey,
  writeKey,
} from './storage';
import type { Profile, SignInActivity } from './api/types';
import { createStore } from './store';
import type { ImpersonateRequest, ImpersonateResponse, SessionResponse, TokenClaims } from './api/auth-types';

export { SESSION_STORAGE_KEYS } from './storage';
export const TOKEN_KEY = AUTH_KEY;
export const LOGOUT_DELAY_MS = 400;
export const IMPERSONATION_NO_TOKEN = 'Impersonation failed, no token received';
export const STAFF_ONLY = 'Only a signed-in staff user can view a member account';

// ---------------------------------------------------------------------------------------------
// Tokens

function b64decode(input: string): string {
  let s = input.replace(/-/g, '+').replace(/_/g, '/').replace(/\s/g, '');
  while (s.length % 4) s += '=';
  const binary = atob(s);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** Decodes base64 → JWT → payload; null unless it has pid and exp (no expiry check). */
export function decodeToken(token: string | null | undefined): TokenClaims | null {
  if (!token || typeof token !== 'string') return null;
  try {
    const jwt = b64decode(token);
    const parts = jwt.split('.');
    if (parts.length !== 3) return null;
    const payload = JSON.parse(b64decode(parts[1]));
    if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return null;
    if (typeof payload.pid !== 'string' && typeof payload.pid !== 'number') return null;
    if (typeof payload.exp !== 'number' || !Number.isFinite(payload.exp)) return null;
    const claims: TokenClaims = { ...payload, pid: String(payload.pid), exp: payload.exp };
    if (payload.act && (typeof payload.act !== 'object' || typeof payload.act.sub !== 'string')) delete claims.act;
    return claims;
  } catch {
    return null;
  }
}

/** Spec 5: valid only if it decodes, has pid and exp, and exp is in the future. */
export function validateToken(token: string | null | undefined, nowMs = Date.now()): TokenClaims | null {
  const payload = decodeToken(token);
  if (!payload) return null;
  return payload.exp * 1000 > nowMs ? payload : null;
}

// ---------------------------------------------------------------------------------------------
// Session change listeners (MFEs drop their query caches here)

export type SessionChange = 'signed-in' | 'signed-out' | 'impersonation-start' | 'impersonation-end';
const sessionListeners = new Set<(change: SessionChange) => void>();

/** Called whenever the signed-in account changes or the session ends. */
export function onSessionChange(listener: (change: SessionChange) => void): () => void {
  sessionListeners.add(listener);
  return () => sessionListeners.delete(listener);
}

function emit(change: SessionChange): void {
  sessionListeners.forEach((l) => {
    try {
      l(change);
    } catch (err) {
      console.warn('session listener failed', err);
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Session state

let expiryTimer: ReturnType<typeof setTimeout> | undefined;

function scheduleExpiryCheck(expiry: number | null): void {
  if (expiryTimer) clearTimeout(expiryTimer);
  expiryTimer = undefined;
  if (!expiry) return;
  const ms = Math.min(expiry * 1000 - Date.now() + 50, 2 ** 31 - 1);
  expiryTimer = setTimeout(() => checkSession(), Math.max(ms, 0));
}

function storedImpersonation(): ImpersonatedProfile | null {
  try {
    const raw = readKey(IMPERSONATION_KEY);
    const parsed = raw ? JSON.parse(raw) : null;
    const p = parsed?.impersonatedProfile;
    return p && typeof p === 'object' ? { first_name: String(p.first_name ?? ''), last_name: String(p.last_name ?? '') } : null;
  } catch {
    return null;
  }
}

function stateFor(token: string, claims: TokenClaims, impersonatedProfile?: ImpersonatedProfile | null): AuthState {
  const impersonating = Boolean(claims.act);
  const profile = impersonatedProfile === undefined ? storedImpersonation() : impersonatedProfile;
  return {
    ...SIGNED_OUT,
    token,
    profile_id: claims.pid,
    expiry: claims.exp,
    authenticated: true,
    staff: claims.staff === true,
    actor: claims.act ?? null,
    impersonating,
    impersonation: impersonating ? { impersonatedProfile: profile } : null,
  };
}

/** Clears auth and every stored key; `loggedOut` marks a deliberate sign-out. */
function endSession(extra: Partial<AuthState> = {}): void {
  const wasSignedIn = authStore.get().authenticated;
  clearSessionKeys();
  scheduleExpiryCheck(null);
  authStore.set({ ...SIGNED_OUT, ...extra });
  if (wasSignedIn) emit('signed-out');
}

/** Stores a session token; returns false (and signs out) when the token is not a valid session. */
export function setSession(token: string, opts: { impersonatedProfile?: ImpersonatedProfile | null } = {}): boolean {
  const claims = validateToken(token);
  if (!claims || claims.typ === 'link') {
    endSession();
    return false;
  }
  const previous = authStore.get().profile_id;
  writeKey(AUTH_KEY, token);
  authStore.set(stateFor(token, claims, opts.impersonatedProfile));
  scheduleExpiryCheck(claims.exp);
  if (previous !== claims.pid) emit('signed-in');
  postToHost({ action: 'login', profile_id: claims.pid });
  return true;
}

/** Starts from the cached token in local storage. */
export function initAuth(): AuthState {
  ending = false;
  pendingLogout = null;
  const cached = readKey(AUTH_KEY);
  const claims = validateToken(cached);
  if (cached && claims && claims.typ !== 'link') {
    authStore.set(stateFor(cached, claims));
    scheduleExpiryCheck(claims.exp);
  } else {
    if (cached) clearSessionKeys();
    scheduleExpiryCheck(null);
    authStore.set({ ...SIGNED_OUT });
  }
  return authStore.get();
}

// ---------------------------------------------------------------------------------------------
// Tokens in the URL

export interface UrlToken {
  token: string;
  /** link: one-time emailed link (needs a tap); session: hand-over from a native wrapper. */
  kind: 'link' | 'session' | 'invalid';
  claims: TokenClaims | null;
  /** `redirect` from the URL, unchecked. */
  redirect: string | null;
  /** `externalRedirect` from the URL, unchecked (an absolute URL the link may leave the portal for). */
  externalRedirect: string | null;
}

/**
 * Reads `?token=` and strips it (and `externalRedirect`) from the address bar at once (other
 * parameters stay).
 * An invalid token signs the visitor out (spec 4); a valid one is classified, not used.
 */
export function takeUrlToken(loc: Location = window.location): UrlToken | null {
  const params = new URLSearchParams(loc.search);
  const raw = params.get('token');
  if (raw === null) return null;
  const externalRedirect = params.get('externalRedirect');
  params.delete('token');
  params.delete('externalRedirect');
  const rest = params.toString();
  window.history.replaceState(window.history.state, '', `${loc.pathname}${rest ? `?${rest}` : ''}${loc.hash}`);
  // Base64 never contains spaces: a '+' that was not URL-encoded arrives as one.
  const token = raw.replace(/ /g, '+');
  const claims = validateToken(token);
  const redirect = params.get('redirect');
  if (!claims) {
    // An expired sign-in link leaves a session held here as it is (issue 22, finding 11).
    if (!isStaleLink(token)) endSession();
    return { token, kind: 'invalid', claims: null, redirect, externalRedirect };
  }
  return { token, kind: claims.typ === 'link' ? 'link' : 'session', claims, redirect, externalRedirect };
}

/** A valid session (not a link) is held here now. */
function holdsSession(): boolean {
  const { authenticated, token } = authStore.get();
  const claims = authenticated ? validateToken(token) : null;
  return claims !== null && claims.typ !== 'link';
}

/** A sign-in link that can't be used while a session is held: that session stays. */
function isStaleLink(token: string): boolean {
  return decodeToken(token)?.typ === 'link' && holdsSession();
}

/**
 * POST /api/auth/exchange: a link token or a handed-over session token → a fresh session. A
 * refused exchange signs out, except a sign-in link refused while a session is held here (an
 * older link, already used or expired): that session stays as it was.
 */
export async function exchangeToken(token: string): Promise<SessionResponse> {
  const link = decodeToken(token)?.typ === 'link';
  authStore.set({ loading: true });
  try {
    return signedIn(await http<SessionResponse>('/api/auth/exchange', { method: 'POST', body: { token }, token: null }));
  } catch (err) {
    if (link && holdsSession()) authStore.set({ loading: false });
    else endSession();
    throw err;
  }
}

/** @deprecated kept for callers of the first release; use exchangeToken. */
export const exchangeLinkToken = exchangeToken;

/**
 * The check-in or event sign-up the last sign-in brought ("Checked in at {store}"), kept in
 * memory for the page it leads to; that page clears it once shown.
 */
export const activityStore = createStore<{ activity: SignInActivity | null }>({ activity: null });

/** POST /api/auth/verify with the emailed 6-digit code; signs in on success, rejects otherwise. */
export async function verifyCode(email: string, code: string): Promise<SessionResponse> {
  return signedIn(await http<SessionResponse>('/api/auth/verify', { method: 'POST', body: { email, code }, token: null }));
}

/** A sign-in's answer (link or code): its session is started and its check-in or sign-up kept. */
function signedIn(res: SessionResponse | null | undefined): SessionResponse {
  if (!res || !setSession(res.token)) throw new Error('Invalid session token');
  activityStore.set({ activity: res.activity ?? null });
  return res;
}

// ---------------------------------------------------------------------------------------------
// Logout and expiry

let ending = false;
let pendingLogout: Promise<void> | null = null;

function revoke(token: string | null): void {
  if (!token) return;
  void http('/api/auth/logout', { method: 'POST', token, quiet: true, keepalive: true }).catch(() => undefined);
}

/**
 * Logout: after 400 ms, tells the server (failure ignored), then clears auth, the profile/query
 * cache, loyalty member details, card display flag, mode and impersonation storage; sets loggedOut.
 */
export function logout(): Promise<void> {
  // The member chose to leave: nothing they left unsaved stays in the tab (an expiry keeps it).
  return endAfterDelay({ loggedOut: true }, () => forgetDrafts());
}

/**
 * For a write the server accepts only after a recent sign-in (it answered 403 with
 * `errors.session: 'reauthenticate'`): the same sign-out as logout, then the sign-in page, which
 * brings the member back to `path` (default: this page) once signed in again. Not `loggedOut`:
 * the page goes straight to the sign-in form, not to the Logged out screen.
 */
export function signInAgain(path: string = `${window.location.pathname}${window.location.search}`): Promise<void> {
  return endAfterDelay({}, () => navigate(`/?redirect=${encodeURIComponent(path)}`));
}

function endAfterDelay(extra: Partial<AuthState>, then?: () => void): Promise<void> {
  if (pendingLogout) return pendingLogout;
  ending = true;
  authStore.set({ loading: true });
  pendingLogout = new Promise<void>((resolve) => {
    setTimeout(() => {
      const { token } = authStore.get();
      revoke(token);
      // The staff session kept aside while impersonating ends too.
      const staffToken = readKey(STAFF_SESSION_KEY, 'session');
      if (staffToken && staffToken !== token) revoke(staffToken);
      endSession(extra);
      postToHost({ action: 'logout' });
      ending = false;
      pendingLogout = null;
      then?.();
      resolve();
    }, LOGOUT_DELAY_MS);
  });
  return pendingLogout;
}

/**
 * The server has already ended this session (an undone change of the sign-in address ends every
 * session of the account): it is forgotten here, auth and every stored key, without a call to the
 * server and without the Logged out screen.
 */
export function forgetSession(): void {
  const wasSignedIn = authStore.get().authenticated;
  endSession();
  if (wasSignedIn) postToHost({ action: 'logout' });
}

/**
 * The session is over (expiry passed, or the API answered 401): toast, then logout; the Logged
 * out screen says why. `elsewhere`: another device signed this one out.
 */
export function expireSession(why: 'expired' | 'elsewhere' = 'expired'): void {
  if (ending || !authStore.get().authenticated) return;
  ending = true;
  const text = i18n.t(why === 'elsewhere' ? 'session.signedOutElsewhere' : 'session.expired', { ns: 'runtime' });
  addToast({ type: 'error', text, timeout: 5000 });
  void endAfterDelay({ loggedOut: true, ended: why });
}

/** True while the session is valid; ends it once expiry has passed. */
export function checkSession(nowMs = Date.now()): boolean {
  const { authenticated, expiry } = authStore.get();
  if (!authenticated) return false;
  if (expiry && expiry * 1000 > nowMs) return true;
  expireSession();
  return false;
}

/** Checks the session on route changes and when the tab becomes visible again. */
export function watchSession(): () => void {
  const check = () => void checkSession();
  const onVisibility = () => {
    if (document.visibilityState === 'visible') checkSession();
  };
  document.addEventListener('visibilitychange', onVisibility);
  window.addEventListener('popstate', check);
  window.addEventListener(LOCATION_EVENT, check);
  return () => {
    document.removeEventListener('visibilitychange', onVisibility);
    window.removeEventListener('popstate', check);
    window.removeEventListener(LOCATION_EVENT, check);
  };
}

// ---------------------------------------------------------------------------------------------
// Staff impersonation

/**
 * Staff view of a member: loading and impersonating are set, the server answers with an
 * impersonation token and auth completes with it. The staff token waits in sessionStorage for
 * stopImpersonation(). No token back → 'Impersonation failed, no token received' and the staff
 * state as it was.
 */
export async function impersonate(profileId: string, reason?: string, opts: { staffToken?: string } = {}): Promise<void> {
  const before = authStore.get();
  // The staff credential: a staff session token handed in (an embedding page's), or the staff
  // session signed in here. The staff id always comes from it.
  const given = opts.staffToken ? validateToken(opts.staffToken) : null;
  const credential = opts.staffToken
    ? given?.staff === true && !given.act && given.typ !== 'link'
      ? { token: opts.staffToken, staffId: given.pid }
      : null
    : before.authenticated && before.staff && before.token
      ? { token: before.token, staffId: before.profile_id ?? undefined }
      : null;
  if (!credential) {
    throw new Error(STAFF_ONLY);
  }
  const staffToken = credential.token;
  authStore.set({ loading: true, impersonating: true });
  try {
    const body: ImpersonateRequest = { staffId: credential.staffId };
    const why = reason?.trim();
    if (why) body.reason = why;
    const res = await http<ImpersonateResponse>(`/api/auth/impersonate/${encodeURIComponent(profileId)}`, {
      method: 'POST',
      body,
      token: staffToken,
    });
    const claims = res?.token ? validateToken(res.token) : null;
    if (!res?.token || !claims) throw new Error(IMPERSONATION_NO_TOKEN);
    const profile = res.impersonatedProfile
      ? { first_name: res.impersonatedProfile.first_name ?? '', last_name: res.impersonatedProfile.last_name ?? '' }
      : null;
    writeKey(STAFF_SESSION_KEY, staffToken, 'session');
    writeKey(IMPERSONATION_KEY, JSON.stringify({ impersonatedProfile: profile }));
    setSession(res.token, { impersonatedProfile: profile });
    emit('impersonation-start');
  } catch (err) {
    if (authStore.get().token === before.token) {
      authStore.set({ loading: false, impersonating: false, impersonation: null });
    }
    const noToken = !isHttpError(err);
    addToast({
      type: 'error',
      text: noToken ? i18n.t('impersonation.noToken', { ns: 'runtime' }) : (err as { message: string }).message,
      timeout: 5000,
    });
    throw noToken && (err as Error).message !== IMPERSONATION_NO_TOKEN ? new Error(IMPERSONATION_NO_TOKEN) : err;
  }
}

/**
 * "Stop viewing": ends the impersonation token on the server, forgets the member's cached data
 * and returns to the staff session kept aside (or signs out when there is none).
 */
export async function stopImpersonation(): Promise<boolean> {
  const { token, impersonating } = authStore.get();
  if (!impersonating) return false;
  authStore.set({ loading: true });
  if (token) await http('/api/auth/logout', { method: 'POST', token, quiet: true }).catch(() => undefined);
  const staffToken = readKey(STAFF_SESSION_KEY, 'session');
  for (const key of [
    IMPERSONATION_KEY,
    PROFILE_CACHE_KEY,
    REWARDS_CACHE_KEY,
    ORDERS_CACHE_KEY,
    LOYALTY_MEMBER_KEY,
    CARD_DISPLAY_KEY,
    MODE_KEY,
  ])
    removeKey(key);
  removeKey(STAFF_SESSION_KEY, 'session');
  emit('impersonation-end');
  if (staffToken && setSession(staffToken, { impersonatedProfile: null })) return true;
  endSession({ loggedOut: true });
  return false;
}

// Session checked on every update of the auth state, on a 401 from the API; a write refused
// with 403 (staff viewing a member are read-only) shows the server's message.
authStore.subscribe((s) => {
  if (s.authenticated && s.expiry && s.expiry * 1000 <= Date.now()) expireSession();
});
onUnauthorized((error) => expireSession(error.errors.session === 'revoked' ? 'elsewhere' : 'expired'));
onForbiddenWrite((error) => {
  // A write that needs a fresh sign-in: the screen that sent it explains and offers signInAgain().
  if (error.errors.session === 'reauthenticate') return;
  addToast({ type: 'error', text: error.message, timeout: 5000 });
});

// A member's saved display language (custom_attributes.locale.language) applies when their
// session starts, unless the URL names a language (which wins, spec 5) or the member chose one on
// the sign-in page just now: that choice stays and is saved as their language, as /preference
// would save it. Once per sign-in: after that the member's own choice on /preference (stored by
// setLanguage) carries on. Staff, and staff viewing a member, keep the language they chose.
onSessionChange((change) => {
  const { authenticated, staff, impersonating } = authStore.get();
  if (change !== 'signed-in' || !authenticated || staff || impersonating) return;
  const chosen = takeLanguageChosenBeforeSignIn();
  if (languageFromUrl()) return;
  if (chosen) {
    http<Profile>('/api/profile/attributes/custom/locale:language', { method: 'PUT', body: { value: chosen }, quiet: true }).catch(
      () => undefined,
    );
    return;
  }
  http<Profile>('/api/profile', { quiet: true }).then(
    (profile) => {
      const saved = profile?.custom_attributes?.locale?.language;
      if (saved && saved !== i18n.language) setLanguage(saved);
    },
    () => undefined,
  );
});
