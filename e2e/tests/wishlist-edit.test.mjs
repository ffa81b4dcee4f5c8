// Issue 24, changing the wish list against the real backend, on a phone (390 px) in English and
// Arabic: a purchase put on the wish list from My Orders, a new list made on the wish list page,
// the item moved to it and then removed; back in My Orders the purchase can be added again (the
// link from the order follows the list item). The item's name opens the product in the shop (the
// tenant's `components.connections` URL patterns). With E2E_SCREENS=<dir>, the page with both
// lists is written there (docs/screens/wishlist-en.png, wishlist-ar.png).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, newPage, shoot, signIn } from './helpers.mjs';

const TEXT = {
  en: {
    add: 'Add to wish list',
    list: 'Wish list',
    newList: 'New list',
    create: 'Create list',
    other: 'Gifts',
    moveTo: 'Move to',
    move: 'Move',
    remove: 'Remove',
  },
  ar: {
    add: 'أضف إلى قائمة الأمنيات',
    list: 'قائمة الأمنيات',
    newList: 'قائمة جديدة',
    create: 'إنشاء القائمة',
    other: 'هدايا',
    moveTo: 'نقل إلى',
    move: 'نقل',
    remove: 'إزالة',
  },
};
/** One list's card, by its heading (in Arabic the page's own title says "wish list" too). */
const listCard = (page, name) =>
  page.locator('section.wishlist').filter({ has: page.getByRole('heading', { level: 2, name, exact: true }) });
const noSidewaysScroll = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

/** The order MC01-100200 opened in My Orders, and its Canvas belt line. */
async function beltLine(page, q) {
  await page.goto(`${BASE}/transactions${q}`);
  const order = page.locator('.order__toggle').filter({ hasText: 'MC01-100200' });
  await order.click();
  return page
    .locator(`#${await order.getAttribute('aria-controls')}`)
    .getByRole('listitem')
    .filter({ hasText: 'Canvas belt' });
}

for (const lang of ['en', 'ar']) {
  test(
    `wish list (${lang}, 390 px): move an item to a new list, remove it, add it again from My Orders`,
    { timeout: 180_000 },
    async () => {
      const t = TEXT[lang];
      const q = lang === 'en' ? '' : `?lang=${lang}`;
      const page = await newPage({ width: 390, height: 844 });
      await signIn(page);
      const belt = await beltLine(page, q);
      const add = belt.getByRole('button', { name: new RegExp(`^${t.add}`) });
      await add.waitFor();
      const linked = page.waitForResponse((r) => /\/list-item$/.test(r.url()));
      await add.click();
      assert.equal((await linked).status(), 200);

      await page.goto(`${BASE}/wishlist${q}`);
      const wish = listCard(page, t.list);
      const inWish = wish.getByRole('listitem').filter({ hasText: 'Canvas belt' });
      await inWish.waitFor();
      // The product opens in the shop (a new tab).
      const link = inWish.getByRole('link', { name: /Canvas belt/ });
      assert.equal(await link.getAttribute('href'), 'https://shop.example.com/products/prd_canvas_belt');
      assert.equal(await link.getAttribute('target'), '_blank');

      // A new list to move to.
      const other = listCard(page, t.other);
      if (!(await other.count())) {
        await page.getByLabel(t.newList, { exact: true }).fill(t.other);
        await page.getByRole('button', { name: t.create, exact: true }).click();
        await other.waitFor();
      }
      const select = inWish.getByLabel(new RegExp(`^${t.moveTo}`));
      await select.selectOption({ label: t.other });
      const moved = page.waitForResponse((r) => r.url().endsWith('/move'));
      await inWish.getByRole('button', { name: new RegExp(`^${t.move}\\s*:`) }).click();
      assert.equal((await moved).status(), 200);
      const inOther = other.getByRole('listitem').filter({ hasText: 'Canvas belt' });
      await inOther.waitFor();
      assert.equal(await wish.getByRole('listitem').filter({ hasText: 'Canvas belt' }).count(), 0);
      assert.ok(await noSidewaysScroll(page), 'no sideways scroll on a phone');
      assert.equal(await page.locator('html').getAttribute('dir'), lang === 'ar' ? 'rtl' : 'ltr');
      await shoot(page, `wishlist-${lang}.png`);

      // Removed: gone from the page, also after a reload.
      const removed = page.waitForResponse((r) => r.request().method() === 'DELETE');
      await inOther.getByRole('button', { name: new RegExp(`^${t.remove}\\s*:`) }).click();
      assert.equal((await removed).status(), 204);
      await inOther.waitFor({ state: 'detached' });
      // (The page may first draw the lists it kept for offline use: wait for the server's.)
      const lists = page.waitForResponse(
        (r) => r.request().method() === 'GET' && /\/api\/connections\/[^/]+\/lists$/.test(new URL(r.url()).pathname),
      );
      await page.reload();
      await lists;
      // Nothing left on any list: the page says the wish list is empty rather than list empty lists.
      await page.locator('section.page .card').first().waitFor();
      await page.getByRole('listitem').filter({ hasText: 'Canvas belt' }).waitFor({ state: 'detached' });

      // My Orders offers it again: the order's link to the removed item is gone.
      const again = await beltLine(page, q);
      await again.getByRole('button', { name: new RegExp(`^${t.add}`) }).waitFor();
      assert.deepEqual(page.errors, []);
      await page.context().close();
    },
  );
}
