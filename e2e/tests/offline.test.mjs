// Offline: after a member has used the portal once, the service worker opens it without a
// network; the spec's banner says so, the member's card (barcode, number) and last known points
// balance are there, and writes are off with their reason until the connection is back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, api, newPage, signIn } from './helpers.mjs';

const REASON = "You're offline. You can save again when you're back online.";

/** The signed-in member's session token, as the page keeps it. */
const tokenOf = (page) => page.evaluate(() => localStorage.getItem('portal.auth'));

test('offline: the banner, the card and the last balance after a reload, writes off until back online', { timeout: 120_000 }, async () => {
  const page = await newPage();
  const context = page.context();
  const fromWorker = [];
  page.on('response', (r) => {
    if (new URL(r.url()).pathname.startsWith('/api/') && r.fromServiceWorker()) fromWorker.push(r.url());
  });
  await signIn(page);
  await page.waitForURL((u) => u.pathname === '/home');
  // Registered after the first page load; it takes over the open page once it is active.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });

  const token = await tokenOf(page);
  const profile = (await api(token, 'GET', '/api/profile')).body;
  const points = (await api(token, 'GET', '/api/profile/balances')).body.data.points;
  // The brand-issued member number, in groups of four as the card shows it (issue 24).
  const number = profile.memberNumber.replace(/(\d{4})(?=\d)/g, '$1 ');
  const pointsText = `${new Intl.NumberFormat('en').format(points)} points`;

  // Online: the member shows their card once (the choice is kept).
  await page.getByRole('button', { name: 'Show my membership card' }).click();
  const card = page.getByRole('region', { name: 'Membership card' });
  await card.getByText(pointsText).waitFor();
  await card.getByText(number, { exact: true }).waitFor();
  // Rewards reads the balance too; My Details keeps the profile for later.
  await page.goto(`${BASE}/rewards`);
  await page.getByRole('heading', { name: 'Rewards', level: 1 }).waitFor();
  await page.getByText(pointsText).first().waitFor();
  await page.goto(`${BASE}/profile`);
  await page.getByRole('heading', { name: 'My Details', level: 1 }).waitFor();
  const save = page.getByRole('button', { name: 'Save changes', exact: true });
  await save.waitFor();
  assert.equal(await save.isEnabled(), true);
  await page.waitForFunction(() => localStorage.getItem('portal.profileCache') !== null);
  await page.goto(`${BASE}/home`);
  await page.getByRole('heading', { name: 'Hello, Dana' }).waitFor();

  await context.setOffline(true);
  await page.getByText('No internet connection').waitFor();
  await page.getByText("Some options may be unavailable until you're back online").waitFor();

  // A reload without a network: the service worker answers with the shell it keeps.
  const reloaded = await page.reload();
  assert.equal(reloaded.fromServiceWorker(), true, 'the page came from the service worker');
  await page.getByText('No internet connection').waitFor();
  await page.getByText("Some options may be unavailable until you're back online").waitFor();
  await card.waitFor();
  await card.getByText('Last known balance').waitFor();
  await card.getByText(pointsText).waitFor();
  await card.getByText(number, { exact: true }).waitFor();
  const barcode = card.getByRole('img', { name: `Barcode of member number ${number}` });
  await barcode.waitFor();
  assert.equal(await barcode.evaluate((el) => el.tagName.toLowerCase()), 'svg');
  assert.ok((await barcode.locator('rect').count()) > 20, 'the barcode is drawn');

  // A form offline: My Details from the profile kept in the browser; Save is off, and says why.
  await page.goto(`${BASE}/profile`);
  await page.getByRole('heading', { name: 'My Details', level: 1 }).waitFor();
  await save.waitFor();
  assert.equal(await save.isDisabled(), true, 'Save is off offline');
  await page.getByText(REASON).first().waitFor();
  const description = await save.evaluate((el) =>
    (el.getAttribute('aria-describedby') || '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
  assert.match(description, new RegExp(REASON.replace(/[.?]/g, '\\$&')));

  // Back online: the banner goes, Save is on again.
  await context.setOffline(false);
  await page.getByText('No internet connection').waitFor({ state: 'detached' });
  await page.waitForFunction(() => {
    const b = [...document.querySelectorAll('button')].find((x) => x.textContent === 'Save changes');
    return b && !b.disabled;
  });
  assert.equal(await page.getByText(REASON).count(), 0);

  assert.deepEqual(fromWorker, [], 'no API answer came from the service worker');
  assert.deepEqual(page.errors, []);
});
