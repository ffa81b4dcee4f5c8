// Issue 24, the wish list page against the real backend: the demo member puts a purchase on the
// wish list from My Orders (English) or finds it there already (Arabic), opens the wish list from
// My Orders' sub-nav and sees it by name; reloaded without a network it is still there
// (read-only). English and Arabic on a phone (390 px), English on a desktop. Moving and removing: wishlist-edit.test.mjs.
// With E2E_SCREENS=<dir>, the page is saved there as PNGs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { BASE, newPage, signIn } from './helpers.mjs';

const SCREENS = process.env.E2E_SCREENS;
const TEXT = {
  en: { subnav: 'My orders sections', link: 'Wish List', list: 'Wish list' },
  ar: { subnav: null, link: 'قائمة الأمنيات', list: 'قائمة الأمنيات' },
};
const noSidewaysScroll = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

for (const [lang, width, height] of [
  ['en', 390, 844],
  ['ar', 390, 844],
  ['en', 1280, 800],
]) {
  const where = width < 600 ? '' : '-desktop';
  test(`wish list (${lang}, ${width} px): a purchase added in My Orders is listed, also offline`, { timeout: 180_000 }, async () => {
    const t = TEXT[lang];
    const q = lang === 'en' ? '' : `?lang=${lang}`;
    const page = await newPage({ width, height });
    await signIn(page);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
    await page.goto(`${BASE}/transactions${q}`);
    const order = page.locator('.order__toggle').filter({ hasText: 'MC01-100200' });
    await order.click();
    const shirt = page
      .locator(`#${await order.getAttribute('aria-controls')}`)
      .getByRole('listitem')
      .filter({ hasText: 'Linen shirt' });
    // The existing flow: "Add to wish list" (already on it after an earlier run: marked so).
    const add = shirt.getByRole('button', { name: /Linen shirt$/ });
    if (await add.count()) {
      const linked = page.waitForResponse((r) => /\/list-item$/.test(r.url()));
      await add.click();
      assert.equal((await linked).status(), 200);
    }
    await page.locator('.orders-day').first().waitFor();

    // My Orders' sub-nav leads to the wish list page.
    const nav = page
      .locator('nav.subnav, nav')
      .filter({ has: page.locator('a[href="/wishlist"]') })
      .first();
    await nav.getByRole('link', { name: t.link, exact: true }).click();
    await page.waitForURL((u) => u.pathname === '/wishlist');
    await page.getByRole('heading', { level: 1, name: t.link }).waitFor();
    const wish = page.getByRole('region', { name: t.list, exact: true });
    await wish.getByRole('listitem').filter({ hasText: 'Linen shirt' }).waitFor();
    assert.ok(await noSidewaysScroll(page), 'no sideways scroll on a phone');
    assert.equal(await page.locator('html').getAttribute('dir'), lang === 'ar' ? 'rtl' : 'ltr');
    if (SCREENS) await page.screenshot({ path: path.join(SCREENS, `wishlist-${lang}${where}.png`), fullPage: true });

    // Offline: reloaded from the service worker, the lists last read, with when that was.
    await page.waitForFunction(
      () =>
        JSON.parse(localStorage.getItem('portal.ordersCache') ?? 'null')?.clientState?.queries?.some((x) => x.queryKey[0] === 'wishlists'),
      null,
      { timeout: 15_000 },
    );
    await page.context().setOffline(true);
    await page.reload();
    await page.getByRole('region', { name: t.list, exact: true }).getByRole('listitem').filter({ hasText: 'Linen shirt' }).waitFor();
    await page.locator('.offline-data__time').waitFor();
    assert.equal(await page.getByRole('alert').count(), 0);
    if (SCREENS) await page.screenshot({ path: path.join(SCREENS, `wishlist-offline-${lang}${where}.png`), fullPage: true });
    await page.context().setOffline(false);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
