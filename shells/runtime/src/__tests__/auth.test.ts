import { makeToken, stubFetch } from '@portal/kit/fetch-stub';
import { authStore, checkSession, initAuth, initI18n, logout, toastStore } from '../index';
import { exchangeLinkToken, validateToken, LOGOUT_DELAY_MS } from '../auth';

const future = () => Math.floor(Date.now() / 1000) + 3600;

beforeAll(() => initI18n(''));

describe('validateToken', () => {
  it('accepts base64 of a JWT whose payload has pid and a future exp', () => {
    const exp = future();
    expect(validateToken(makeToken({ pid: 'p_demo', exp }))).toEqual({ pid: 'p_demo', exp });
  });

  it('rejects an expired token', () => {
    expect(validateToken(makeToken({ pid: 'p', exp: Math.floor(Date.now() / 1000) - 1 }))).toBeNull();
  });

  it('rejects a payload without pid or exp', () => {
    expect(validateToken(makeToken({ exp: future() }))).toBeNull();
    expect(validateToken(makeToken({ pid: 'p' }))).toBeNull();
  });

  it('rejects values that do not decode to a JWT', () => {
    expect(validateToken('not base64 at all!!')).toBeNull();
    expect(validateToken(btoa('a.b'))).toBeNull();
    expect(validateToken('')).toBeNull();
    expect(validateToken(null)).toBeNull();
  });
});

describe('auth store', () => {
  afterEach(() => jest.useRealTimers());

  it('starts from a valid cached token in local storage', () => {
    const token = makeToken({ pid: 'p1', exp: future() });
    localStorage.setItem('portal.auth', token);
    const state = initAuth();
    expect(state).toMatchObject({ authenticated: true, profile_id: 'p1', token });
  });

  it('drops an invalid cached token', () => {
    localStorage.setItem('portal.auth', makeToken({ pid: 'p1', exp: 1 }));
    expect(initAuth().authenticated).toBe(false);
    expect(localStorage.getItem('portal.auth')).toBeNull();
  });

  it('exchanges a link token for a session and stores it', async () => {
    const session = makeToken({ pid: 'p_demo', exp: future() });
    const stub = stubFetch({
      'POST /api/auth/exchange': { body: { token: session, expiry: future(), profile_id: 'p_demo' } },
    });
    await exchangeLinkToken('LINK');
    expect(stub.calls[0].body).toEqual({ token: 'LINK' });
    expect(authStore.get()).toMatchObject({ authenticated: true, profile_id: 'p_demo', loading: false });
    expect(localStorage.getItem('portal.auth')).toBe(session);
    stub.restore();
  });

  it('stays signed out when the exchange is refused', async () => {
    const stub = stubFetch({
      'POST /api/auth/exchange': { status: 401, body: { status: 401, message: 'Invalid or expired token', errors: {}, error: true } },
    });
    initAuth();
    await expect(exchangeLinkToken('BAD')).rejects.toMatchObject({ status: 401, error: true });
    expect(authStore.get().authenticated).toBe(false);
    stub.restore();
  });

  it('logs out after 400 ms, clearing storage and setting loggedOut', async () => {
    jest.useFakeTimers();
    localStorage.setItem('portal.auth', makeToken({ pid: 'p1', exp: future() }));
    localStorage.setItem('portal.profileCache', '{}');
    localStorage.setItem('portal.impersonation', '{}');
    initAuth();
    const done = logout();
    jest.advanceTimersByTime(LOGOUT_DELAY_MS - 1);
    expect(authStore.get().authenticated).toBe(true);
    expect(authStore.get().loggedOut).toBe(false);
    jest.advanceTimersByTime(1);
    await done;
    expect(authStore.get()).toMatchObject({ authenticated: false, loggedOut: true, token: null });
    expect(localStorage.getItem('portal.auth')).toBeNull();
    expect(localStorage.getItem('portal.profileCache')).toBeNull();
    expect(localStorage.getItem('portal.impersonation')).toBeNull();
  });

  it('an explicit sign-out removes every draft kept in the tab; an expiry keeps them', async () => {
    jest.useFakeTimers();
    const exp = future();
    localStorage.setItem('portal.auth', makeToken({ pid: 'p1', exp }));
    sessionStorage.setItem('draft:details:p1', '{"firstName":"Ada"}');
    sessionStorage.setItem('portal.other', 'kept');
    initAuth();
    expect(checkSession((exp + 1) * 1000)).toBe(false);
    await jest.advanceTimersByTimeAsync(LOGOUT_DELAY_MS);
    expect(authStore.get().loggedOut).toBe(true);
    expect(sessionStorage.getItem('draft:details:p1')).toBe('{"firstName":"Ada"}');

    localStorage.setItem('portal.auth', makeToken({ pid: 'p1', exp: future() }));
    initAuth();
    const done = logout();
    await jest.advanceTimersByTimeAsync(LOGOUT_DELAY_MS);
    await done;
    expect(sessionStorage.getItem('draft:details:p1')).toBeNull();
    expect(sessionStorage.getItem('portal.other')).toBe('kept');
    sessionStorage.clear();
  });

  it('ends an expired session with the spec toast, then logs out', async () => {
    jest.useFakeTimers();
    const exp = future();
    localStorage.setItem('portal.auth', makeToken({ pid: 'p1', exp }));
    initAuth();
    expect(checkSession()).toBe(true);
    expect(checkSession((exp + 1) * 1000)).toBe(false);
    expect(toastStore.get().toasts[0]).toMatchObject({
      type: 'error',
      text: 'Your secure visit has expired. Please log in again',
    });
    await jest.advanceTimersByTimeAsync(LOGOUT_DELAY_MS);
    expect(authStore.get()).toMatchObject({ authenticated: false, loggedOut: true, token: null });
  });
});
