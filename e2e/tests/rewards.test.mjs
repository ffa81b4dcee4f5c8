// Issue 9, the rewards tab, against the real backend as demo@example.com: Rewards shows the
// balance and the points expiring next; a catalogue reward is redeemed (a double click on Confirm
// spends the points once); its voucher page draws the code as a QR code; on Offers, an offer
// activated with a double click is activated once. Each page reports one screen view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, api as call, newPage, recordAnalytics, signIn } from './helpers.mjs';

const api = async (token, path) => (await call(token, 'GET', path)).body;

const tabs = (page) => page.getByRole('navigation', { name: 'Account sections' });
const points = (n) => `${new Intl.NumberFormat('en-AU').format(n)} points`;
const noSidewaysScroll = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test(
  'Rewards: the balance and expiring points; a reward redeemed once despite a double click; its voucher as a QR code',
  { timeout: 120_000 },
  async () => {
    const page = await newPage({ width: 390, height: 844 });
    await page.addInitScript(recordAnalytics);
    await signIn(page);
    const token = await page.evaluate(() => localStorage.getItem('portal.auth'));
    const before = (await api(token, '/api/profile/balances')).data.points;
    const expiring = (await api(token, '/api/profile/points/expiring')).data[0];
    const redemptions = async () =>
      (await api(token, '/api/profile/points?per_page=100')).data.filter((e) => e.source === 'redemption').length;
    const spentBefore = await redemptions();

    await tabs(page).getByRole('link', { name: 'Rewards', exact: true }).click();
    await page.getByRole('heading', { name: 'Rewards', level: 1 }).waitFor();
    await page.locator('.balance__value').getByText(points(before), { exact: true }).waitFor();
    // "1,200 points expire on 18 Dec 2026" (the kit's date style, in the page's language).
    await page.getByText(new RegExp(`^${points(expiring.points)} expire on `)).waitFor();
    await page.getByRole('progressbar', { name: 'Progress to Platinum' }).waitFor();
    assert.ok(await noSidewaysScroll(page), 'no sideways scroll on a phone');

    // Redeem a free coffee: confirm with a double click; the points go once.
    const coffee = page.getByRole('region', { name: 'Redeem your points' }).getByRole('listitem').filter({ hasText: 'Free coffee' });
    await coffee.getByRole('button', { name: /Redeem/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Redeem Free coffee?' });
    await dialog.waitFor();
    const posts = [];
    page.on('request', (r) => r.url().endsWith('/api/profile/rewards/redeem') && posts.push(r.headers()['idempotency-key']));
    await dialog.getByRole('button', { name: 'Confirm' }).dblclick();
    const done = page.getByRole('dialog', { name: 'Reward redeemed' });
    await done.waitFor();
    const code = (await done.locator('.voucher__code').textContent()).trim();
    assert.match(code, /^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    assert.equal(posts.length, 1, 'one request');
    assert.ok(posts[0], 'with an Idempotency-Key');
    assert.equal((await api(token, '/api/profile/balances')).data.points, before - 300, 'the balance drops once');
    assert.equal(await redemptions(), spentBefore + 1, 'one ledger debit');
    await done.getByText(`Your balance is now ${points(before - 300)}.`).waitFor();

    // The voucher's own page: the code as a QR code and as text.
    await done.getByRole('link', { name: 'View voucher' }).click();
    await page.waitForURL(/\/rewards\/item\/\d+$/);
    await page.getByRole('heading', { name: 'Free coffee', level: 1 }).waitFor();
    const qr = page.getByRole('img', { name: `QR code of voucher ${code}` });
    await qr.waitFor();
    const drawn = await qr.evaluate((el) => {
      const svg = el.tagName === 'svg' ? el : el.querySelector('svg, canvas, img');
      const box = (svg ?? el).getBoundingClientRect();
      return { tag: (svg ?? el).tagName.toLowerCase(), width: box.width, height: box.height };
    });
    assert.ok(
      drawn.width >= 120 && Math.abs(drawn.width - drawn.height) < 2,
      `a square QR code big enough to scan: ${JSON.stringify(drawn)}`,
    );
    await page.getByText(code, { exact: true }).waitFor();
    await page.getByText('Available', { exact: true }).waitFor();
    // The fake wrapper declares no wallet actions, so neither button is offered.
    assert.equal(await page.getByRole('button', { name: /Apple Wallet|Google Pay/ }).count(), 0);
    const shown = await page.evaluate(() => window.__analytics);
    assert.ok(shown.includes('event:rewards_click') && shown.includes('screen_view:Rewards'), shown.join());
    assert.equal(shown.filter((s) => s === 'screen_view:Rewards Item Detail').length, 1, shown.join());

    // A mistyped link is a calm not-found page.
    await page.goto(`${BASE}/rewards/item/not-a-number`);
    await page.getByRole('heading', { name: "We couldn't find that reward", level: 1 }).waitFor();
    assert.deepEqual(page.errors, []);
  },
);

test('Offers: the overridden texts, and an offer activated twice is activated once', { timeout: 120_000 }, async () => {
  const page = await newPage({ width: 1280, height: 800 });
  await page.addInitScript(recordAnalytics);
  await signIn(page);
  const token = await page.evaluate(() => localStorage.getItem('portal.auth'));

  await tabs(page).getByRole('link', { name: 'Offers', exact: true }).click();
  await page.getByRole('heading', { name: 'Offers', level: 1 }).waitFor();
  const offer = page.getByRole('article', { name: 'Double points this weekend' });
  await offer.waitFor();
  // The desktop banner from the definition's overrides.
  await offer.getByText('Activate now and earn 2× points on everything you buy, Friday to Sunday.').waitFor();
  // Not claimable: its meta's title does not apply.
  await page.getByRole('article', { name: 'Birthday gift' }).waitFor();

  const posts = [];
  page.on('request', (r) => /\/api\/profile\/benefits\/\d+\/activate$/.test(r.url()) && posts.push(r.url()));
  await offer.getByRole('button', { name: 'Activate' }).dblclick();
  await offer.getByRole('status').getByText('Activated').waitFor();
  assert.equal(await offer.getByRole('button', { name: 'Activate' }).count(), 0);
  assert.equal(posts.length, 1, 'one request');
  const after = (await api(token, '/api/profile/benefits')).data.find((o) => o.id === 201);
  assert.equal(after.activated, true);
  const native = await page.evaluate(() => window.__native);
  assert.ok(native.includes('loadOfferList'), `loadOfferList posted to the wrapper: ${native}`);
  const shown = await page.evaluate(() => window.__analytics);
  assert.ok(shown.includes('event:offers_click') && shown.includes('screen_view:Offers'), shown.join());

  // After a reload it is still activated.
  await page.reload();
  await page.getByRole('article', { name: 'Double points this weekend' }).getByText('Activated').waitFor();
  assert.deepEqual(page.errors, []);
});
