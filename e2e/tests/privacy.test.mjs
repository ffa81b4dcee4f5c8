// Issue 13, the privacy centre (My Details → /profile/privacy) against the real back end: a new
// member signed in on two browsers sees both, signs the other out (which the server then refuses,
// and that browser says it was signed out from another device, issue 24),
// signs out everywhere else, downloads a data file holding their email and points ledger, and
// deletes the account with an emailed code: the native app is told, the Logged out screen shows,
// the old sessions are refused, and the address signs up afresh with none of the old data.
// A member of its own (registered here), so the demo members of the other suites are untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs/promises';
import { BASE, api, latestEmail, newPage, recordAnalytics, shoot, signIn } from './helpers.mjs';

const stamp = Date.now();
const EMAIL = `privacy.${stamp}@example.com`;

/** The shop's sale nobody has claimed yet (seeded): claimed by the new member, it puts points on the ledger. */
const SALE = { store: 'chadstone', receipt_number: 'CH02-200512', amount: '120.00', daysAgo: 3 };

function daysAgoInMelbourne(days) {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Melbourne', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(Date.now() - days * 86_400_000),
  );
}

/** POST /api/auth/create (no session): `{ status, body }`. */
async function register(email) {
  const res = await fetch(`${BASE}/api/auth/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ email, first_name: 'Priya', last_name: 'Privacy', redirect: '/home' }),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** Each browser tells the server what it is: the privacy centre lists one row per device. */
const WINDOWS_CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const MAC_SAFARI = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';

const token = (page) => page.evaluate(() => localStorage.getItem('portal.auth'));
const sessionItems = (page) => page.locator('ul.sessions > li');
const section = (page, name) => page.locator('section', { has: page.getByRole('heading', { name, level: 2, exact: true }) });

/** No email to `to` arrives in the dev outbox within `ms` after `since`. */
async function noEmail(to, since, ms = 2000) {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const list = await (await fetch(`${BASE}/_dev/outbox.json`)).json();
    const m = list.find((x) => x.to === to && Date.parse(x.sent_at) >= since);
    if (m) return m;
    await new Promise((r) => setTimeout(r, 200));
  }
  return null;
}

test('the privacy centre: sessions signed out, the data downloaded, the account deleted with a code', { timeout: 180_000 }, async () => {
  const created = await register(EMAIL);
  assert.equal(created.status, 202, JSON.stringify(created.body));

  // Phone (A), with a stand-in native app, and a computer (B): the same member twice.
  const a = await newPage();
  await a.addInitScript(recordAnalytics);
  await signIn(a, EMAIL);
  const b = await newPage({ width: 1280, height: 900, userAgent: WINDOWS_CHROME });
  await signIn(b, EMAIL);
  const tokenA = await token(a);
  const tokenB = await token(b);
  assert.ok(tokenA && tokenB && tokenA !== tokenB);
  const profileId = (await api(tokenA, 'GET', '/api/profile')).body.id;

  // Points on the ledger: the member claims a purchase the shop has on record.
  const claim = await api(tokenA, 'POST', '/api/profile/claims', {
    store: SALE.store,
    date: daysAgoInMelbourne(SALE.daysAgo),
    receipt_number: SALE.receipt_number,
    amount: SALE.amount,
  });
  assert.equal(claim.status, 201, JSON.stringify(claim.body));
  assert.equal(claim.body.data.status, 'credited');

  // A reaches the privacy centre from My Details, by keyboard.
  await a.getByRole('navigation', { name: 'Account sections' }).getByRole('link', { name: 'My Details', exact: true }).click();
  await a.getByRole('heading', { name: 'Personal details', level: 2 }).waitFor();
  await a.getByRole('link', { name: 'Go to the privacy centre' }).focus();
  await a.keyboard.press('Enter');
  await a.waitForURL((u) => u.pathname === '/profile/privacy');
  await a.getByRole('heading', { name: 'Privacy centre', level: 1 }).waitFor();

  // Two devices, this one marked; no GeoIP database here, so no place.
  await a.getByRole('heading', { name: 'My sessions', level: 2 }).waitFor();
  await sessionItems(a).nth(1).waitFor();
  assert.equal(await sessionItems(a).count(), 2);
  const thisDevice = a.getByText('This device', { exact: true });
  const here = sessionItems(a).filter({ has: thisDevice });
  assert.equal(await here.count(), 1);
  assert.equal(await a.getByText('Unknown location').count(), 2);
  assert.match(await here.textContent(), /Signed in/);
  const listed = (await api(tokenA, 'GET', '/api/privacy/sessions')).body.sessions;
  assert.equal(listed.length, 2);
  assert.deepEqual(listed.map((s) => s.current).sort(), [false, true]);
  const devices = (await api(tokenA, 'GET', '/api/privacy/sessions')).body.devices;
  assert.deepEqual(
    devices.map((d) => [d.current, d.sign_ins]),
    [
      [true, 1],
      [false, 1],
    ],
    'this device first',
  );

  // A signs B out.
  const other = sessionItems(a).filter({ hasNot: thisDevice });
  await other.getByRole('button', { name: /^Sign out this device/ }).click();
  const dialog = a.getByRole('dialog', { name: 'Sign out this device?' });
  await dialog.getByRole('button', { name: 'Sign out', exact: true }).click();
  await a.getByText("You're only signed in on this device.").waitFor();
  assert.equal(await sessionItems(a).count(), 1);
  await a
    .getByText(/has been signed out$/)
    .first()
    .waitFor();
  assert.equal((await api(tokenB, 'GET', '/api/profile')).status, 401, 'the server refuses B at once');
  assert.equal((await api(tokenA, 'GET', '/api/profile')).status, 200, 'A stays signed in');

  // B finds out on its next call that another device signed it out (not that its visit expired).
  await b.getByRole('navigation', { name: 'Account sections' }).getByRole('link', { name: 'Rewards', exact: true }).click();
  await b.getByText('You were signed out from another device').first().waitFor();
  await b.getByRole('heading', { name: 'Signed out from another device' }).waitFor();
  assert.equal(await b.getByText('Your secure visit has expired. Please log in again').count(), 0);
  assert.equal(await token(b), null);

  // A third browser, then "Sign out everywhere else" from A.
  const c = await newPage({ width: 1280, height: 900, userAgent: MAC_SAFARI });
  await signIn(c, EMAIL);
  const tokenC = await token(c);
  await a.reload();
  await sessionItems(a).nth(1).waitFor();
  await a.getByRole('button', { name: 'Sign out everywhere else' }).click();
  await a.getByRole('dialog', { name: 'Sign out everywhere else?' }).getByRole('button', { name: 'Sign out everywhere else' }).click();
  await a.getByText('All your other devices have been signed out').waitFor();
  await a.getByText("You're only signed in on this device.").waitFor();
  assert.equal((await api(tokenC, 'GET', '/api/profile')).status, 401);
  assert.equal((await api(tokenA, 'GET', '/api/profile')).status, 200);

  // Download my data: a JSON file under the server's name, with the member's email and ledger.
  const downloading = a.waitForEvent('download');
  await a.getByRole('button', { name: 'Download my data' }).click();
  const download = await downloading;
  assert.match(download.suggestedFilename(), /^my-data-\d{4}-\d{2}-\d{2}\.json$/);
  await a.getByText(`Your data has been downloaded as ${download.suggestedFilename()}.`).waitFor();
  const data = JSON.parse(await fs.readFile(await download.path(), 'utf8'));
  assert.equal(data.profile_id, profileId);
  assert.equal(data.profile.email, EMAIL);
  assert.ok(Array.isArray(data.points_ledger) && data.points_ledger.length >= 1, 'the ledger has the credited claim');
  assert.match(JSON.stringify(data.points_ledger), /120/);
  assert.match(JSON.stringify(data.claims), /CH02-200512/);
  assert.ok(Array.isArray(data.sessions) && data.sessions.length >= 1);

  // Delete my account: a code by email; a wrong one is refused on its field and changes nothing.
  const del = section(a, 'Delete my account');
  const since = Date.now() - 1000;
  await del.getByRole('button', { name: 'Send me a code' }).click();
  await del.getByRole('status').filter({ hasText: "We've emailed a 6-digit code to" }).waitFor();
  const mail = await latestEmail(EMAIL, { after: since });
  const code = mail.text.match(/\b(\d{6})\b/)?.[1];
  assert.ok(code, 'the email holds a 6-digit code');
  const field = del.getByLabel('6-digit code');
  assert.equal(await a.evaluate(() => document.activeElement?.getAttribute('autocomplete')), 'one-time-code', 'the focus is on the code');
  await field.fill(code === '000000' ? '111111' : '000000');
  const refused = a.waitForResponse((r) => r.url().endsWith('/api/privacy/delete') && r.request().method() === 'POST');
  await del.getByRole('button', { name: 'Delete my account permanently' }).click();
  assert.equal((await refused).status(), 422);
  await del.getByRole('alert').filter({ hasText: 'That code is not right or has expired' }).waitFor();
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
  assert.equal((await api(tokenA, 'GET', '/api/profile')).status, 200, 'nothing deleted');
  assert.deepEqual(await a.evaluate(() => window.__native), [], 'nothing told to the app');

  // The right code: deleted, the app told, then the Logged out screen.
  await field.fill(code);
  await del.getByRole('button', { name: 'Delete my account permanently' }).click();
  await a.getByRole('heading', { name: 'Logged out securely' }).waitFor();
  assert.deepEqual(await a.evaluate(() => window.__native), ['deleteMyAccount', 'logout']);
  assert.ok((await a.evaluate(() => window.__analytics)).includes('event:my_details_delete_account'));
  assert.equal(await token(a), null);
  assert.equal((await api(tokenA, 'GET', '/api/profile')).status, 401);
  assert.equal((await api(tokenA, 'POST', '/api/privacy/delete', { code })).status, 401, 'a repeat is refused');

  // The address no longer has an account: asking for a sign-in link sends nothing.
  const asked = Date.now() - 1000;
  await a.goto(`${BASE}/`);
  await a.getByLabel('Email address').fill(EMAIL);
  await a.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await a.getByText('If that address has an account, a sign-in link is on its way.').waitFor();
  assert.equal(await noEmail(EMAIL, asked), null, 'no sign-in link for a deleted account');

  // Signing up again with it starts from nothing.
  const again = await register(EMAIL);
  assert.equal(again.status, 202, JSON.stringify(again.body));
  const d = await newPage();
  await signIn(d, EMAIL);
  const fresh = await token(d);
  const profile = (await api(fresh, 'GET', '/api/profile')).body;
  assert.notEqual(profile.id, profileId);
  assert.deepEqual((await api(fresh, 'GET', '/api/profile/claims')).body.data, []);
  assert.equal((await api(fresh, 'GET', '/api/profile/balances')).body.data.points, 0);

  for (const p of [a, b, c, d]) assert.deepEqual(p.errors, []);
  for (const p of [a, b, c, d]) await p.context().close();
});

test(
  'a phone in Arabic signed out from the desktop is told so in Arabic; the desktop lists it as one device',
  { timeout: 120_000 },
  async () => {
    const email = `devices.${stamp}@example.com`;
    assert.equal((await register(email)).status, 202);
    // The same phone signed in twice (an older session left behind): one device.
    const before = await newPage({ width: 390, height: 844 });
    await signIn(before, email);
    const phone = await newPage({ width: 390, height: 844 });
    await signIn(phone, email);
    const desktop = await newPage({ width: 1280, height: 800, userAgent: WINDOWS_CHROME });
    await signIn(desktop, email);
    await phone.goto(`${BASE}/home?lang=ar`);
    await phone.locator('html[dir="rtl"]').waitFor();

    await desktop.goto(`${BASE}/profile/privacy`);
    await sessionItems(desktop).nth(1).waitFor();
    assert.equal(await sessionItems(desktop).count(), 2, 'two devices, three sessions');
    const other = sessionItems(desktop).filter({ hasNot: desktop.getByText('This device', { exact: true }) });
    assert.match(await other.textContent(), /Sign-ins2/);
    assert.match(await other.textContent(), /Last active/);
    await other.getByRole('button', { name: /^Sign out this device/ }).click();
    await desktop.getByRole('dialog', { name: 'Sign out this device?' }).getByRole('button', { name: 'Sign out', exact: true }).click();
    await desktop.getByText("You're only signed in on this device.").waitFor();

    await phone.goto(`${BASE}/profile?lang=ar`);
    await phone.getByRole('heading', { name: 'تم تسجيل الخروج من جهاز آخر' }).waitFor();
    await phone.getByText('تم تسجيل خروجك من جهاز آخر').first().waitFor();
    await shoot(phone, 'signed-out-elsewhere-ar-390.png', { fullPage: false });
    await shoot(desktop, 'devices-en-1280.png', { fullPage: false });
    for (const p of [phone, desktop]) assert.deepEqual(p.errors, []);
    for (const p of [phone, desktop]) await p.context().close();
  },
);

test('two minutes before the idle end a warning keeps the focus on the form; Stay signed in renews', { timeout: 90_000 }, async () => {
  const email = `expiry.${stamp}@example.com`;
  assert.equal((await register(email)).status, 202);
  const page = await newPage({ width: 390, height: 844 });
  await page.clock.install();
  await signIn(page, email);
  await page.goto(`${BASE}/profile`);
  const field = page.getByLabel('First name');
  await field.waitFor();
  await field.focus();
  await page.keyboard.type(' draft');
  // The idle limit is 2 h since the last call the server accepted (less a minute's margin).
  // Every call of the page answered first: each one the server accepts starts the idle time again.
  await page.waitForLoadState('networkidle');
  await page.clock.fastForward('01:57:30');
  const warning = page.getByText('Your session ends in 2 minutes');
  await warning.waitFor();
  assert.equal(
    await page.evaluate(() => document.activeElement?.getAttribute('autocomplete') ?? document.activeElement?.tagName),
    await field.evaluate((el) => el.getAttribute('autocomplete') ?? el.tagName),
    'the focus stays in the form',
  );
  assert.match(await field.inputValue(), / draft$/);
  await shoot(page, 'session-warning-en-390.png', { fullPage: false });
  await page.getByRole('button', { name: 'Stay signed in' }).click();
  await warning.waitFor({ state: 'detached' });
  assert.match(await field.inputValue(), / draft$/, 'what was typed stays');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
