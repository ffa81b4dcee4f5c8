// The portal inside an embedding page (packages/embed/src/protocol.ts): only the direct parent on
// an allowed origin is listened to and posted to, every action, the spec's error texts.
import { authStore, configStore, initAuth, toastStore, type PortalConfig } from '@portal/runtime';
import { resetParentOriginForTests, setSession } from '@portal/runtime/testing';
import { makeToken, stubFetch, type FetchStub } from '@portal/kit/fetch-stub';
import { handleEmbedMessage, startEmbedListener, parentOriginCandidate, type EmbedListener } from '../embed/listener';

const PARTNER = 'https://partner.example';
const now = () => Math.floor(Date.now() / 1000);
const memberToken = makeToken({ pid: 'p_demo', exp: now() + 3600, typ: 'session' });
const staffToken = makeToken({ pid: 's_1', exp: now() + 3600, typ: 'session', staff: true });
const viewToken = makeToken({ pid: 'p_demo', exp: now() + 1800, typ: 'session', act: { sub: 's_1', name: 'Sam Staff' } });
const DANA = {
  id: 'p_demo',
  email: 'demo@example.com',
  first_name: 'Dana',
  last_name: 'Demo',
  region: { handle: 'vic' },
  tier_handle: 'gold',
};

let parentFrame: HTMLIFrameElement;
let parentWindow: Window;
let posted: { message: Record<string, unknown>; origin: string }[];
let listener: EmbedListener | null;
let stub: FetchStub | null;
const realParent = Object.getOwnPropertyDescriptor(window, 'parent');

function config(allowedOrigins: unknown[]): PortalConfig {
  return { general: { tenant: 'demo', allowedOrigins }, lastUpdated: 1 } as unknown as PortalConfig;
}

/** The portal is in an iframe whose parent is `parentWindow` (a real window, so MessageEvent accepts it). */
function embedIn(referrer: string) {
  parentFrame = document.createElement('iframe');
  document.body.appendChild(parentFrame);
  parentWindow = parentFrame.contentWindow!;
  posted = [];
  jest.spyOn(parentWindow, 'postMessage').mockImplementation(((message: Record<string, unknown>, origin: string) => {
    posted.push({ message, origin });
  }) as typeof parentWindow.postMessage);
  Object.defineProperty(window, 'parent', { configurable: true, get: () => parentWindow });
  Object.defineProperty(document, 'referrer', { configurable: true, get: () => referrer });
}

async function start(allowed: unknown[] = [PARTNER], referrer = `${PARTNER}/account`) {
  embedIn(referrer);
  configStore.set({ config: config(allowed), loaded: true });
  listener = startEmbedListener(null);
  return listener.ready;
}

/** A message from `source` (default: the parent) on `origin`; resolves after the portal has handled it. */
async function send(data: unknown, origin = PARTNER, source: Window = parentWindow) {
  window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
  for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 0));
}

const messages = () => posted.map((p) => p.message);
const lastMessage = () => posted[posted.length - 1]?.message;

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  toastStore.set({ toasts: [] });
  initAuth();
  resetParentOriginForTests();
  document.documentElement.classList.remove('embedded');
  listener = null;
  stub = null;
});

afterEach(() => {
  listener?.stop();
  stub?.restore();
  if (realParent) Object.defineProperty(window, 'parent', realParent);
  parentFrame?.remove();
  jest.restoreAllMocks();
});

describe('the embedding page is checked before anything is said', () => {
  it('an allowed parent gets ready and the address, on its own origin only (never *)', async () => {
    expect(await start()).toBe(true);
    expect(messages()).toEqual([{ action: 'ready' }, { action: 'getUrl', url: window.location.href }]);
    expect(posted.every((p) => p.origin === PARTNER)).toBe(true);
    expect(document.documentElement.classList.contains('embedded')).toBe(true);
  });

  it('a parent that is not on the allow-list gets nothing, and is not listened to', async () => {
    expect(await start(['https://other.example'], 'https://evil.example/')).toBe(false);
    await send({ action: 'logout' }, 'https://evil.example');
    await send('not an object', 'https://evil.example');
    setSession(memberToken); // posts login: not to a refused parent
    expect(posted).toEqual([]);
    expect(authStore.get().authenticated).toBe(true);
  });

  it('messages the portal posted before the check wait for it', async () => {
    embedIn(`${PARTNER}/account`);
    configStore.set({ config: null, loaded: false });
    listener = startEmbedListener(null);
    setSession(memberToken);
    expect(posted).toEqual([]);
    configStore.set({ config: config([PARTNER]), loaded: true });
    await listener.ready;
    expect(messages()).toEqual([
      { action: 'login', profile_id: 'p_demo' },
      { action: 'ready' },
      { action: 'login', profile_id: 'p_demo' },
      { action: 'getUrl', url: window.location.href },
    ]);
  });

  it('already signed in: the page learns who after ready', async () => {
    localStorage.setItem('portal.auth', memberToken);
    initAuth();
    await start();
    expect(messages().slice(0, 2)).toEqual([{ action: 'ready' }, { action: 'login', profile_id: 'p_demo' }]);
  });

  it('entries that are not origins are ignored; the portal itself may embed itself', async () => {
    expect(await start(['*', 'not a url', 42], `${window.location.origin}/`)).toBe(true);
    expect(posted[0].origin).toBe(window.location.origin);
  });

  it('where the parent is: ancestorOrigins, else the referrer, else the embedder address', () => {
    const doc = (referrer: string, ancestors?: string[]) =>
      ({ referrer, location: { ancestorOrigins: ancestors && { length: ancestors.length, 0: ancestors[0] } } }) as unknown as Document;
    expect(parentOriginCandidate('https://c.example/x', doc('https://b.example/y', ['https://a.example']))).toBe('https://a.example');
    expect(parentOriginCandidate('https://c.example/x', doc('https://b.example/y'))).toBe('https://b.example');
    expect(parentOriginCandidate('https://c.example/x', doc(''))).toBe('https://c.example');
    expect(parentOriginCandidate('nonsense', doc(''))).toBeNull();
  });
});

describe('messages from the embedding page', () => {
  it('the checks themselves: an object with a known action, own properties only', () => {
    expect(() => handleEmbedMessage('logout', {})).toThrow('Invalid message data type');
    expect(() => handleEmbedMessage({ action: 'explode' }, { logout: () => 1 })).toThrow('Invalid action explode');
    expect(() => handleEmbedMessage({ action: 'constructor' }, { logout: () => 1 })).toThrow('Invalid action constructor');
    expect(handleEmbedMessage({ action: 'logout' }, { logout: () => 'ok' })).toBe('ok');
  });

  it('a message that is not an object: "Invalid message data type"', async () => {
    await start();
    posted = [];
    for (const data of ['logout', 42, null, ['logout'], undefined]) {
      await send(data);
      expect(lastMessage()).toEqual({ action: 'error', error: 'Invalid message data type' });
    }
    expect(posted).toHaveLength(5);
    expect(posted.every((p) => p.origin === PARTNER)).toBe(true);
  });

  it('an unknown action: "Invalid action {action}", with the requestId back', async () => {
    await start();
    posted = [];
    await send({ action: 'explode', requestId: 'r1' });
    expect(lastMessage()).toEqual({ action: 'error', error: 'Invalid action explode', requestId: 'r1', request: 'explode' });
    await send({});
    expect(lastMessage()).toEqual({ action: 'error', error: 'Invalid action undefined' });
    await send({ action: 'toString' });
    expect(lastMessage()).toMatchObject({ error: 'Invalid action toString' });
  });

  it('ignores other origins and other windows entirely (no answer)', async () => {
    localStorage.setItem('portal.auth', memberToken);
    initAuth();
    await start();
    posted = [];
    const sibling = document.createElement('iframe');
    document.body.appendChild(sibling);
    for (let i = 0; i < 50; i++) {
      await send({ action: 'logout' }, 'https://evil.example');
      await send('junk', 'https://evil.example');
      await send({ action: 'logout' }, PARTNER, sibling.contentWindow!); // right origin, wrong window
    }
    sibling.remove();
    expect(posted).toEqual([]);
    expect(authStore.get().authenticated).toBe(true);
  });

  it('logout signs out and tells the page', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'queueMicrotask', 'nextTick'] });
    try {
      localStorage.setItem('portal.auth', memberToken);
      initAuth();
      stub = stubFetch({ 'POST /api/auth/logout': { status: 204 } });
      configStore.set({ config: config([PARTNER]), loaded: true });
      embedIn(`${PARTNER}/`);
      listener = startEmbedListener(null);
      await listener.ready;
      posted = [];
      window.dispatchEvent(
        new MessageEvent('message', { data: { action: 'logout', requestId: 'r2' }, origin: PARTNER, source: parentWindow }),
      );
      await jest.advanceTimersByTimeAsync(400);
      expect(authStore.get()).toMatchObject({ authenticated: false, loggedOut: true });
      expect(messages()).toEqual([{ action: 'logout' }]);
      expect(stub.calls.map((c) => c.path)).toEqual(['/api/auth/logout']);
    } finally {
      jest.useRealTimers();
    }
  });

  it('requestCustomerData answers the spec fields; signed out, an error', async () => {
    await start();
    posted = [];
    await send({ action: 'requestCustomerData', requestId: 'c0' });
    expect(lastMessage()).toEqual({ action: 'error', error: 'Not signed in', requestId: 'c0', request: 'requestCustomerData' });

    setSession(memberToken);
    stub = stubFetch({ 'GET /api/profile': { body: { ...DANA, phone: '+61400000001' } } });
    await send({ action: 'requestCustomerData', requestId: 'c1' });
    expect(lastMessage()).toEqual({
      action: 'customerData',
      requestId: 'c1',
      email: 'demo@example.com',
      first_name: 'Dana',
      last_name: 'Demo',
      region: 'vic',
      tier: 'gold',
    });
  });

  it('getUrl answers the current address', async () => {
    await start();
    window.history.pushState(null, '', '/profile?lang=fr');
    await send({ action: 'getUrl', requestId: 'u1' });
    expect(lastMessage()).toEqual({ action: 'getUrl', requestId: 'u1', url: `${window.location.origin}/profile?lang=fr` });
    window.history.pushState(null, '', '/');
  });

  it('impersonate needs a staff credential; the staff id comes from it, not from the message', async () => {
    await start();
    // Nobody signed in, no token handed in.
    await send({ action: 'impersonate', profileId: 'p_demo', staffId: 's_1', requestId: 'i0' });
    expect(lastMessage()).toEqual({
      action: 'error',
      error: 'Only a signed-in staff user can view a member account',
      requestId: 'i0',
      request: 'impersonate',
    });
    // A member's session is not a staff credential, in the portal or handed in.
    setSession(memberToken);
    await send({ action: 'impersonate', profileId: 'p_other', staffId: 's_1' });
    expect(lastMessage()).toMatchObject({ error: 'Only a signed-in staff user can view a member account' });
    await send({ action: 'impersonate', profileId: 'p_other', staffToken: memberToken });
    expect(lastMessage()).toMatchObject({ error: 'Only a signed-in staff user can view a member account' });
    // No profile id: the spec's 'Invalid Arguments'.
    await send({ action: 'impersonate', staffToken });
    expect(lastMessage()).toMatchObject({ error: 'Invalid Arguments' });

    stub = stubFetch({
      'POST /api/auth/impersonate/p_demo': (req) => {
        expect(req.headers.Authorization ?? req.headers.authorization).toBe(`Bearer ${staffToken}`);
        return {
          body: {
            token: viewToken,
            expiry: now() + 1800,
            profile_id: 'p_demo',
            impersonatedProfile: { first_name: 'Dana', last_name: 'Demo' },
          },
        };
      },
      'GET /api/profile': { body: DANA },
    });
    posted = [];
    await send({ action: 'impersonate', profileId: 'p_demo', staffId: 's_mallory', reason: 'Call 1234', staffToken, requestId: 'i1' });
    expect(stub.calls[0]).toMatchObject({ path: '/api/auth/impersonate/p_demo', body: { staffId: 's_1', reason: 'Call 1234' } });
    expect(authStore.get()).toMatchObject({
      impersonating: true,
      profile_id: 'p_demo',
      impersonation: { impersonatedProfile: { first_name: 'Dana', last_name: 'Demo' } },
    });
    expect(lastMessage()).toEqual({
      action: 'impersonate',
      requestId: 'i1',
      profile_id: 'p_demo',
      impersonatedProfile: { first_name: 'Dana', last_name: 'Demo' },
    });
    expect(messages()).toContainEqual({ action: 'login', profile_id: 'p_demo' });
  });

  it('impersonate with the staff session signed in inside the portal', async () => {
    localStorage.setItem('portal.auth', staffToken);
    initAuth();
    await start();
    stub = stubFetch({
      'POST /api/auth/impersonate/p_demo': {
        body: {
          token: viewToken,
          expiry: now() + 1800,
          profile_id: 'p_demo',
          impersonatedProfile: { first_name: 'Dana', last_name: 'Demo' },
        },
      },
      'GET /api/profile': { body: DANA },
    });
    await send({ action: 'impersonate', profileId: 'p_demo', staffId: 's_mallory', requestId: 'i2' });
    expect(stub.calls[0].body).toEqual({ staffId: 's_1' });
    expect(lastMessage()).toMatchObject({ action: 'impersonate', requestId: 'i2', profile_id: 'p_demo' });
    // The answer went to the parent's origin only.
    expect(posted.every((p) => p.origin === PARTNER)).toBe(true);
  });

  it('a failed impersonation answers the server message', async () => {
    localStorage.setItem('portal.auth', staffToken);
    initAuth();
    await start();
    stub = stubFetch({ 'POST /api/auth/impersonate/p_nobody': { status: 404, body: { message: 'No such member', errors: {} } } });
    await send({ action: 'impersonate', profileId: 'p_nobody', requestId: 'i3' });
    expect(lastMessage()).toEqual({ action: 'error', error: 'No such member', requestId: 'i3', request: 'impersonate' });
    expect(authStore.get()).toMatchObject({ impersonating: false, profile_id: 's_1' });
  });
});
