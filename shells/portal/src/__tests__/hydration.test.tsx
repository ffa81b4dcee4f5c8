// The client side of the pages drawn at build time: the shell's start (setup.ts) and startApp
// hydrate the HTML the build's renderer gives, keep its elements, report no mismatch, then draw
// the browser's own state in place (the session, the tenant's config, the stored language and
// its direction, the connection, a native wrapper's action).
import { act, fireEvent, waitFor } from '@testing-library/react';
import type { Root } from 'react-dom/client';
import { authStore, i18n, initI18n, languageReady, networkStore, SIGNED_OUT } from '@portal/runtime';
import { AUTH_KEY } from '@portal/runtime/testing';
import { makeToken, stubFetch, type FetchStub } from '@portal/kit/fetch-stub';
import { render as drawPage } from '../prerender/render';
import { setUp } from '../setup';
import { drawnPage, startApp } from '../start';
import type { DrawnPage } from '../prerender/pages';

const now = () => Math.floor(Date.now() / 1000);
const CONFIG = { general: { tenant: 'demo', siteMeta: { title: 'Demo Rewards' } }, components: {}, lastUpdated: 5 };

let stub: FetchStub;
let logged: string[];
let spies: jest.SpyInstance[];
let root: HTMLElement;
let reactRoot: Root | null = null;

/** The page as the gateway sends it: the build's markup in <div id="root" data-prerendered>. */
function serve(page: DrawnPage, markup = drawPage(page)): HTMLElement {
  root = document.createElement('div');
  root.id = 'root';
  root.dataset.prerendered = page;
  root.innerHTML = markup;
  document.body.replaceChildren(root);
  document.documentElement.lang = 'en';
  document.documentElement.dir = 'ltr';
  return root;
}

/** What bootstrap.tsx does: setUp, then startApp, the held language released once ready. */
async function start(path: string) {
  window.history.replaceState(null, '', path);
  const drawn = drawnPage(root) !== null;
  const { releaseLanguage } = await setUp(drawn);
  let ready = false;
  await act(async () => {
    reactRoot = startApp(root, () => {
      ready = true;
      void releaseLanguage?.();
    });
  });
  await waitFor(() => expect(ready).toBe(true));
}

beforeEach(async () => {
  initI18n('?lang=en');
  await languageReady();
  authStore.set({ ...SIGNED_OUT });
  networkStore.set({ online: true });
  stub = stubFetch({
    'GET /api/config/age': { body: { age: 5 } },
    'GET /api/config': { body: CONFIG },
    'GET /api/profile': { body: { id: 'p_demo', first_name: 'Dana', last_name: 'Demo', identities: [], custom_attributes: {} } },
    'GET /api/network/available': { body: { available: true } },
    'POST /api/auth': { body: { message: 'If that address has an account, a sign-in link is on its way.' } },
  });
  logged = [];
  spies = (['error', 'warn'] as const).map((level) =>
    jest.spyOn(console, level).mockImplementation((...args: unknown[]) => {
      logged.push(`${level}: ${args.map(String).join(' ')}`);
    }),
  );
});

afterEach(() => {
  act(() => reactRoot?.unmount());
  reactRoot = null;
  stub.restore();
  for (const spy of spies) spy.mockRestore();
  delete (window as { PortalNative?: unknown }).PortalNative;
  delete (window as { ReactNativeWebView?: unknown }).ReactNativeWebView;
  document.body.replaceChildren();
});

it('hydrates the login page at / without a mismatch, keeping its elements and an address typed before', async () => {
  serve('login');
  const form = root.querySelector('form')!;
  const email = root.querySelector<HTMLInputElement>('#login-email')!;
  const submit = root.querySelector<HTMLButtonElement>('button[type="submit"]')!;
  // Typed into the drawn page before its script ran; its buttons wait for the script.
  email.value = 'early@example.com';
  expect(submit).toBeDisabled();
  await start('/');
  expect(logged).toEqual([]);
  expect(root.querySelector('form')).toBe(form);
  expect(root.querySelector('#login-email')).toBe(email);
  expect(email.isConnected).toBe(true);
  await waitFor(() => expect(document.title).toBe('Sign in · Demo Rewards'));
  expect(root.querySelector('.header__title')).toHaveTextContent('Demo Rewards');
  // It is React's now: the address typed early is kept, and the form sends it.
  expect(email.value).toBe('early@example.com');
  expect(root.querySelector('button[type="submit"]')).toBe(submit);
  expect(submit).toBeEnabled();
  await act(async () => {
    fireEvent.click(submit);
  });
  await waitFor(() => expect(stub.calls.some((c) => c.method === 'POST' && c.path === '/api/auth')).toBe(true));
  expect(stub.calls.find((c) => c.path === '/api/auth')?.body).toMatchObject({ email: 'early@example.com' });
});

it('hydrates the signed-in frame, then draws the member, the config, the language, the connection and the wrapper in place', async () => {
  serve('app');
  localStorage.setItem(AUTH_KEY, makeToken({ pid: 'p_demo', exp: now() + 3600, typ: 'session' }));
  localStorage.setItem('portal.config', JSON.stringify(CONFIG));
  localStorage.setItem('portal.language', 'ar');
  (window as { PortalNative?: unknown }).PortalNative = { actions: ['gotoShop'] };
  (window as { ReactNativeWebView?: unknown }).ReactNativeWebView = { postMessage: jest.fn() };
  const heading = root.querySelector('h1')!;
  const tabs = root.querySelector('nav.tabs')!;
  const title = root.querySelector('.header__title')!;
  expect(heading).toHaveTextContent('Welcome back');
  expect(root.textContent).not.toContain('Shop now');
  // The browser went offline before the page started.
  networkStore.set({ online: false });
  const setOnline = networkStore.set;
  networkStore.set = (next) => setOnline(typeof next === 'function' ? next : { ...next, online: false });
  try {
    await start('/home');
    // The elements the build drew are the ones on the screen: nothing was drawn again.
    expect(root.querySelector('h1')).toBe(heading);
    expect(root.querySelector('nav.tabs')).toBe(tabs);
    expect(root.querySelector('.header__title')).toBe(title);
    // Then the browser's state, in place: Arabic, right to left, once its strings are in.
    await waitFor(() => expect(heading).toHaveTextContent('مرحبًا، Dana'));
    expect(i18n.language).toBe('ar');
    expect(document.documentElement.lang).toBe('ar');
    expect(document.documentElement.dir).toBe('rtl');
    expect(title).toHaveTextContent('Demo Rewards');
    expect(root.querySelector('.banner--offline')).not.toBeNull();
    // The native wrapper's "Shop now" (not in the HTML: the build has no wrapper).
    expect([...root.querySelectorAll('button')].map((b) => b.textContent)).toContain('تسوّق الآن');
    expect(authStore.get().authenticated).toBe(true);
    // The buttons drawn waiting for the script work now.
    for (const button of root.querySelectorAll('button')) expect(button).toBeEnabled();
    expect(logged).toEqual([]);
  } finally {
    networkStore.set = setOnline;
  }
});

it('a page drawn in one state and hydrated in another is caught (the checks above can fail)', async () => {
  // The login page's markup marked as the signed-in frame: what a broken build would send.
  serve('app', drawPage('login'));
  const heading = root.querySelector('h1')!;
  // React reports the mismatch as an error of the page (reportError), then draws it anew.
  const reported: string[] = [];
  const onError = (e: ErrorEvent) => {
    reported.push(String(e.error?.message ?? e.message));
    e.preventDefault();
  };
  window.addEventListener('error', onError);
  try {
    await start('/home');
  } finally {
    window.removeEventListener('error', onError);
  }
  expect([...reported, ...logged].join('\n')).toMatch(/Hydration failed because the server rendered HTML didn't match the client/);
  expect(root.querySelector('h1')).not.toBe(heading);
  expect(root.querySelector('h1')).toHaveTextContent('Please log in to continue');
});
