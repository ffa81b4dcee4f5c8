import { nativeActionAvailable, nativeActions, postNativeAction } from '../native';

describe('native wrapper actions', () => {
  afterEach(() => {
    delete window.ReactNativeWebView;
  });

  it('offers nothing outside the native wrapper', () => {
    expect(nativeActions()).toEqual([]);
    expect(nativeActionAvailable('gotoWishlist')).toBe(false);
    expect(nativeActionAvailable('addAppleWallet')).toBe(false);
    expect(postNativeAction('gotoWishlist')).toBe(false);
  });

  it('offers the spec’s actions inside it and posts them', () => {
    const posted: string[] = [];
    window.ReactNativeWebView = { postMessage: (m: string) => posted.push(m) };
    expect(nativeActionAvailable('gotoWishlist')).toBe(true);
    expect(nativeActionAvailable('explode')).toBe(false);
    expect(postNativeAction('gotoWishlist')).toBe(true);
    expect(postNativeAction('loadOfferList', { ids: [201, 203] })).toBe(true);
    expect(posted.map((m) => JSON.parse(m))).toEqual([{ action: 'gotoWishlist' }, { action: 'loadOfferList', ids: [201, 203] }]);
  });

  it('a wrapper that declares nothing offers every action but the platform-specific wallets', () => {
    const posted: string[] = [];
    window.ReactNativeWebView = { postMessage: (m: string) => posted.push(m) };
    expect(nativeActions()).toEqual(['loadOfferList', 'gotoShop', 'gotoWishlist', 'gotoCart', 'deleteMyAccount', 'firebaseAnalytics', 'logout']);
    expect(nativeActionAvailable('addAppleWallet')).toBe(false);
    expect(nativeActionAvailable('addGooglePay')).toBe(false);
    expect(postNativeAction('addAppleWallet', { id: 101, code: 'K7QM' })).toBe(false);
    expect(posted).toEqual([]);
  });

  it('a wrapper that declares its actions offers exactly those (spec actions only)', () => {
    const posted: string[] = [];
    window.ReactNativeWebView = { postMessage: (m: string) => posted.push(m), actions: ['addAppleWallet', 'loadOfferList', 'teleport'] };
    expect(nativeActions()).toEqual(['loadOfferList', 'addAppleWallet']);
    expect(nativeActionAvailable('addAppleWallet')).toBe(true);
    expect(nativeActionAvailable('addGooglePay')).toBe(false);
    expect(nativeActionAvailable('gotoWishlist')).toBe(false);
    expect(nativeActionAvailable('teleport')).toBe(false);
    expect(postNativeAction('gotoWishlist')).toBe(false);
    expect(postNativeAction('addAppleWallet', { id: 101, code: 'K7QM-4TXA-9PWD' })).toBe(true);
    expect(posted.map((m) => JSON.parse(m))).toEqual([{ action: 'addAppleWallet', id: 101, code: 'K7QM-4TXA-9PWD' }]);

    window.ReactNativeWebView = { postMessage: (m: string) => posted.push(m), actions: [] };
    expect(nativeActions()).toEqual([]);
  });

  it('ignores an `actions` that is not a list (treated as declaring nothing)', () => {
    window.ReactNativeWebView = { postMessage: () => undefined, actions: 'addGooglePay' as unknown as string[] };
    expect(nativeActionAvailable('addGooglePay')).toBe(false);
    expect(nativeActionAvailable('gotoShop')).toBe(true);
  });
});
