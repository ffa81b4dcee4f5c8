// Offline data (the till in a basement): after Rewards and My Orders were read online, a reload
// without a network shows what this device last read, with when that was, never "Something went
// wrong"; a ready-to-use voucher opens offline (its QR code drawn, its code), and a route never
// opened on this device still opens in the frame (the service worker's page and the precached
// remotes). English and Arabic on a phone (390 px), English on a desktop. With E2E_SCREENS=<dir>,
// the offline Rewards page and voucher are saved there as PNGs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { BASE, api, newPage, signIn } from './helpers.mjs';

const SCREENS = process.env.E2E_SCREENS;

/** The cache a tab keeps in localStorage holds a query named `name`. */
const cached = (page, key, name) =>
  page.waitForFunction(
    ([k, n]) => {
      try {
        return JSON.parse(localStorage.getItem(k) ?? 'null')?.clientState?.queries?.some((q) => q.queryKey[0] === n) === true;
      } catch {
        return false;
      }
    },
    [key, name],
    { timeout: 15_000 },
  );

/** A ready-to-use voucher of the member's (one is redeemed through the API when there is none). */
async function readyVoucher(token) {
  const ready = (list) => list.find((r) => r.code && r.status !== 'used' && r.status !== 'expired');
  let reward = ready((await api(token, 'GET', '/api/profile/rewards')).body.data);
  if (!reward) {
    const catalogue = (await api(token, 'GET', '/api/profile/rewards/catalogue')).body.data;
    const item = catalogue.find((i) => i.affordable);
    assert.ok(item, 'something the demo member can redeem');
    await fetch(`${BASE}/api/profile/rewards/redeem`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': crypto.randomUUID() },
      body: JSON.stringify({ catalogue_id: item.id }),
    });
    reward = ready((await api(token, 'GET', '/api/profile/rewards')).body.data);
  }
  assert.ok(reward, 'a ready-to-use voucher');
  return reward;
}

/** No "Something went wrong" box: checked after the page had time to try. */
async function noErrorBoxes(page, what) {
  await page.waitForTimeout(1500);
  assert.equal(await page.locator('.error-state, [role="alert"]').filter({ hasText: /\S/ }).count(), 0, `no error box on ${what}`);
  assert.equal(await page.getByText(/Something went wrong|An unknown error occurred/).count(), 0, `no error text on ${what}`);
}

for (const [lang, width, height] of [
  ['en', 390, 844],
  ['ar', 390, 844],
  ['en', 1280, 800],
]) {
  const where = width < 600 ? '' : '-desktop';
  test(
    `offline data (${lang}, ${width} px): the last known Rewards and My Orders, a voucher, a route never opened`,
    { timeout: 180_000 },
    async () => {
      const q = lang === 'en' ? '' : `?lang=${lang}`;
      const page = await newPage({ width, height });
      const context = page.context();
      await signIn(page);
      await page.waitForURL((u) => u.pathname === '/home');
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
      const token = await page.evaluate(() => localStorage.getItem('portal.auth'));
      const voucher = await readyVoucher(token);

      // Online: Rewards and My Orders read once (each keeps what it read).
      await page.goto(`${BASE}/rewards${q}`);
      await page.locator('.balance__value').waitFor();
      await page.locator(`a[href="/rewards/item/${voucher.id}"]`).first().waitFor();
      for (const name of ['balances', 'rewards', 'catalogue', 'points']) await cached(page, 'portal.rewardsCache', name);
      await page.goto(`${BASE}/transactions${q}`);
      await page.locator('.orders-day').first().waitFor();
      await cached(page, 'portal.ordersCache', 'transactions');

      await context.setOffline(true);
      // My Orders, reloaded without a network: the purchases, with when they were read.
      const reloaded = await page.reload();
      assert.equal(reloaded.fromServiceWorker(), true, 'the page came from the service worker');
      await page.locator('.orders-day').first().waitFor();
      await page.locator('.offline-data__time').waitFor();
      await noErrorBoxes(page, 'My Orders');

      // Rewards, opened offline: the balance, the rewards, the catalogue, with the time.
      await page.goto(`${BASE}/rewards${q}`);
      await page.locator('.balance__value').waitFor();
      const time = page.locator('.offline-data__time');
      await time.waitFor();
      if (lang === 'en') assert.match(await time.textContent(), /^Last updated /);
      else assert.match(await time.textContent(), /^آخر تحديث/);
      await page.locator(`a[href="/rewards/item/${voucher.id}"]`).first().waitFor();
      await noErrorBoxes(page, 'Rewards');
      if (SCREENS) await page.screenshot({ path: path.join(SCREENS, `rewards-offline-${lang}${where}.png`) });

      // The voucher, opened offline from the list: its QR code drawn, its code.
      await page.locator(`a[href="/rewards/item/${voucher.id}"]`).first().click();
      await page.waitForURL((u) => u.pathname === `/rewards/item/${voucher.id}`);
      const qr = page.locator('svg.voucher__qr');
      await qr.waitFor();
      assert.ok((await qr.locator('path').getAttribute('d')).length > 100, 'the QR code is drawn');
      await page.getByText(voucher.code, { exact: true }).waitFor();
      await noErrorBoxes(page, 'the voucher');
      if (SCREENS) await page.screenshot({ path: path.join(SCREENS, `voucher-offline-${lang}${where}.png`) });
      // …and by its address, reloaded.
      await page.reload();
      await qr.waitFor();
      await page.getByText(voucher.code, { exact: true }).waitFor();

      // Routes never opened on this device: the frame (tabs, banner) and the tab's page.
      for (const route of ['/profile/privacy', '/claim-transaction', '/offers']) {
        const res = await page.goto(`${BASE}${route}${q}`);
        assert.equal(res.fromServiceWorker(), true, `${route} from the service worker`);
        await page.locator('h1').first().waitFor();
        assert.ok((await page.locator('nav').count()) > 0, `${route}: the frame's navigation`);
        // Rewards' and My Orders' own pages say what they lack offline, with no error box.
        if (route !== '/profile/privacy') assert.equal(await page.getByText(/Something went wrong/).count(), 0, `${route}: no error`);
      }

      await context.setOffline(false);
      assert.deepEqual(page.errors, []);
      await context.close();
    },
  );
}
