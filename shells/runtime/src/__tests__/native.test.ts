import { NATIVE_ACTIONS } from '../bridge';
import { detectNativeBridge, nativeActionAvailable, nativeActions, postNativeAction } from '../native';
import { postToNative } from '../native-bridge';
import { onAnalytics, screenView, track, type AnalyticsEvent } from '../analytics';

// The three shapes of bridge a wrapper injects (docs/native-wrapper.md), each recording what it
// receives as parsed objects, so one expectation fits all three.
type Shape = 'react-native' | 'ios' | 'android';
const SHAPES: Shape[] = ['react-native', 'ios', 'android'];

function install(shape: Shape, win: Window = window): Record<string, unknown>[] {
  const received: Record<string, unknown>[] = [];
  if (shape === 'react-native') {
    win.ReactNativeWebView = { postMessage: (m: string) => received.push(JSON.parse(m)) };
  } else if (shape === 'ios') {
    win.webkit = {
      messageHandlers: {
        portal: {
          postMessage: (m: unknown) => {
            // WKWebView takes an object, not a string.
            expect(typeof m).toBe('object');
            received.push(m as Record<string, unknown>);
          },
        },
      },
    };
  } else {
    win.PortalAndroid = {
      postMessage: (m: string) => {
        // A @JavascriptInterface method takes a string.
        expect(typeof m).toBe('string');
        received.push(JSON.parse(m));
      },
    };
  }
  return received;
}

function uninstall(win: Window = window) {
  delete win.ReactNativeWebView;
  delete win.webkit;
  delete win.PortalAndroid;
  delete win.PortalNative;
}

afterEach(() => uninstall());

const ALL_BUT_WALLETS = ['loadOfferList', 'gotoShop', 'gotoWishlist', 'gotoCart', 'deleteMyAccount', 'firebaseAnalytics', 'logout'];

describe('detecting the wrapper’s bridge', () => {
  it('finds none in a plain browser: no actions, nothing posted', () => {
    expect(detectNativeBridge()).toBeNull();
    expect(nativeActions()).toEqual([]);
    expect(nativeActionAvailable('gotoWishlist')).toBe(false);
    expect(postNativeAction('gotoWishlist')).toBe(false);
    expect(postToNative({ action: 'logout' })).toBe(false);
  });

  it.each(SHAPES)('finds the %s shape', (shape) => {
    install(shape);
    expect(detectNativeBridge()?.kind).toBe(shape);
  });

  it('does not take a lookalike for a bridge', () => {
    window.webkit = { messageHandlers: { somethingElse: { postMessage: () => undefined } } };
    (window as unknown as Record<string, unknown>).PortalAndroid = { postMessage: 'no' };
    expect(detectNativeBridge()).toBeNull();
  });

  it('takes React Native first when a page has more than one shape', () => {
    install('android');
    install('ios');
    expect(detectNativeBridge()?.kind).toBe('ios');
    install('react-native');
    expect(detectNativeBridge()?.kind).toBe('react-native');
  });
});

describe('declared actions', () => {
  it.each(SHAPES)('%s: declaring nothing offers every action but the platform-specific wallets', (shape) => {
    install(shape);
    expect(nativeActions()).toEqual(ALL_BUT_WALLETS);
    expect(nativeActionAvailable('addAppleWallet')).toBe(false);
    expect(nativeActionAvailable('addGooglePay')).toBe(false);
    expect(nativeActionAvailable('explode')).toBe(false);
  });

  it.each(SHAPES)('%s: window.PortalNative.actions declares exactly those (spec actions only)', (shape) => {
    install(shape);
    window.PortalNative = { actions: ['addAppleWallet', 'gotoShop', 'teleport'] };
    expect(nativeActions()).toEqual(['gotoShop', 'addAppleWallet']);
    expect(nativeActionAvailable('gotoCart')).toBe(false);
    expect(nativeActionAvailable('teleport')).toBe(false);
    window.PortalNative = { actions: [] };
    expect(nativeActions()).toEqual([]);
  });

  it('React Native: ReactNativeWebView.actions declares them too; PortalNative wins over it', () => {
    window.ReactNativeWebView = { postMessage: () => undefined, actions: ['addAppleWallet', 'loadOfferList', 'teleport'] };
    expect(nativeActions()).toEqual(['loadOfferList', 'addAppleWallet']);
    window.PortalNative = { actions: ['gotoCart'] };
    expect(nativeActions()).toEqual(['gotoCart']);
  });

  it('Android: getActions() answers a JSON array; anything else declares nothing', () => {
    window.PortalAndroid = { postMessage: () => undefined, getActions: () => '["addGooglePay","deleteMyAccount"]' };
    expect(nativeActions()).toEqual(['deleteMyAccount', 'addGooglePay']);
    for (const broken of ['not json', '{"actions":[]}', '[1,2]']) {
      window.PortalAndroid = { postMessage: () => undefined, getActions: () => broken };
      expect(nativeActions()).toEqual(ALL_BUT_WALLETS);
    }
    window.PortalAndroid = {
      postMessage: () => undefined,
      getActions: () => {
        throw new Error('gone');
      },
    };
    expect(nativeActions()).toEqual(ALL_BUT_WALLETS);
  });

  it('a declaration that is not a list of strings is treated as declaring nothing', () => {
    window.ReactNativeWebView = { postMessage: () => undefined, actions: 'addGooglePay' as unknown as string[] };
    window.PortalNative = { actions: [7] as unknown as string[] };
    expect(nativeActionAvailable('addGooglePay')).toBe(false);
    expect(nativeActionAvailable('gotoShop')).toBe(true);
  });
});

describe('posting actions', () => {
  it.each(SHAPES)('%s: every spec action posts its JSON when offered', (shape) => {
    const received = install(shape);
    window.PortalNative = { actions: [...NATIVE_ACTIONS] };
    for (const action of NATIVE_ACTIONS) expect(postNativeAction(action)).toBe(true);
    expect(postNativeAction('loadOfferList', { ids: [201, 203] })).toBe(true);
    expect(postNativeAction('addAppleWallet', { id: 101, code: 'K7QM-4TXA-9PWD', action: 'spoofed' })).toBe(true);
    expect(received).toEqual([
      ...NATIVE_ACTIONS.map((action) => ({ action })),
      { action: 'loadOfferList', ids: [201, 203] },
      { action: 'addAppleWallet', id: 101, code: 'K7QM-4TXA-9PWD' },
    ]);
  });

  it.each(SHAPES)('%s: an action the wrapper does not offer is not posted', (shape) => {
    const received = install(shape);
    expect(postNativeAction('addAppleWallet', { id: 101 })).toBe(false);
    window.PortalNative = { actions: ['gotoShop'] };
    expect(postNativeAction('gotoWishlist')).toBe(false);
    expect(postNativeAction('gotoShop')).toBe(true);
    expect(received).toEqual([{ action: 'gotoShop' }]);
  });

  it.each(SHAPES)('%s: the portal’s own messages (login, logout, analytics) go whatever is declared', (shape) => {
    const received = install(shape);
    window.PortalNative = { actions: ['gotoShop'] };
    expect(postToNative({ action: 'logout' })).toBe(true);
    expect(received).toEqual([{ action: 'logout' }]);
  });

  it('a bridge that throws does not break the page', () => {
    window.ReactNativeWebView = {
      postMessage: () => {
        throw new Error('torn down');
      },
    };
    expect(postToNative({ action: 'logout' })).toBe(false);
    expect(postNativeAction('gotoShop')).toBe(false);
  });
});

describe('only the top frame talks to the wrapper', () => {
  let frame: HTMLIFrameElement;
  beforeEach(() => {
    frame = document.createElement('iframe');
    document.body.appendChild(frame);
  });
  afterEach(() => frame.remove());

  it.each(SHAPES)('%s: a framed window finds no bridge, even one the wrapper injected into every frame', (shape) => {
    const framed = frame.contentWindow!;
    expect(framed.top).toBe(window);
    install(shape, framed);
    framed.PortalNative = { actions: ['gotoShop'] };
    expect(detectNativeBridge(framed)).toBeNull();
    // The same bridge in the top window is found.
    install(shape);
    expect(detectNativeBridge(window)?.kind).toBe(shape);
  });
});

describe('analytics reach the bridge as firebaseAnalytics', () => {
  it.each(SHAPES)('%s: screen views and custom events, with the spec’s titles and prefixes', (shape) => {
    const received = install(shape);
    // Declared or not, analytics go.
    window.PortalNative = { actions: ['gotoShop'] };
    screenView('My Details');
    track('my_details_save', { fields: 'address,first_name' });
    track('offers_activate', { offer_id: 201 });
    expect(received).toEqual([
      { action: 'firebaseAnalytics', type: 'screen_view', name: 'My Details', params: {} },
      { action: 'firebaseAnalytics', type: 'event', name: 'my_details_save', params: { fields: 'address,first_name' } },
      { action: 'firebaseAnalytics', type: 'event', name: 'offers_activate', params: { offer_id: 201 } },
    ]);
  });

  it('never sends personal data in params', () => {
    const received = install('react-native');
    const seen: AnalyticsEvent[] = [];
    const off = onAnalytics((e) => seen.push(e));
    track('my_details_save', {
      email: 'demo@example.com',
      first_name: 'Dana',
      Last_Name: 'Demo',
      phone: '+61400000001',
      note: 'write to demo@example.com',
      nested: { a: 1 },
      fields: 'email,phone',
      count: 2,
      ok: true,
    });
    off();
    expect(received).toEqual([
      { action: 'firebaseAnalytics', type: 'event', name: 'my_details_save', params: { fields: 'email,phone', count: 2, ok: true } },
    ]);
    expect(seen[0].params).toEqual({ fields: 'email,phone', count: 2, ok: true });
  });
});
