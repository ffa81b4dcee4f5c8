// The pages the shell's build draws (index.html for /, app.html for every other page): what the
// gateway sends is the page itself, painted before any script has run, and the scripts then take
// over those very elements (hydration) without drawing them again, and without an error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, newPage, signIn } from './helpers.mjs';

/** Errors the page reported: uncaught ones, and console errors (React reports a failed hydration so). */
function errorsOf(page) {
  const logged = [];
  page.on('console', (m) => {
    if (m.type() === 'error') logged.push(m.text());
  });
  return () => [...page.errors.map((e) => e.message), ...logged];
}

/**
 * Opens `path` with the shell's scripts held back until the drawn page is on the screen, takes
 * hold of its elements (`selectors`), then lets the scripts run. Returns those elements' handles.
 */
async function openHoldingScripts(page, path, selectors) {
  let release;
  const held = new Promise((resolve) => (release = resolve));
  await page.route(/\/shell\/main\.[0-9a-f]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(`${BASE}${path}`, { waitUntil: 'commit' });
  const handles = {};
  for (const [name, selector] of Object.entries(selectors)) {
    handles[name] = await page.waitForSelector(selector, { state: 'attached' });
  }
  // Nothing of the shell ran yet: the page is the build's HTML.
  assert.equal(await page.evaluate(() => typeof window.__portalRuntimeInstances), 'undefined');
  release();
  return handles;
}

/** The tab named `name` in the tab bar. */
const tab = (page, name) => page.getByRole('navigation', { name: 'Account sections' }).getByRole('link', { name, exact: true });

/** Whether the element is still the one on the page under `selector`. */
const stillThere = (handle, selector) => handle.evaluate((el, s) => el.isConnected && document.querySelector(s) === el, selector);

let token;

test('the gateway sends each page drawn, under the same Content-Security-Policy, and it shows without scripts', async () => {
  for (const [path, page] of [
    ['/', 'login'],
    ['/home', 'app'],
    ['/profile', 'app'],
    ['/rewards/item/7', 'app'],
  ]) {
    const res = await fetch(`${BASE}${path}`);
    assert.equal(res.status, 200, path);
    const csp = res.headers.get('content-security-policy') ?? '';
    assert.match(csp, /script-src 'self'(;|$)/, `${path}: scripts from the portal only`);
    const html = await res.text();
    assert.match(html, new RegExp(`<div id="root" data-prerendered="${page}">`), `${path} is the ${page} page`);
    // No inline script (the policy would refuse it): every <script> has a src.
    for (const tag of html.match(/<script\b[^>]*>/g) ?? []) assert.match(tag, /\ssrc="\/shell\//, `${path}: ${tag}`);
  }

  // Without JavaScript at all, the pages are there: the login form, and the signed-in frame.
  const page = await newPage({ javaScriptEnabled: false });
  await page.goto(`${BASE}/`);
  await page.getByRole('heading', { name: 'Sign in to your account', level: 1 }).waitFor();
  await page.getByLabel('Email address').waitFor();
  await page.getByRole('button', { name: 'Email me a sign-in link' }).waitFor();
  await page.goto(`${BASE}/home`);
  const tabs = page.getByRole('navigation', { name: 'Account sections' });
  assert.deepEqual(await tabs.getByRole('link').allTextContents(), ['Home', 'My Details', 'My Orders', 'Rewards', 'Offers']);
  await page.getByRole('heading', { name: 'Welcome back', level: 1 }).waitFor();
  await page.getByRole('link', { name: /My Orders.*Your purchases and receipts/ }).waitFor();
  await page.context().close();
});

test('the login page: its form is taken over, not drawn again, and signs in', async () => {
  const page = await newPage();
  const errors = errorsOf(page);
  const drawn = await openHoldingScripts(page, '/', { form: 'form', email: '#login-email', heading: '#login-title' });
  // The shell's runtime is on the page, and everything it started has settled.
  await page.waitForFunction(() => window.__portalRuntimeInstances === 1);
  await page.waitForLoadState('networkidle');
  assert.equal(await stillThere(drawn.form, 'form'), true, 'the form is the drawn one');
  assert.equal(await stillThere(drawn.email, '#login-email'), true, 'the field is the drawn one');
  assert.equal(await stillThere(drawn.heading, 'h1'), true, 'the heading is the drawn one');
  assert.deepEqual(errors(), []);
  await page.context().close();

  const member = await newPage();
  await signIn(member);
  await member.getByRole('heading', { name: 'Hello, Dana' }).waitFor();
  token = await member.evaluate(() => localStorage.getItem('portal.auth'));
  await member.context().close();
});

/** A page with the member's session already in its storage, as a returning member opens it. */
async function signedInPage(extra = {}) {
  assert.ok(token, 'the login test signed in');
  const page = await newPage();
  await page.addInitScript(
    ([t, stored]) => {
      if (!localStorage.getItem('portal.auth')) {
        localStorage.setItem('portal.auth', t);
        for (const [k, v] of Object.entries(stored)) localStorage.setItem(k, v);
      }
    },
    [token, extra],
  );
  return page;
}

test('a member opening /home: the drawn frame and greeting are kept and filled in, without an error', async () => {
  const page = await signedInPage();
  const errors = errorsOf(page);
  const drawn = await openHoldingScripts(page, '/home', { heading: 'h1#home-title', tabs: 'nav.tabs', cards: '.card-grid' });
  await page.getByRole('heading', { name: 'Hello, Dana', level: 1 }).waitFor();
  await page.waitForLoadState('networkidle');
  assert.equal(await stillThere(drawn.heading, 'h1'), true, 'the greeting is the drawn heading');
  assert.equal(await stillThere(drawn.tabs, 'nav.tabs'), true, 'the tabs are the drawn ones');
  assert.equal(await stillThere(drawn.cards, '.card-grid'), true, 'the cards are the drawn ones');
  assert.equal(await tab(page, 'Home').getAttribute('aria-current'), 'page');
  assert.deepEqual(errors(), []);
  await page.context().close();
});

test('a member who reads Arabic: the drawn English page turns Arabic and right to left once hydrated', async () => {
  const page = await signedInPage({ 'portal.language': 'ar' });
  const errors = errorsOf(page);
  const drawn = await openHoldingScripts(page, '/home', { heading: 'h1#home-title' });
  assert.deepEqual(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir]), ['en', 'ltr']);
  await page.waitForFunction(() => document.documentElement.dir === 'rtl' && document.documentElement.lang === 'ar');
  await page.getByRole('heading', { name: 'مرحبًا، Dana', level: 1 }).waitFor();
  await page.waitForLoadState('networkidle');
  assert.equal(await stillThere(drawn.heading, 'h1'), true);
  assert.equal(await page.getByRole('navigation').first().getAttribute('aria-label'), 'أقسام الحساب');
  assert.deepEqual(errors(), []);
  await page.context().close();
});

test('another page opened directly starts from the frame and ends as itself; a visitor there is asked to log in', async () => {
  const page = await signedInPage();
  const errors = errorsOf(page);
  const drawn = await openHoldingScripts(page, '/transactions', { tabs: 'nav.tabs' });
  await page.getByRole('heading', { name: 'My Orders', level: 1 }).waitFor();
  await page.waitForLoadState('networkidle');
  assert.equal(await stillThere(drawn.tabs, 'nav.tabs'), true);
  assert.equal(await tab(page, 'My Orders').getAttribute('aria-current'), 'page');
  assert.equal(await tab(page, 'Home').getAttribute('aria-current'), null);
  assert.equal(await page.locator('h1').count(), 1, 'Home drawn at first is gone');
  assert.deepEqual(errors(), []);
  await page.context().close();

  const visitor = await newPage();
  const visitorErrors = errorsOf(visitor);
  await visitor.goto(`${BASE}/home`);
  await visitor.getByRole('heading', { name: 'Please log in to continue', level: 1 }).waitFor();
  assert.equal(await visitor.getByRole('navigation', { name: 'Account sections' }).count(), 0, 'no tabs for a visitor');
  assert.deepEqual(visitorErrors(), []);
  await visitor.context().close();
});
