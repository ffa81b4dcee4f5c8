// Issue 3 transitions: URL tokens, logout, expiry, 401/403, staff impersonation.
import { makeToken, stubFetch, type FetchStub } from '@portal/kit/fetch-stub';
import {
  authStore,
  exchangeToken,
  expireSession,
  forgetSession,
  http,
  impersonate,
  initAuth,
  initI18n,
  logout,
  onSessionChange,
  signInAgain,
  stopImpersonation,
  takeUrlToken,
  toastStore,
  verifyCode,
  CARD_DISPLAY_KEY,
  LOYALTY_MEMBER_KEY,
  PROFILE_CACHE_KEY,
} from '../index';
import { AUTH_KEY, IMPERSONATION_KEY, MODE_KEY, STAFF_SESSION_KEY } from '../storage';
import { IMPERSONATION_NO_TOKEN, LOGOUT_DELAY_MS, SESSION_STORAGE_KEYS } from '../auth';

const now = () => Math.floor(Date.now() / 1000);
const member = (extra: Record<string, unknown> = {}) => makeToken({ pid: 'p_demo', exp: now() + 3600, typ: 'session', ...extra });
const staff = () => makeToken({ pid: 's_1', exp: now() + 3600, typ: 'session', staff: true });
const impersonation = () => makeToken({ pid: 'p_demo', exp: now() + 1800, typ: 'session', act: { sub: 's_1', name: 'Sam Staff' } });

let stub: FetchStub | undefined;

beforeAll(() => initI18n('?lang=en'));
beforeEach(() => {
  toastStore.set({ toasts: [] });
  sessionStorage.clear();
});
afterEach(() => {
  stub?.restore();
  stub = undefined;
  jest.useRealTimers();
});

function at(url: string) {
  window.history.replaceState(null, '', url);
  return window.location;
}

describe('a token in the URL', () => {
  it('classifies a valid link token and strips it, keeping the other parameters', () => {
    const token = makeToken({ pid: 'p_demo', exp: now() + 900, typ: 'link', redirect: '/profile' });
    const replace = jest.spyOn(window.history, 'replaceState');
    const found = takeUrlToken(at(`/?lang=fr&token=${encodeURIComponent(token)}&redirect=%2Fprofile`));
    expect(found).toMatchObject({ kind: 'link', token, redirect: '/profile', claims: { pid: 'p_demo', typ: 'link' } });
    expect(replace).toHaveBeenLastCalledWith(null, '', '/?lang=fr&redirect=%2Fprofile');
    expect(window.location.search).toBe('?lang=fr&redirect=%2Fprofile');
    replace.mockRestore();
  });

  it('classifies a session token (native hand-over)', () => {
    const token = member();
    expect(takeUrlToken(at(`/profile?token=${encodeURIComponent(token)}`))).toMatchObject({ kind: 'session', redirect: null });
    expect(window.location.href).toBe('http://localhost/profile');
  });

  it('repairs a + that arrived unencoded as a space', () => {
    const token = member();
    expect(takeUrlToken(at(`/?token=${token.replace(/\+/g, '%20')}`))?.token).toBe(token);
  });

  it.each([
    ['missing pid', makeToken({ exp: now() + 600, typ: 'link' })],
    ['missing exp', makeToken({ pid: 'p', typ: 'link' })],
    ['expired (a handed-over session)', makeToken({ pid: 'p', exp: now() - 1, typ: 'session' })],
    ['garbage', 'not-a-token%%'],
    ['base64 but not a JWT', btoa('a.b.c')],
  ])('treats a token %s as invalid and signs out', (_label, token) => {
    localStorage.setItem(AUTH_KEY, member());
    initAuth();
    expect(authStore.get().authenticated).toBe(true);
    const found = takeUrlToken(at(`/?token=${encodeURIComponent(token)}`));
    expect(found?.kind).toBe('invalid');
    expect(authStore.get().authenticated).toBe(false);
    expect(localStorage.getItem(AUTH_KEY)).toBeNull();
    expect(window.location.search).toBe('');
  });

  it('returns null when there is no token', () => {
    expect(takeUrlToken(at('/?redirect=%2Fhome'))).toBeNull();
  });

  it('an expired sign-in link keeps the session held here (issue 22, finding 11), and is invalid', () => {
    const held = member();
    localStorage.setItem(AUTH_KEY, held);
    localStorage.setItem(PROFILE_CACHE_KEY, 'cached');
    initAuth();
    const stale = makeToken({ pid: 'p_demo', exp: now() - 60, typ: 'link', redirect: '/profile' });
    const found = takeUrlToken(at(`/?token=${encodeURIComponent(stale)}&redirect=%2Fprofile`));
    expect(found).toMatchObject({ kind: 'invalid', claims: null, redirect: '/profile' });
    expect(authStore.get()).toMatchObject({ authenticated: true, token: held, loggedOut: false });
    expect(localStorage.getItem(AUTH_KEY)).toBe(held);
    expect(localStorage.getItem(PROFILE_CACHE_KEY)).toBe('cached');
    expect(window.location.search).toBe('?redirect=%2Fprofile');
  });

  it('an expired sign-in link with no session held (or an expired one) leaves nobody signed in', () => {
    localStorage.setItem(AUTH_KEY, makeToken({ pid: 'p_demo', exp: now() - 5, typ: 'session' }));
    initAuth();
    const stale = makeToken({ pid: 'p_demo', exp: now() - 60, typ: 'link' });
    expect(takeUrlToken(at(`/?token=${encodeURIComponent(stale)}`))?.kind).toBe('invalid');
    expect(authStore.get().authenticated).toBe(false);
    expect(localStorage.getItem(AUTH_KEY)).toBeNull();
  });
});

describe('exchanging a token', () => {
  const refused = { status: 401, body: { status: 401, message: 'Invalid or expired token', errors: {}, error: true } };
  const link = () => makeToken({ pid: 'p_demo', exp: now() + 600, typ: 'link' });

  it('a sign-in link refused (already used) while a session is held keeps that session as it was', async () => {
    const held = member();
    stub = stubFetch({ 'POST /api/auth/exchange': refused });
    localStorage.setItem(AUTH_KEY, held);
    localStorage.setItem(PROFILE_CACHE_KEY, 'cached');
    initAuth();
    const changes: string[] = [];
    const off = onSessionChange((c) => changes.push(c));
    await expect(exchangeToken(link())).rejects.toMatchObject({ status: 401 });
    off();
    expect(authStore.get()).toMatchObject({ authenticated: true, token: held, loading: false, loggedOut: false });
    expect(localStorage.getItem(AUTH_KEY)).toBe(held);
    expect(localStorage.getItem(PROFILE_CACHE_KEY)).toBe('cached');
    expect(changes).toEqual([]);
    // Only the exchange was asked: nothing was signed out on the server.
    expect(stub.calls.map((c) => c.path)).toEqual(['/api/auth/exchange']);
  });

  it('a handed-over session token refused while signed in signs out (spec 4: invalid is unauthenticated)', async () => {
    stub = stubFetch({ 'POST /api/auth/exchange': refused });
    localStorage.setItem(AUTH_KEY, member());
    initAuth();
    await expect(exchangeToken(member({ jti: 'other' }))).rejects.toMatchObject({ status: 401 });
    expect(authStore.get().authenticated).toBe(false);
    expect(localStorage.getItem(AUTH_KEY)).toBeNull();
  });

  it('a sign-in link refused with no session held leaves nobody signed in', async () => {
    stub = stubFetch({ 'POST /api/auth/exchange': refused });
    localStorage.removeItem(AUTH_KEY);
    initAuth();
    await expect(exchangeToken(link())).rejects.toMatchObject({ status: 401 });
    expect(authStore.get()).toMatchObject({ authenticated: false, loading: false });
  });
});

describe('forgetSession', () => {
  it('forgets a session the server already ended: every key cleared, no server call, not the Logged out state', () => {
    stub = stubFetch({});
    localStorage.setItem(AUTH_KEY, member());
    initAuth();
    for (const key of SESSION_STORAGE_KEYS) {
      if (key !== AUTH_KEY) localStorage.setItem(key, 'x');
      sessionStorage.setItem(key, 'x');
    }
    const changes: string[] = [];
    const off = onSessionChange((c) => changes.push(c));
    forgetSession();
    off();
    expect(authStore.get()).toMatchObject({ authenticated: false, loggedOut: false, token: null, loading: false });
    for (const key of SESSION_STORAGE_KEYS) {
      expect([key, localStorage.getItem(key), sessionStorage.getItem(key)]).toEqual([key, null, null]);
    }
    expect(changes).toEqual(['signed-out']);
    expect(stub.calls).toEqual([]);
  });
});

describe('start', () => {
  it('reads staff and impersonation from the cached token', () => {
    localStorage.setItem(AUTH_KEY, staff());
    expect(initAuth()).toMatchObject({ authenticated: true, staff: true, impersonating: false, profile_id: 's_1' });
    localStorage.setItem(AUTH_KEY, impersonation());
    localStorage.setItem(IMPERSONATION_KEY, JSON.stringify({ impersonatedProfile: { first_name: 'Dana', last_name: 'Demo' } }));
    expect(initAuth()).toMatchObject({
      authenticated: true,
      staff: false,
      impersonating: true,
      actor: { sub: 's_1', name: 'Sam Staff' },
      impersonation: { impersonatedProfile: { first_name: 'Dana', last_name: 'Demo' } },
    });
  });

  it('never takes a link token from the cache as a session', () => {
    localStorage.setItem(AUTH_KEY, makeToken({ pid: 'p', exp: now() + 600, typ: 'link' }));
    expect(initAuth().authenticated).toBe(false);
  });
});

describe('logout', () => {
  it('waits 400 ms, tells the server, then clears every key and sets loggedOut', async () => {
    jest.useFakeTimers();
    const token = member();
    stub = stubFetch({ 'POST /api/auth/logout': { status: 204 } });
    localStorage.setItem(AUTH_KEY, token);
    initAuth();
    for (const key of SESSION_STORAGE_KEYS) {
      if (key !== AUTH_KEY) localStorage.setItem(key, 'x');
      sessionStorage.setItem(key, 'x');
    }
    const done = logout();
    expect(authStore.get().loading).toBe(true);
    await jest.advanceTimersByTimeAsync(LOGOUT_DELAY_MS - 1);
    expect(stub.calls).toHaveLength(0);
    expect(authStore.get()).toMatchObject({ authenticated: true, loggedOut: false });
    await jest.advanceTimersByTimeAsync(1);
    await done;
    expect(stub.calls[0]).toMatchObject({ method: 'POST', path: '/api/auth/logout' });
    expect(stub.calls[0].headers.Authorization).toBe(`Bearer ${token}`);
    expect(authStore.get()).toMatchObject({ authenticated: false, loggedOut: true, token: null, loading: false });
    for (const key of [AUTH_KEY, PROFILE_CACHE_KEY, LOYALTY_MEMBER_KEY, CARD_DISPLAY_KEY, MODE_KEY, IMPERSONATION_KEY, STAFF_SESSION_KEY]) {
      expect([key, localStorage.getItem(key), sessionStorage.getItem(key)]).toEqual([key, null, null]);
    }
  });

  it('still signs out when the server call fails', async () => {
    jest.useFakeTimers();
    stub = stubFetch({ 'POST /api/auth/logout': { networkError: true } });
    localStorage.setItem(AUTH_KEY, member());
    initAuth();
    const done = logout();
    await jest.advanceTimersByTimeAsync(LOGOUT_DELAY_MS);
    await done;
    expect(authStore.get()).toMatchObject({ authenticated: false, loggedOut: true });
  });

  it('signInAgain signs out the same way, then opens the sign-in page that comes back here (not the Logged out screen)', async () => {
    jest.useFakeTimers();
    const token = member();
    stub = stubFetch({ 'POST /api/auth/logout': { status: 204 } });
    localStorage.setItem(AUTH_KEY, token);
    initAuth();
    window.history.replaceState(null, '', '/rewards?tab=qff');
    const done = signInAgain();
    await jest.advanceTimersByTimeAsync(LOGOUT_DELAY_MS - 1);
    expect(window.location.pathname).toBe('/rewards');
    await jest.advanceTimersByTimeAsync(1);
    await done;
    expect(stub.calls[0].headers.Authorization).toBe(`Bearer ${token}`);
    expect(authStore.get()).toMatchObject({ authenticated: false, loggedOut: false, token: null, loading: false });
    expect(localStorage.getItem(AUTH_KEY)).toBeNull();
    expect(`${window.location.pathname}${window.location.search}`).toBe('/?redirect=%2Frewards%3Ftab%3Dqff');
  });
});

describe('expiry', () => {
  it('a timer at expiry shows the toast and logs out', async () => {
    jest.useFakeTimers();
    stub = stubFetch({ 'POST /api/auth/logout': { status: 204 } });
    localStorage.setItem(AUTH_KEY, makeToken({ pid: 'p', exp: now() + 60, typ: 'session' }));
    initAuth();
    await jest.advanceTimersByTimeAsync(59_000);
    expect(authStore.get().authenticated).toBe(true);
    await jest.advanceTimersByTimeAsync(1_100);
    expect(toastStore.get().toasts[0]).toMatchObject({ type: 'error', text: 'Your secure visit has expired. Please log in again' });
    await jest.advanceTimersByTimeAsync(LOGOUT_DELAY_MS);
    expect(authStore.get()).toMatchObject({ authenticated: false, loggedOut: true });
    expect(toastStore.get().toasts.filter((t) => t.type === 'error')).toHaveLength(1);
  });

  it('a 401 on a signed-in call does the same', async () => {
    jest.useFakeTimers();
    stub = stubFetch({
      'GET /api/profile': { status: 401, body: { status: 401, message: 'Invalid or expired token', errors: {}, error: true } },
      'POST /api/auth/logout': { status: 401 },
    });
    localStorage.setItem(AUTH_KEY, member());
    initAuth();
    await expect(http('/api/profile')).rejects.toMatchObject({ status: 401 });
    expect(toastStore.get().toasts[0].text).toBe('Your secure visit has expired. Please log in again');
    await jest.advanceTimersByTimeAsync(LOGOUT_DELAY_MS);
    expect(authStore.get()).toMatchObject({ authenticated: false, loggedOut: true });
  });

  it('expireSession does nothing when signed out', () => {
    initAuth();
    expireSession();
    expect(toastStore.get().toasts).toHaveLength(0);
  });
});

describe('code sign-in', () => {
  it('verifies the code and stores the session', async () => {
    const token = member();
    stub = stubFetch({ 'POST /api/auth/verify': { body: { token, expiry: now() + 3600, profile_id: 'p_demo', redirect: '/home' } } });
    initAuth();
    await verifyCode('demo@example.com', '123456');
    expect(stub.calls[0].body).toEqual({ email: 'demo@example.com', code: '123456' });
    expect(authStore.get()).toMatchObject({ authenticated: true, profile_id: 'p_demo' });
    expect(localStorage.getItem(AUTH_KEY)).toBe(token);
  });

  it('rejects a wrong code without signing in', async () => {
    stub = stubFetch({
      'POST /api/auth/verify': {
        status: 401,
        body: { status: 401, message: 'That code is wrong or has expired', errors: {}, error: true },
      },
    });
    initAuth();
    await expect(verifyCode('demo@example.com', '000000')).rejects.toMatchObject({ status: 401 });
    expect(authStore.get().authenticated).toBe(false);
    expect(toastStore.get().toasts).toHaveLength(0);
  });
});

describe('impersonation', () => {
  it('sets loading and impersonating, then completes auth with the impersonation token', async () => {
    const staffToken = staff();
    const memberToken = impersonation();
    let release!: () => void;
    stub = stubFetch({
      'POST /api/auth/impersonate/p_demo': () =>
        new Promise((resolve) => {
          release = () =>
            resolve({
              body: {
                token: memberToken,
                expiry: now() + 1800,
                profile_id: 'p_demo',
                impersonatedProfile: { first_name: 'Dana', last_name: 'Demo' },
              },
            });
        }),
    });
    localStorage.setItem(AUTH_KEY, staffToken);
    initAuth();
    const done = impersonate('p_demo', 'Customer called about points');
    expect(authStore.get()).toMatchObject({ loading: true, impersonating: true });
    await new Promise((r) => setTimeout(r, 0));
    release();
    await done;
    expect(stub.calls[0]).toMatchObject({
      path: '/api/auth/impersonate/p_demo',
      body: { staffId: 's_1', reason: 'Customer called about points' },
    });
    expect(stub.calls[0].headers.Authorization).toBe(`Bearer ${staffToken}`);
    expect(authStore.get()).toMatchObject({
      authenticated: true,
      loading: false,
      impersonating: true,
      staff: false,
      profile_id: 'p_demo',
      token: memberToken,
      impersonation: { impersonatedProfile: { first_name: 'Dana', last_name: 'Demo' } },
    });
    expect(sessionStorage.getItem(STAFF_SESSION_KEY)).toBe(staffToken);
    expect(localStorage.getItem(AUTH_KEY)).toBe(memberToken);
  });

  it('raises the spec error, toasts it and resets when no token comes back', async () => {
    const staffToken = staff();
    stub = stubFetch({ 'POST /api/auth/impersonate/p_demo': { body: { impersonatedProfile: { first_name: 'Dana', last_name: 'Demo' } } } });
    localStorage.setItem(AUTH_KEY, staffToken);
    initAuth();
    await expect(impersonate('p_demo')).rejects.toThrow(IMPERSONATION_NO_TOKEN);
    expect(toastStore.get().toasts[0]).toMatchObject({ type: 'error', text: 'Impersonation failed, no token received' });
    expect(authStore.get()).toMatchObject({
      authenticated: true,
      staff: true,
      token: staffToken,
      loading: false,
      impersonating: false,
      impersonation: null,
    });
    expect(sessionStorage.getItem(STAFF_SESSION_KEY)).toBeNull();
    expect(stub.calls[0].body).toEqual({ staffId: 's_1' });
  });

  it('shows the server message when the request is refused', async () => {
    stub = stubFetch({
      'POST /api/auth/impersonate/p_x': { status: 404, body: { status: 404, message: 'No such member', errors: {}, error: true } },
    });
    localStorage.setItem(AUTH_KEY, staff());
    initAuth();
    await expect(impersonate('p_x')).rejects.toMatchObject({ status: 404 });
    expect(toastStore.get().toasts[0].text).toBe('No such member');
    expect(authStore.get()).toMatchObject({ staff: true, impersonating: false });
  });

  it('is refused to a member', async () => {
    localStorage.setItem(AUTH_KEY, member());
    initAuth();
    await expect(impersonate('p_other')).rejects.toThrow();
  });

  it('stop viewing ends the impersonation token and returns to the staff session', async () => {
    const staffToken = staff();
    const memberToken = impersonation();
    stub = stubFetch({ 'POST /api/auth/logout': { status: 204 } });
    localStorage.setItem(AUTH_KEY, memberToken);
    localStorage.setItem(IMPERSONATION_KEY, JSON.stringify({ impersonatedProfile: { first_name: 'Dana', last_name: 'Demo' } }));
    sessionStorage.setItem(STAFF_SESSION_KEY, staffToken);
    initAuth();
    await expect(stopImpersonation()).resolves.toBe(true);
    expect(stub.calls[0].headers.Authorization).toBe(`Bearer ${memberToken}`);
    expect(authStore.get()).toMatchObject({ authenticated: true, staff: true, impersonating: false, token: staffToken });
    expect(localStorage.getItem(IMPERSONATION_KEY)).toBeNull();
    expect(sessionStorage.getItem(STAFF_SESSION_KEY)).toBeNull();
  });

  it('a write refused with 403 shows the server message', async () => {
    const message = "Staff viewing a member's account cannot make changes";
    stub = stubFetch({ 'PUT /api/profile': { status: 403, body: { status: 403, message, errors: {}, error: true } } });
    localStorage.setItem(AUTH_KEY, impersonation());
    initAuth();
    await expect(http('/api/profile', { method: 'PUT', body: { first_name: 'X' } })).rejects.toMatchObject({ status: 403 });
    expect(toastStore.get().toasts[0]).toMatchObject({ type: 'error', text: message });
    expect(authStore.get().authenticated).toBe(true);
  });

  it('a write refused for an old sign-in (403 errors.session reauthenticate) shows no toast: the screen explains it', async () => {
    const message = 'For your security, please sign in again with a new code or link to convert points.';
    stub = stubFetch({
      'POST /api/qff/redeem': { status: 403, body: { status: 403, message, errors: { session: 'reauthenticate' }, error: true } },
    });
    localStorage.setItem(AUTH_KEY, member());
    initAuth();
    await expect(http('/api/qff/redeem', { method: 'POST', body: { points: 1000 } })).rejects.toMatchObject({
      status: 403,
      errors: { session: 'reauthenticate' },
    });
    expect(toastStore.get().toasts).toEqual([]);
    expect(authStore.get().authenticated).toBe(true);
  });
});
