import { nativeActionAvailable, postNativeAction } from '../native';

describe('native wrapper actions', () => {
  afterEach(() => {
    delete window.ReactNativeWebView;
  });

  it('offers nothing outside the native wrapper', () => {
    expect(nativeActionAvailable('gotoWishlist')).toBe(false);
    expect(postNativeAction('gotoWishlist')).toBe(false);
  });

  it('offers the spec’s actions inside it and posts them', () => {
    const posted: string[] = [];
    window.ReactNativeWebView = { postMessage: (m: string) => posted.push(m) };
    expect(nativeActionAvailable('gotoWishlist')).toBe(true);
    expect(nativeActionAvailable('explode')).toBe(false);
    expect(postNativeAction('gotoWishlist')).toBe(true);
    expect(posted.map((m) => JSON.parse(m))).toEqual([{ action: 'gotoWishlist' }]);
  });
});
