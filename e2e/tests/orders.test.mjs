// Issue 5, the orders tab, against the real backend: My Orders expands an order and puts an item
// on the wish list (by keyboard, at phone width); a claim that matches a store's sale is credited
// with its points, which the points balance and My Orders then show; the same receipt again is
// refused. Each page reports one screen view.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { api, newPage, recordAnalytics, signIn } from './helpers.mjs';

/** `YYYY-MM-DD` of yesterday in Australia/Melbourne (the demo tenant's zone). */
function yesterdayInMelbourne() {
  const today = new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Australia/Melbourne',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date());
  const d = new Date(`${today}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}

const tabs = (page) => page.getByRole('navigation', { name: 'Account sections' });
const subnav = (page) => page.getByRole('navigation', { name: 'My orders sections' });
const noSidewaysScroll = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

test(
  'My Orders: an order opens by keyboard and an item goes on the wish list, marked there and after a reload',
  { timeout: 120_000 },
  async () => {
    const page = await newPage({ width: 390, height: 844 });
    await page.addInitScript(recordAnalytics);
    await signIn(page);
    const token = await page.evaluate(() => localStorage.getItem('portal.auth'));
    await tabs(page).getByRole('link', { name: 'My Orders', exact: true }).click();
    await page.getByRole('heading', { name: 'My Orders', level: 1 }).waitFor();

    // The demo's Melbourne Central order (receipt MC01-100200), opened from the keyboard.
    const order = page.getByRole('button', { name: /MC01-100200/ });
    assert.equal(await order.getAttribute('aria-expanded'), 'false');
    await order.focus();
    await page.keyboard.press('Enter');
    assert.equal(await order.getAttribute('aria-expanded'), 'true');
    const panel = page.locator(`#${await order.getAttribute('aria-controls')}`);
    const shirt = panel.getByRole('listitem').filter({ hasText: 'Linen shirt' });
    await shirt.getByText('$89.90').waitFor();
    assert.ok(await noSidewaysScroll(page), 'no sideways scroll on a phone');

    const add = shirt.getByRole('button', { name: /^Add to wish list ?: Linen shirt$/ });
    await add.focus();
    const linked = page.waitForResponse((r) => /\/api\/profile\/transactions\/items\/[^/]+\/list-item$/.test(r.url()));
    await page.keyboard.press('Space');
    assert.equal((await linked).status(), 200);
    await shirt.getByText('On your wish list').waitFor();
    // The pressed button is gone: the focus is on what replaced it.
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'On your wish list');
    await page.getByText('Linen shirt is on your wish list').waitFor();
    // Inside the native app the wish list opens there.
    await panel.getByRole('button', { name: 'View wish list' }).first().click();
    assert.deepEqual(
      (await page.evaluate(() => window.__native)).filter((a) => a !== 'login'),
      ['gotoWishlist'],
    );

    // The server has it: a wishlist connection with a list holding the shirt's variant.
    const connections = (await api(token, 'GET', '/api/connections?page[size]=500')).body.data;
    const wish = connections.find((c) => c.definition.id === 'wishlist');
    assert.ok(wish, 'a wishlist connection was made');
    const lists = (await api(token, 'GET', `/api/connections/${wish.id}/lists?filter[handle]=wishlist`)).body.data;
    assert.deepEqual(
      lists[0].items.map((i) => [i.product_variant_id, i.source]),
      [['var_linen_shirt_m', 'profile-portal']],
    );

    // One screen view for the page, after the tab's click event; then the add and the wish-list button's events.
    const shown = await page.evaluate(() => window.__analytics);
    assert.deepEqual(shown.slice(shown.lastIndexOf('screen_view:Home') + 1), [
      'event:my_orders_click',
      'screen_view:My Orders',
      'event:my_orders_wishlist_add',
      'event:my_orders_goto_wishlist',
    ]);

    await page.reload();
    const again = page.getByRole('button', { name: /MC01-100200/ });
    await again.click();
    await page
      .locator(`#${await again.getAttribute('aria-controls')}`)
      .getByRole('listitem')
      .filter({ hasText: 'Linen shirt' })
      .getByText('On your wish list')
      .waitFor();
    assert.equal(await page.evaluate(() => window.__portalRuntimeInstances), 1, 'one runtime instance');
    assert.deepEqual(page.errors, []);
  },
);

test(
  'Claim Transaction: a matching claim is credited, the points and My Orders show it, the same receipt again is refused',
  { timeout: 120_000 },
  async () => {
    const page = await newPage({ width: 1280, height: 800 });
    await page.addInitScript(recordAnalytics);
    await signIn(page);
    const token = await page.evaluate(() => localStorage.getItem('portal.auth'));
    const before = (await api(token, 'GET', '/api/profile/balances')).body.data.points;
    const points = (n) => `${new Intl.NumberFormat('en-AU').format(n)} points`;

    // The points balance as Rewards shows it (its cache now holds it).
    await tabs(page).getByRole('link', { name: 'Rewards', exact: true }).click();
    await page.getByText(points(before), { exact: true }).waitFor();

    await tabs(page).getByRole('link', { name: 'My Orders', exact: true }).click();
    await page.getByRole('heading', { name: 'My Orders', level: 1 }).waitFor();
    assert.equal(await page.getByRole('button', { name: /MC01-100234/ }).count(), 0, 'not in My Orders before the claim');
    await subnav(page).getByRole('link', { name: 'Claim Transaction', exact: true }).click();
    await page.getByRole('heading', { name: 'Claim Transaction', level: 1 }).waitFor();

    await page.getByLabel('Store').selectOption('melbourne-central');
    await page.getByLabel('Date of purchase').fill(yesterdayInMelbourne());
    await page.getByLabel('Receipt number').fill('MC01-100234');
    await page.getByLabel('Amount paid').fill('59.95');
    const filed = page.waitForResponse((r) => r.url().endsWith('/api/profile/claims') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Submit claim' }).click();
    assert.equal((await filed).status(), 201);
    await page.getByRole('status').getByText('Credited: 60 points added').waitFor();
    const row = page.getByRole('listitem').filter({ hasText: 'MC01-100234' });
    await row.getByText('Credited', { exact: true }).waitFor();
    await row.getByText('$59.95').waitFor();
    assert.equal((await api(token, 'GET', '/api/profile/balances')).body.data.points, before + 60);

    // Rewards (its cached balance made stale by the claim) shows 60 more, without a reload.
    await page.evaluate(() => (window.__samePage = true));
    await tabs(page).getByRole('link', { name: 'Rewards', exact: true }).click();
    await page.getByText(points(before + 60), { exact: true }).waitFor();
    // And My Orders has the purchase, under yesterday.
    await tabs(page).getByRole('link', { name: 'My Orders', exact: true }).click();
    const claimed = page.getByRole('button', { name: /MC01-100234/ });
    await claimed.waitFor();
    assert.match(await claimed.textContent(), /Melbourne Central.*\$59\.95/);
    assert.equal(await page.evaluate(() => window.__samePage), true, 'no reload');

    // The same receipt again: refused on the receipt field (it is the member's own now), focused,
    // what was typed kept.
    await subnav(page).getByRole('link', { name: 'Claim Transaction', exact: true }).click();
    await page.getByLabel('Store').selectOption('melbourne-central');
    await page.getByLabel('Date of purchase').fill(yesterdayInMelbourne());
    await page.getByLabel('Receipt number').fill('MC01-100234');
    await page.getByLabel('Amount paid').fill('59.95');
    const refused = page.waitForResponse((r) => r.url().endsWith('/api/profile/claims') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Submit claim' }).click();
    assert.equal((await refused).status(), 409);
    await page.locator('#claim-receipt-number-error [role=alert]').getByText('This receipt is already on your account').waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'claim-receipt-number');
    assert.equal(await page.getByLabel('Receipt number').inputValue(), 'MC01-100234');
    assert.equal((await api(token, 'GET', '/api/profile/balances')).body.data.points, before + 60, 'points issued once');

    // One screen view per page shown, each after its click event; the credited claim's event.
    const shown = await page.evaluate(() => window.__analytics);
    assert.deepEqual(shown.slice(shown.lastIndexOf('screen_view:Home') + 1), [
      'event:rewards_click',
      'screen_view:Rewards',
      'event:my_orders_click',
      'screen_view:My Orders',
      'event:claim_transaction_click',
      'screen_view:Claim Transaction',
      'event:claim_transaction_submit',
      'event:rewards_click',
      'screen_view:Rewards',
      'event:my_orders_click',
      'screen_view:My Orders',
      'event:claim_transaction_click',
      'screen_view:Claim Transaction',
    ]);
    assert.deepEqual(page.errors, []);
  },
);
