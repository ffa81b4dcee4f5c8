import {
  EMBEDDER_PARAM,
  INVALID_DATA_TYPE,
  NOT_SIGNED_IN,
  PARENT_ACTIONS,
  PORTAL_ACTIONS,
  invalidAction,
  mountPortal,
  type MountOptions,
  type PortalHandle,
  type PortalMessage,
} from '../index';

// The portal is a stand-in: jsdom does not load the iframe, so its window stays about:blank;
// messages "from the portal" are MessageEvents dispatched on this window with the iframe's
// window as source and the portal's origin, as a browser delivers them.

const PORTAL = 'https://portal.example';
const PAGE = 'http://localhost/members?section=account';

let container: HTMLElement;
let handles: PortalHandle[] = [];

beforeEach(() => {
  window.history.replaceState(null, '', PAGE);
  container = document.createElement('div');
  document.body.appendChild(container);
});

afterEach(() => {
  handles.forEach((h) => h.destroy());
  handles = [];
  container.remove();
  jest.useRealTimers();
});

function mount(options: Partial<MountOptions> = {}): { handle: PortalHandle; posted: jest.SpyInstance } {
  const handle = mountPortal(container, { portalUrl: PORTAL, ...options });
  handles.push(handle);
  const posted = jest.spyOn(handle.iframe.contentWindow!, 'postMessage').mockImplementation(() => undefined);
  return { handle, posted };
}

function fromPortal(handle: PortalHandle, data: unknown, init: { origin?: string; source?: Window | null } = {}): void {
  const source = init.source === undefined ? handle.iframe.contentWindow : init.source;
  window.dispatchEvent(new MessageEvent('message', { data, origin: init.origin ?? PORTAL, source }));
}

/** What the page posted, in order. */
function sent(posted: jest.SpyInstance): Array<Record<string, unknown>> {
  return posted.mock.calls.map((c) => c[0] as Record<string, unknown>);
}

async function mountReady(options: Partial<MountOptions> = {}) {
  const m = mount(options);
  fromPortal(m.handle, { action: 'ready' }, { origin: m.handle.origin });
  await m.handle.ready;
  return m;
}

const customer = { email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', region: 'vic', tier: 'gold' };

describe('the iframe', () => {
  it('is appended with a title, width 100%, no border and only clipboard-write allowed', () => {
    const { handle } = mount();
    const frame = container.querySelector('iframe')!;
    expect(frame).toBe(handle.iframe);
    expect(frame.title).toBe('My account');
    expect(frame.getAttribute('allow')).toBe('clipboard-write');
    expect(frame.style.width).toBe('100%');
    expect(frame.style.borderWidth === '0px' || frame.style.border === '0px' || frame.style.border === '0').toBe(true);
    expect(handle.origin).toBe(PORTAL);
  });

  it('opens portalUrl + path with embedder (this page) and lang', () => {
    const { handle } = mount({
      portalUrl: 'https://portal.example/base/',
      path: '/profile?tab=points',
      language: 'fr',
      title: 'Mon compte',
    });
    const src = new URL(handle.iframe.src);
    expect(src.origin).toBe(PORTAL);
    expect(src.pathname).toBe('/base/profile');
    expect(src.searchParams.get('tab')).toBe('points');
    expect(src.searchParams.get(EMBEDDER_PARAM)).toBe(PAGE);
    expect(src.searchParams.get('lang')).toBe('fr');
    expect(src.searchParams.has('token')).toBe(false);
    expect(handle.iframe.title).toBe('Mon compte');
  });

  it('refuses a portal URL that is not http(s), keeping a sign-in token on the page', () => {
    window.history.replaceState(null, '', '/members?token=T1');
    expect(() => mountPortal(container, { portalUrl: 'javascript:alert(1)' })).toThrow(TypeError);
    expect(() => mountPortal(container, { portalUrl: 'portal.example' })).toThrow('Invalid URL');
    expect(container.querySelector('iframe')).toBeNull();
    expect(window.location.search).toBe('?token=T1');
  });
});

describe('token hand-over', () => {
  it('strips token and redirect from the page URL and gives them to the iframe with embedder', () => {
    window.history.replaceState({ keep: 1 }, '', '/members?section=account&token=abc+def.x&redirect=%2Fprofile#top');
    const { handle } = mount();
    expect(window.location.search).toBe('?section=account');
    expect(window.location.hash).toBe('#top');
    expect(window.history.state).toEqual({ keep: 1 });
    const src = new URL(handle.iframe.src);
    // An unencoded '+' reads as a space; base64 never has one, so it is a '+' again.
    expect(src.searchParams.get('token')).toBe('abc+def.x');
    expect(src.searchParams.get('redirect')).toBe('/profile');
    expect(src.searchParams.get(EMBEDDER_PARAM)).toBe(PAGE);
  });

  it('takes a link with a token but no redirect', () => {
    window.history.replaceState(null, '', '/members?token=T1');
    const { handle } = mount();
    expect(window.location.href).toBe('http://localhost/members');
    const src = new URL(handle.iframe.src);
    expect(src.searchParams.get('token')).toBe('T1');
    expect(src.searchParams.has('redirect')).toBe(false);
  });

  it('leaves redirect alone when there is no token', () => {
    window.history.replaceState(null, '', '/members?redirect=%2Fhome');
    const { handle } = mount();
    expect(window.location.search).toBe('?redirect=%2Fhome');
    expect(new URL(handle.iframe.src).searchParams.has('redirect')).toBe(false);
  });

  it('can be turned off, and the embedder never carries the token', () => {
    window.history.replaceState(null, '', '/members?token=T1&redirect=%2Fx');
    const { handle } = mount({ handOverToken: false });
    expect(window.location.search).toBe('?token=T1&redirect=%2Fx');
    const src = new URL(handle.iframe.src);
    expect(src.searchParams.has('token')).toBe(false);
    expect(src.searchParams.get(EMBEDDER_PARAM)).toBe('http://localhost/members');
  });
});

describe('sending', () => {
  it('queues until the portal is ready, then posts in order to the portal origin only', async () => {
    const { handle, posted } = mount();
    handle.send({ action: 'getUrl' });
    const data = handle.requestCustomerData();
    expect(posted).not.toHaveBeenCalled();
    fromPortal(handle, { action: 'ready' });
    await handle.ready;
    expect(sent(posted).map((m) => m.action)).toEqual(['getUrl', 'requestCustomerData']);
    handle.send({ action: 'logout' });
    expect(posted).toHaveBeenCalledTimes(3);
    for (const call of posted.mock.calls) expect(call[1]).toBe(PORTAL);
    fromPortal(handle, { action: 'customerData', ...customer, requestId: sent(posted)[1].requestId });
    await expect(data).resolves.toEqual(customer);
  });

  it('never posts to "*", whatever the request', async () => {
    const { handle, posted } = await mountReady({ portalUrl: 'https://portal.example:8443/base' });
    void handle.logout().catch(() => undefined);
    void handle.getUrl().catch(() => undefined);
    void handle.requestCustomerData().catch(() => undefined);
    void handle.impersonate('p1').catch(() => undefined);
    handle.send({ action: 'getUrl' });
    expect(posted).toHaveBeenCalledTimes(5);
    for (const call of posted.mock.calls) {
      expect(call[1]).toBe('https://portal.example:8443');
      expect(call[1]).not.toBe('*');
    }
  });

  it('gives every request a unique requestId', async () => {
    const { handle, posted } = await mountReady();
    for (let i = 0; i < 20; i += 1) void handle.getUrl().catch(() => undefined);
    const ids = sent(posted).map((m) => m.requestId);
    expect(ids.every((id) => typeof id === 'string' && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(20);
  });

  it('sends impersonate with profileId, reason and staffToken (no staffId)', async () => {
    const { handle, posted } = await mountReady();
    void handle.impersonate('42', { reason: 'Support call', staffToken: 'S.T' }).catch(() => undefined);
    void handle.impersonate('43').catch(() => undefined);
    const [first, second] = sent(posted);
    expect(first).toEqual({
      action: 'impersonate',
      profileId: '42',
      reason: 'Support call',
      staffToken: 'S.T',
      requestId: expect.any(String),
    });
    expect(second).toEqual({ action: 'impersonate', profileId: '43', requestId: expect.any(String) });
    expect(PARENT_ACTIONS).toEqual(expect.arrayContaining(sent(posted).map((m) => m.action)));
  });
});

describe('answers by requestId', () => {
  it('customerData, getUrl and impersonate resolve the request with their requestId, in any order', async () => {
    const { handle, posted } = await mountReady();
    const data1 = handle.requestCustomerData();
    const data2 = handle.requestCustomerData();
    const url1 = handle.getUrl();
    const url2 = handle.getUrl();
    const imp = handle.impersonate('p9', { reason: 'why' });
    const [d1, d2, u1, u2, i1] = sent(posted).map((m) => m.requestId as string);

    const other = { ...customer, email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper', region: null, tier: null };
    fromPortal(handle, { action: 'customerData', ...other, requestId: d2 });
    fromPortal(handle, { action: 'getUrl', url: 'https://portal.example/rewards', requestId: u2 });
    fromPortal(handle, {
      action: 'impersonate',
      profile_id: 'p9',
      impersonatedProfile: { first_name: 'Grace', last_name: 'Hopper' },
      requestId: i1,
    });
    fromPortal(handle, { action: 'getUrl', url: 'https://portal.example/profile', requestId: u1 });
    fromPortal(handle, { action: 'customerData', ...customer, requestId: d1 });

    await expect(data1).resolves.toEqual(customer);
    await expect(data2).resolves.toEqual(other);
    await expect(url1).resolves.toBe('https://portal.example/profile');
    await expect(url2).resolves.toBe('https://portal.example/rewards');
    await expect(imp).resolves.toMatchObject({ profile_id: 'p9', impersonatedProfile: { first_name: 'Grace', last_name: 'Hopper' } });
  });

  it('an answer with an unknown requestId or of the wrong kind settles nothing', async () => {
    jest.useFakeTimers();
    const { handle, posted } = await mountReady({ requestTimeoutMs: 1000 });
    const url = handle.getUrl();
    const id = sent(posted)[0].requestId;
    fromPortal(handle, { action: 'getUrl', url: 'https://portal.example/x', requestId: 'someone-else' });
    fromPortal(handle, { action: 'customerData', ...customer, requestId: id });
    jest.advanceTimersByTime(1000);
    await expect(url).rejects.toThrow('did not answer getUrl');
  });

  it('an answer without requestId settles the oldest request of its kind', async () => {
    const { handle } = await mountReady();
    const first = handle.getUrl();
    const second = handle.getUrl();
    fromPortal(handle, { action: 'getUrl', url: 'https://portal.example/a' });
    fromPortal(handle, { action: 'getUrl', url: 'https://portal.example/b' });
    await expect(first).resolves.toBe('https://portal.example/a');
    await expect(second).resolves.toBe('https://portal.example/b');
  });

  it('logout resolves on the next logout event', async () => {
    const onLogout = jest.fn();
    const { handle, posted } = await mountReady({ onLogout });
    let done = false;
    const out = handle.logout().then(() => {
      done = true;
    });
    expect(sent(posted)[0]).toEqual({ action: 'logout', requestId: expect.any(String) });
    await Promise.resolve();
    expect(done).toBe(false);
    fromPortal(handle, { action: 'logout' });
    await out;
    expect(done).toBe(true);
    expect(onLogout).toHaveBeenCalledTimes(1);
  });
});

describe('errors', () => {
  it("reject the matching request with the portal's text", async () => {
    const onError = jest.fn();
    const { handle, posted } = await mountReady({ onError });
    const url = handle.getUrl();
    const data = handle.requestCustomerData();
    const [u, d] = sent(posted).map((m) => m.requestId);
    const refusal = { action: 'error', error: NOT_SIGNED_IN, request: 'requestCustomerData', requestId: d };
    fromPortal(handle, refusal);
    await expect(data).rejects.toThrow(NOT_SIGNED_IN);
    await expect(data).rejects.toMatchObject({ name: 'PortalRequestError', event: refusal });
    fromPortal(handle, { action: 'error', error: invalidAction('foo'), requestId: u });
    await expect(url).rejects.toThrow('Invalid action foo');
    expect(onError).toHaveBeenCalledTimes(2);
    expect(onError.mock.calls[1][0]).toMatchObject({ error: 'Invalid action foo' });
  });

  it('without requestId, reject the oldest request of the refused action', async () => {
    const { handle } = await mountReady();
    const url = handle.getUrl();
    const imp = handle.impersonate('p1');
    fromPortal(handle, { action: 'error', error: 'No staff credential', request: 'impersonate' });
    await expect(imp).rejects.toThrow('No staff credential');
    // An error naming no request reaches onError only.
    fromPortal(handle, { action: 'error', error: INVALID_DATA_TYPE });
    fromPortal(handle, { action: 'getUrl', url: 'https://portal.example/', requestId: 'x' });
    fromPortal(handle, { action: 'getUrl', url: 'https://portal.example/' });
    await expect(url).resolves.toBe('https://portal.example/');
  });
});

describe('incoming messages', () => {
  it('are ignored from another origin or another window', async () => {
    const onLogin = jest.fn();
    const onResize = jest.fn();
    jest.useFakeTimers();
    const { handle, posted } = mount({ onLogin, onResize, requestTimeoutMs: 500 });
    const other = document.createElement('iframe');
    document.body.appendChild(other);

    fromPortal(handle, { action: 'ready' }, { origin: 'https://evil.example' });
    fromPortal(handle, { action: 'ready' }, { source: other.contentWindow });
    fromPortal(handle, { action: 'ready' }, { source: window });
    fromPortal(handle, { action: 'ready' }, { source: null });
    handle.send({ action: 'getUrl' });
    expect(posted).not.toHaveBeenCalled();

    fromPortal(handle, { action: 'ready' });
    const url = handle.getUrl();
    const id = sent(posted)[1].requestId;
    fromPortal(handle, { action: 'getUrl', url: 'https://evil.example/', requestId: id }, { origin: 'http://portal.example' });
    fromPortal(handle, { action: 'getUrl', url: 'https://evil.example/', requestId: id }, { source: other.contentWindow });
    fromPortal(handle, { action: 'login', profile_id: 'p1' }, { origin: 'https://portal.example.evil.example' });
    fromPortal(handle, { action: 'resize', height: 900 }, { source: other.contentWindow });
    expect(onLogin).not.toHaveBeenCalled();
    expect(onResize).not.toHaveBeenCalled();
    jest.advanceTimersByTime(500);
    await expect(url).rejects.toThrow('did not answer');
    other.remove();
  });

  it('are ignored unless an object with a known string action', async () => {
    const onMessage = jest.fn();
    const { handle } = mount({ onMessage });
    for (const data of ['ready', null, 42, [], { action: 1 }, { action: 'READY' }, { action: 'requestCustomerData' }, { type: 'ready' }]) {
      fromPortal(handle, data);
    }
    expect(onMessage).not.toHaveBeenCalled();
    let ready = false;
    void handle.ready.then(() => {
      ready = true;
    });
    await Promise.resolve();
    expect(ready).toBe(false);
    for (const action of PORTAL_ACTIONS) fromPortal(handle, { action, height: 1, url: 'u', error: 'e' });
    expect(onMessage.mock.calls.map((c) => (c[0] as PortalMessage).action)).toEqual([...PORTAL_ACTIONS]);
  });

  it('reach their callbacks', async () => {
    const calls: string[] = [];
    const options: Partial<MountOptions> = {
      onReady: () => calls.push('ready'),
      onLogin: (e) => calls.push(`login ${e.profile_id}`),
      onLogout: () => calls.push('logout'),
      onCustomerData: (d) => calls.push(`customer ${d.email} ${Object.keys(d).join(',')}`),
      onUrl: (u) => calls.push(`url ${u}`),
      onImpersonate: (e) => calls.push(`impersonate ${e.profile_id}`),
      onResize: (h) => calls.push(`resize ${h}`),
      onError: (e) => calls.push(`error ${e.error}`),
    };
    const { handle } = mount(options);
    fromPortal(handle, { action: 'ready' });
    fromPortal(handle, { action: 'login', profile_id: 'p1' });
    fromPortal(handle, { action: 'getUrl', url: 'https://portal.example/profile' });
    fromPortal(handle, { action: 'customerData', ...customer, requestId: 'r' });
    fromPortal(handle, { action: 'impersonate', profile_id: 'p2', impersonatedProfile: null });
    fromPortal(handle, { action: 'resize', height: 640 });
    fromPortal(handle, { action: 'error', error: INVALID_DATA_TYPE });
    fromPortal(handle, { action: 'logout' });
    expect(calls).toEqual([
      'ready',
      'login p1',
      'url https://portal.example/profile',
      'customer ada@example.com email,first_name,last_name,region,tier',
      'impersonate p2',
      'resize 640',
      `error ${INVALID_DATA_TYPE}`,
      'logout',
    ]);
  });

  it('a callback that throws does not stop the request from settling', async () => {
    jest.useFakeTimers();
    const { handle, posted } = await mountReady({
      onUrl: () => {
        throw new Error('partner bug');
      },
    });
    const url = handle.getUrl();
    fromPortal(handle, { action: 'getUrl', url: 'https://portal.example/', requestId: sent(posted)[0].requestId });
    await expect(url).resolves.toBe('https://portal.example/');
    expect(() => jest.runOnlyPendingTimers()).toThrow('partner bug');
  });
});

describe('resize', () => {
  it("sets the iframe's height, not below minHeight", async () => {
    const onResize = jest.fn();
    const { handle } = await mountReady({ minHeight: 300, onResize });
    expect(handle.iframe.style.height).toBe('300px');
    fromPortal(handle, { action: 'resize', height: 812.4 });
    expect(handle.iframe.style.height).toBe('813px');
    fromPortal(handle, { action: 'resize', height: 120 });
    expect(handle.iframe.style.height).toBe('300px');
    expect(onResize.mock.calls).toEqual([[812.4], [120]]);
  });

  it('ignores heights that are not numbers, and can be left to the partner', async () => {
    const { handle } = await mountReady();
    const before = handle.iframe.style.height;
    for (const height of ['900', -1, Number.NaN, Number.POSITIVE_INFINITY, null]) fromPortal(handle, { action: 'resize', height });
    expect(handle.iframe.style.height).toBe(before);

    const manual = await mountReady({ autoResize: false, minHeight: 200 });
    fromPortal(manual.handle, { action: 'resize', height: 900 });
    expect(manual.handle.iframe.style.height).toBe('200px');
  });
});

describe('timeouts', () => {
  it('reject a request the portal does not answer, queued or sent', async () => {
    jest.useFakeTimers();
    const { handle, posted } = mount({ requestTimeoutMs: 2000 });
    const data = handle.requestCustomerData();
    const out = handle.logout();
    jest.advanceTimersByTime(1999);
    fromPortal(handle, { action: 'ready' });
    const url = handle.getUrl();
    jest.advanceTimersByTime(1);
    await expect(data).rejects.toThrow('The portal did not answer requestCustomerData within 2000 ms');
    await expect(out).rejects.toThrow('did not answer logout');
    // A late answer changes nothing; the newer request still waits.
    fromPortal(handle, { action: 'customerData', ...customer, requestId: sent(posted)[0].requestId });
    fromPortal(handle, { action: 'getUrl', url: 'https://portal.example/' });
    await expect(url).resolves.toBe('https://portal.example/');
  });

  it('default to 10 seconds', async () => {
    jest.useFakeTimers();
    const { handle } = await mountReady();
    const url = handle.getUrl();
    let settled = false;
    url.catch(() => {
      settled = true;
    });
    jest.advanceTimersByTime(9999);
    await Promise.resolve();
    expect(settled).toBe(false);
    jest.advanceTimersByTime(1);
    await expect(url).rejects.toThrow('within 10000 ms');
  });
});

describe('destroy', () => {
  it('removes the iframe and the listener and rejects pending requests', async () => {
    const onLogin = jest.fn();
    const { handle, posted } = await mountReady({ onLogin });
    const frameWindow = handle.iframe.contentWindow;
    const url = handle.getUrl();
    const out = handle.logout();
    const removed = jest.spyOn(window, 'removeEventListener');
    handle.destroy();
    expect(removed).toHaveBeenCalledWith('message', expect.any(Function));
    expect(container.querySelector('iframe')).toBeNull();
    await expect(url).rejects.toThrow('unmounted');
    await expect(out).rejects.toThrow('unmounted');
    window.dispatchEvent(new MessageEvent('message', { data: { action: 'login', profile_id: 'p' }, origin: PORTAL, source: frameWindow }));
    expect(onLogin).not.toHaveBeenCalled();
    await expect(handle.requestCustomerData()).rejects.toThrow('unmounted');
    const calls = posted.mock.calls.length;
    handle.send({ action: 'getUrl' });
    expect(posted).toHaveBeenCalledTimes(calls);
    handle.destroy();
  });

  it('before ready rejects ready and drops the queue', async () => {
    const { handle, posted } = mount();
    handle.send({ action: 'getUrl' });
    handle.destroy();
    await expect(handle.ready).rejects.toThrow('unmounted');
    expect(posted).not.toHaveBeenCalled();
  });
});
