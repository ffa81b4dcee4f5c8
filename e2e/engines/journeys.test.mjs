// The core journeys in one engine (ENGINE: firefox, webkit or chromium; issue 27), one browser
// for the whole file: the signed-out screens and Arabic, sign-in by code and the Logged out
// screen, sign-in by link (kept for the rest), every tab, a reward redeemed and its voucher's QR
// code, an offer activated, airline points converted, My Details edited, axe on the main routes,
// then the service worker, the install manifest and the member card offline. Each engine runs
// against its own fresh portal (e2e/engines/run.sh), so the demo member starts the same each time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, ENGINE, api, assertNoErrors, requestEmail, signInByLink, tokenOf, useEngine } from './support.mjs';
import { axeViolations } from './axe.mjs';

const engine = useEngine();
const tabs = { role: 'navigation', name: 'Account sections' };
const points = (n) => `${new Intl.NumberFormat('en-AU').format(n)} points`;
const h1 = (name) => ({ role: 'heading', level: 1, name });

test('signed out: /profile asks to log in; ?lang=ar turns the login page Arabic and right to left', async () => {
  const { page } = engine;
  await page.goto(`${BASE}/profile`);
  await page.waitFor({ role: 'heading', name: 'Please log in to continue' });
  await page.waitFor({ role: 'link', name: 'Proceed to login' });

  await page.goto(`${BASE}/?lang=ar`);
  await page.waitFor({ role: 'heading', name: 'سجّل الدخول إلى حسابك' });
  assert.deepEqual(await page.evaluate(() => [document.documentElement.dir, document.documentElement.lang]), ['rtl', 'ar']);
  // Laid out right to left (the heading inherits the page's direction).
  assert.equal(await page.evaluate(() => getComputedStyle(document.querySelector('main h1')).direction), 'rtl');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `nothing wider than the window (${overflow} px over)`);
  await page.goto(`${BASE}/?lang=en`);
  await page.waitFor({ role: 'heading', name: 'Sign in to your account' });
  assert.equal(await page.evaluate(() => document.documentElement.dir), 'ltr');
  await assertNoErrors(page, 'signed out');
});

test('sign in with an emailed code, then log out: the Logged out screen', async () => {
  const { page } = engine;
  const mail = await requestEmail(page, 'demo@example.com', 'Email me a code instead');
  const code = mail.text.match(/\b(\d{6})\b/)?.[1];
  assert.ok(code, 'the email holds a 6-digit code');
  await page.fill({ label: '6-digit code' }, code);
  await page.click({ role: 'button', name: 'Sign in' });
  await page.waitForPath('/home');
  await page.waitFor({ role: 'heading', name: 'Hello, Dana' });
  const token = await tokenOf(page);
  assert.ok(token, 'a stored session');

  await page.click({ role: 'button', name: 'Log out' });
  await page.waitFor({ role: 'heading', name: 'Logged out securely' });
  await page.waitFor({ role: 'link', name: 'Return to login' });
  assert.equal(await tokenOf(page), null);
  assert.equal((await api(token, 'GET', '/api/profile')).status, 401, 'the old token is refused');
  await assertNoErrors(page, 'code sign-in, logout');
});

test('sign in with the emailed link; every tab renders from its micro-frontend with no error', async () => {
  const { page } = engine;
  const mail = await signInByLink(page);
  assert.ok(!(await page.url()).includes('token='), 'the token left the address bar');
  assert.match(mail.link, /redirect=%2Fhome$/);
  await page.waitFor({ role: 'heading', name: 'Hello, Dana' });
  await page.waitFor({ role: 'heading', name: 'Qantas Frequent Flyer' });
  for (const [tab, heading, shows] of [
    ['My Details', 'My Details', 'demo@example.com'],
    ['My Orders', 'My Orders', 'Melbourne Central'],
    ['Rewards', 'Rewards', '$10 voucher'],
    ['Offers', 'Offers', 'Double points this weekend'],
    ['Home', null, 'Hello, Dana'],
  ]) {
    await page.click({ role: 'link', name: tab, within: tabs });
    if (heading) await page.waitFor(h1(heading));
    await page.waitFor({ text: shows });
    assert.equal(await page.count({ text: 'Something went wrong' }), 0, tab);
  }
  await assertNoErrors(page, 'the tabs');
});

test('redeem a reward; its voucher page draws the code as a QR code', async () => {
  const { page } = engine;
  const token = await tokenOf(page);
  const before = (await api(token, 'GET', '/api/profile/balances')).body.data.points;
  await page.click({ role: 'link', name: 'Rewards', within: tabs });
  await page.waitFor({ text: points(before), exact: true, within: { css: '.balance__value' } });
  const coffee = { css: 'li', hasText: 'Free coffee', within: { role: 'region', name: 'Redeem your points' } };
  await page.click({ role: 'button', name: /Redeem/, within: coffee });
  await page.click({ role: 'button', name: 'Confirm', within: { role: 'dialog', name: 'Redeem Free coffee?' } });
  const done = { role: 'dialog', name: 'Reward redeemed' };
  await page.waitFor({ text: `Your balance is now ${points(before - 300)}.`, within: done });
  const code = (await page.text({ css: '.voucher__code', within: done })).trim();
  assert.match(code, /^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  assert.equal((await api(token, 'GET', '/api/profile/balances')).body.data.points, before - 300);

  await page.click({ role: 'link', name: 'View voucher', within: done });
  await page.waitForFunction(() => /^\/rewards\/item\/\d+$/.test(location.pathname), null, { what: 'the voucher page' });
  await page.waitFor(h1('Free coffee'));
  const qr = await page.waitFor({ role: 'img', name: `QR code of voucher ${code}` });
  const drawn = await page.evaluate((sel) => {
    const el = document.querySelector(sel);
    const img = el.tagName.toLowerCase() === 'svg' ? el : (el.querySelector('svg, canvas, img') ?? el);
    const box = img.getBoundingClientRect();
    return { width: box.width, height: box.height, cells: img.querySelectorAll('rect, path').length };
  }, qr);
  assert.ok(drawn.width >= 120 && Math.abs(drawn.width - drawn.height) < 2, `a square QR code: ${JSON.stringify(drawn)}`);
  assert.ok(drawn.cells > 0, 'the QR code is drawn');
  await page.waitFor({ text: code, exact: true });
  await assertNoErrors(page, 'rewards');
});

test('activate an offer', async () => {
  const { page } = engine;
  await page.click({ role: 'link', name: 'Offers', within: tabs });
  await page.waitFor(h1('Offers'));
  const offer = { role: 'article', name: 'Double points this weekend' };
  // "Activate", and the offer's name for a screen reader.
  await page.click({ role: 'button', name: /^Activate\b/, within: offer });
  await page.waitFor({ text: 'Activated', within: { role: 'status', within: offer } });
  const token = await tokenOf(page);
  assert.equal((await api(token, 'GET', '/api/profile/benefits')).body.data.find((o) => o.id === 201).activated, true);
  await assertNoErrors(page, 'offers');
});

test('link the airline account and convert points', async () => {
  const { page } = engine;
  const token = await tokenOf(page);
  const before = (await api(token, 'GET', '/api/profile/balances')).body.data.points;
  await page.click({ role: 'link', name: 'Rewards', within: tabs });
  const qff = { role: 'region', name: 'Qantas Frequent Flyer' };
  await page.fill({ label: 'Frequent Flyer number', within: qff }, '1900123456');
  await page.click({ role: 'button', name: 'Continue', within: qff });
  await page.waitFor({ text: 'Dana Demo, 1900123456', within: qff });
  await page.click({ role: 'button', name: 'Yes, link this account', within: qff });
  const convert = { role: 'region', name: 'Convert points to Qantas Points', within: qff };
  await page.waitFor({ text: '1,000 points → 500 Qantas Points', within: convert });
  await page.click({ role: 'button', name: 'Convert', within: convert });
  await page.click({ role: 'button', name: 'Convert points', within: { role: 'dialog', name: 'Convert 1,000 points?' } });
  const receipt = { role: 'dialog', name: 'Points converted' };
  await page.waitFor({ text: `Your points balance is now ${points(before - 1000)}.`, within: receipt });
  assert.equal((await api(token, 'GET', '/api/profile/balances')).body.data.points, before - 1000);
  await page.click({ role: 'button', name: 'Close', within: receipt });
  await assertNoErrors(page, 'airline');
});

test('edit My Details: kept across a reload', async () => {
  const { page } = engine;
  await page.click({ role: 'link', name: 'My Details', within: tabs });
  await page.waitFor({ role: 'heading', level: 2, name: 'Personal details' });
  await page.fill({ label: 'First name' }, 'Danielle');
  await page.click({ role: 'button', name: 'Save changes' });
  await page.waitFor({ text: 'Your changes have been saved' });
  await page.reload();
  await page.waitFor({ text: 'Danielle Demo' });
  assert.equal(await page.evaluate((sel) => document.querySelector(sel).value, await page.waitFor({ label: 'First name' })), 'Danielle');
  await page.fill({ label: 'First name' }, 'Dana');
  await page.click({ role: 'button', name: 'Save changes' });
  await page.waitFor({ text: 'Dana Demo' });
  await assertNoErrors(page, 'My Details');
});

test('axe: no violation on the main routes', { timeout: 120_000 }, async () => {
  const { page } = engine;
  const found = [];
  for (const [path, heading] of [
    ['/home', 'Hello, Dana'],
    ['/profile', 'My Details'],
    ['/transactions', 'My Orders'],
    ['/rewards', 'Rewards'],
    ['/offers', 'Offers'],
  ]) {
    await page.goto(`${BASE}${path}`);
    await page.waitFor(h1(heading));
    found.push(...(await axeViolations(page)).map((v) => `${path}: ${v}`));
  }
  assert.deepEqual(found, [], `${ENGINE}: axe violations`);
  await assertNoErrors(page, 'axe');
});

test('the install manifest, the service worker, and the member card offline', { timeout: 120_000 }, async () => {
  const { page } = engine;
  await page.goto(`${BASE}/home`);
  await page.waitFor({ role: 'heading', name: 'Hello, Dana' });
  const manifest = await page.evaluate(async () => {
    const href = document.querySelector('link[rel="manifest"]')?.href;
    const res = await fetch(href);
    return { type: res.headers.get('content-type'), body: await res.json() };
  });
  assert.match(manifest.type, /application\/(manifest\+)?json/);
  assert.ok(manifest.body.name && manifest.body.start_url && manifest.body.icons?.length, 'an installable manifest');
  // Registered after the first load; it takes over the open page once active.
  await page.waitForFunction(
    () => navigator.serviceWorker?.controller !== null && navigator.serviceWorker?.controller !== undefined,
    null,
    {
      timeout: 30_000,
      what: 'the service worker to control the page',
    },
  );
  const token = await tokenOf(page);
  const profile = (await api(token, 'GET', '/api/profile')).body;
  const number = profile.memberNumber.replace(/(\d{4})(?=\d)/g, '$1 ');
  const balance = points((await api(token, 'GET', '/api/profile/balances')).body.data.points);
  await page.click({ role: 'button', name: 'Show my membership card' });
  const card = { role: 'region', name: 'Membership card' };
  await page.waitFor({ text: balance, within: card });

  await page.setOffline(true);
  try {
    await page.waitFor({ text: 'No internet connection' });
    // A reload without a network: the service worker answers with the shell it keeps.
    await page.reload();
    await page.waitFor({ text: 'No internet connection' });
    await page.waitFor({ text: 'Last known balance', within: card });
    await page.waitFor({ text: balance, within: card });
    await page.waitFor({ text: number, exact: true, within: card });
    const bars = await page.evaluate(
      (sel) => document.querySelector(sel).querySelectorAll('rect').length,
      await page.waitFor({ role: 'img', name: `Barcode of member number ${number}`, within: card }),
    );
    assert.ok(bars > 20, 'the barcode is drawn');
  } finally {
    await page.setOffline(false);
  }
  await page.waitFor({ text: 'No internet connection' }, { gone: true });
  await assertNoErrors(page, 'offline', { offline: true });
});
