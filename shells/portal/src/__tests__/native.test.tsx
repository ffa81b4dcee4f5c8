// Home inside a native wrapper: "Shop now" (gotoShop) only when the wrapper offers it; the Home
// screen view reaches the wrapper as firebaseAnalytics.
import { fireEvent, screen } from '@testing-library/react';
import { initAuth } from '@portal/runtime';
import { makeToken, stubFetch, type FetchStub } from '@portal/kit/fetch-stub';
import { renderAt } from './setup';

let stub: FetchStub;
let posted: Record<string, unknown>[];

beforeEach(() => {
  posted = [];
  localStorage.setItem('portal.auth', makeToken({ pid: 'p_demo', exp: Math.floor(Date.now() / 1000) + 600 }));
  initAuth();
  stub = stubFetch({ 'GET /api/profile': { body: { id: 'p_demo', email: 'd@e.x', first_name: 'Dana', last_name: 'Demo' } } });
});
afterEach(() => {
  stub.restore();
  localStorage.clear();
  delete window.ReactNativeWebView;
  delete window.webkit;
  delete window.PortalNative;
});

async function openHome() {
  renderAt('/home');
  await screen.findByRole('heading', { name: 'Hello, Dana' });
}

describe('Home inside a native wrapper', () => {
  it('has no "Shop now" in a browser', async () => {
    await openHome();
    expect(screen.queryByRole('button', { name: 'Shop now' })).toBeNull();
  });

  it('has no "Shop now" when the wrapper declares actions without gotoShop', async () => {
    window.ReactNativeWebView = { postMessage: (m: string) => posted.push(JSON.parse(m)) };
    window.PortalNative = { actions: ['gotoCart'] };
    await openHome();
    expect(screen.queryByRole('button', { name: 'Shop now' })).toBeNull();
  });

  it('"Shop now" posts gotoShop; the screen view went as firebaseAnalytics with the spec’s title', async () => {
    window.ReactNativeWebView = { postMessage: (m: string) => posted.push(JSON.parse(m)) };
    await openHome();
    fireEvent.click(screen.getByRole('button', { name: 'Shop now' }));
    expect(posted).toContainEqual({ action: 'firebaseAnalytics', type: 'screen_view', name: 'Home', params: {} });
    expect(posted.filter((m) => m.action !== 'firebaseAnalytics' && m.action !== 'login')).toEqual([{ action: 'gotoShop' }]);
    expect(posted).toContainEqual({ action: 'firebaseAnalytics', type: 'event', name: 'home_goto_shop', params: {} });
  });

  it('iOS shape: the message handler receives objects', async () => {
    window.webkit = { messageHandlers: { portal: { postMessage: (m: unknown) => posted.push(m as Record<string, unknown>) } } };
    await openHome();
    fireEvent.click(screen.getByRole('button', { name: 'Shop now' }));
    expect(posted.filter((m) => m.action === 'gotoShop')).toEqual([{ action: 'gotoShop' }]);
  });
});
