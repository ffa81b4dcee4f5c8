// The member's saved display language applies when a session starts (issue 4), unless the URL names one.
import { makeToken, stubFetch, type FetchStub } from '@portal/kit/fetch-stub';
import { authStore, chooseLanguageBeforeSignIn, i18n, initAuth, initI18n, languageReady } from '../index';
import { setSession } from '../auth';
import { SIGNED_OUT } from '../auth-store';

const now = () => Math.floor(Date.now() / 1000);
const token = (pid: string, extra: Record<string, unknown> = {}) => makeToken({ pid, exp: now() + 3600, typ: 'session', ...extra });
const profile = (language: string) => ({ id: 'p_demo', custom_attributes: { locale: { language } } });

let stub: FetchStub;

function at(url: string) {
  window.history.replaceState(null, '', url);
}

/** Lets the profile request and the language switch settle. */
async function settle() {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  await languageReady();
}

beforeEach(() => {
  at('/');
  sessionStorage.clear();
  initI18n('?lang=en');
  authStore.set({ ...SIGNED_OUT });
  initAuth();
});
afterEach(() => stub.restore());

it('applies the language saved on the profile at sign-in', async () => {
  stub = stubFetch({ 'GET /api/profile': { body: profile('ar') } });
  setSession(token('p_demo'));
  await settle();
  expect(stub.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/profile']);
  expect(i18n.language).toBe('ar');
  expect(document.documentElement.dir).toBe('rtl');
});

it('leaves the language alone when the URL names one', async () => {
  at('/home?lang=fr');
  initI18n();
  stub = stubFetch({ 'GET /api/profile': { body: profile('ar') } });
  setSession(token('p_demo'));
  await settle();
  expect(stub.calls).toHaveLength(0);
  expect(i18n.language).toBe('fr');
});

it('does it once per session start, not on a token refresh for the same member', async () => {
  stub = stubFetch({ 'GET /api/profile': { body: profile('de') } });
  setSession(token('p_demo'));
  await settle();
  expect(i18n.language).toBe('de');
  setSession(token('p_demo', { jti: 'again' }));
  await settle();
  expect(stub.calls).toHaveLength(1);
});

it('does nothing for staff or a staff member viewing an account, nor when the profile cannot be loaded', async () => {
  stub = stubFetch({ 'GET /api/profile': { body: profile('ar') } });
  setSession(token('s_1', { staff: true }));
  await settle();
  authStore.set({ ...SIGNED_OUT });
  setSession(token('p_demo', { act: { sub: 's_1' } }));
  await settle();
  expect(stub.calls).toHaveLength(0);
  stub.restore();
  authStore.set({ ...SIGNED_OUT });
  stub = stubFetch({ 'GET /api/profile': { status: 500 } });
  setSession(token('p_other'));
  await settle();
  expect(i18n.language).toBe('en');
});

it("keeps a language chosen on the sign-in page and saves it as the member's, over the saved one", async () => {
  stub = stubFetch({
    'GET /api/profile': { body: profile('en') },
    'PUT /api/profile/attributes/custom/locale:language': { body: profile('ar') },
  });
  chooseLanguageBeforeSignIn('ar');
  await languageReady();
  setSession(token('p_demo'));
  await settle();
  expect(stub.calls.map((c) => `${c.method} ${c.path}`)).toEqual(['PUT /api/profile/attributes/custom/locale:language']);
  expect(stub.calls[0].body).toEqual({ value: 'ar' });
  expect(i18n.language).toBe('ar');
  expect(document.documentElement.dir).toBe('rtl');
  // The choice is spent: the next sign-in in this tab follows the profile again.
  authStore.set({ ...SIGNED_OUT });
  setSession(token('p_demo', { jti: 'next' }));
  await settle();
  expect(stub.calls.map((c) => `${c.method} ${c.path}`).slice(1)).toEqual(['GET /api/profile']);
  expect(i18n.language).toBe('en');
});
