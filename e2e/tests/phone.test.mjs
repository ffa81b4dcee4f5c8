// Issue 24, "On a phone": at 360 and 390 px, in English and Arabic, every tab's label is whole (the
// bar scrolls sideways where they don't all fit, and shows it with a fading edge), the current tab
// is in view after a deep link or a reload of the last tab, and every tap target of the frame (the
// header, the tabs, the sub-nav's pills, the skip link), "Back to Rewards" and a store's phone is at least
// 44 px tall (and 44 px wide, or as wide as its text). On a desktop every tab fits, without fades.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, newPage, signIn } from './helpers.mjs';

const PHONES = [
  { width: 360, height: 780 },
  { width: 390, height: 844 },
];
const TAB_PATHS = ['/home', '/profile', '/transactions', '/rewards', '/offers'];

/** Opens `path` in `lang` (a full load) and waits until the tab of `tab` is the current one. */
async function open(page, path, lang, tab = path) {
  await page.goto(`${BASE}${path}?lang=${lang}`);
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
  await page.locator(`.tabs a[aria-current="page"][href="${tab}"]`).waitFor();
  // The bar scrolls in the layout effect that follows the render: one frame is enough.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** The tab bar as the member sees it: its box, how far it scrolls, the fades, each tab's box. */
function tabBar(page) {
  return page.evaluate(() => {
    const nav = document.querySelector('nav.tabs');
    const list = nav.querySelector('ul');
    const box = list.getBoundingClientRect();
    return {
      left: box.left,
      right: box.right,
      scrolls: list.scrollWidth > list.clientWidth + 1,
      fades: [nav.hasAttribute('data-more-start'), nav.hasAttribute('data-more-end')],
      tabs: [...list.querySelectorAll('a')].map((a) => {
        const r = a.getBoundingClientRect();
        return {
          href: a.getAttribute('href'),
          text: a.textContent,
          current: a.getAttribute('aria-current') === 'page',
          left: r.left,
          right: r.right,
          // A label cut short inside its tab (ellipsis, overflow) is wider than the tab shows.
          cut: a.scrollWidth > a.clientWidth + 1,
        };
      }),
    };
  });
}

// Within a pixel: a scroll position is a whole number of pixels, the boxes are not.
const inside = (tab, bar) => tab.left >= bar.left - 1 && tab.right <= bar.right + 1;
/** The width of a fading edge (TAB_EDGE_PX in shells/portal/src/layout/tab-scroll.ts). */
const FADE = 40;
/** Inside the bar and, where an edge fades, clear of it. */
function clearOfFades(tab, bar, rtl) {
  // bar.fades is [start, end]: in right-to-left the start is on the right.
  const [left, right] = rtl ? [bar.fades[1], bar.fades[0]] : bar.fades;
  return inside(tab, bar) && (!left || tab.left >= bar.left + FADE - 1) && (!right || tab.right <= bar.right - FADE + 1);
}

/** Every link and button inside `selector` that is shown: smaller than 44 px tall or wide. */
async function smallTargets(page, selector) {
  return page.evaluate((sel) => {
    const small = [];
    for (const root of document.querySelectorAll(sel)) {
      for (const el of root.querySelectorAll('a[href], button')) {
        const r = el.getBoundingClientRect();
        if (r.width === 0 && r.height === 0) continue;
        if (getComputedStyle(el).visibility === 'hidden') continue;
        if (r.height < 44 || r.width < 44) small.push(`${sel} "${el.textContent.trim()}" ${Math.round(r.width)}×${Math.round(r.height)}`);
      }
    }
    return small;
  }, selector);
}

for (const { width, height } of PHONES) {
  for (const lang of ['en', 'ar']) {
    test(
      `the tab bar at ${width} px in ${lang}: whole labels, the current tab in view, a visible scroll`,
      { timeout: 90_000 },
      async () => {
        const page = await newPage({ width, height });
        await signIn(page);
        // A deep link to the last tab, then a reload of it: the current tab is inside the bar.
        await open(page, '/offers', lang);
        for (const reload of [false, true]) {
          if (reload) {
            await page.reload();
            await page.locator('.tabs a[aria-current="page"][href="/offers"]').waitFor();
            await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
          }
          const bar = await tabBar(page);
          const current = bar.tabs.find((t) => t.current);
          assert.equal(current.href, '/offers');
          assert.ok(
            clearOfFades(current, bar, lang === 'ar'),
            `${reload ? 'reloaded' : 'opened'} /offers: "${current.text}" ${JSON.stringify(current)} is outside the bar or under a fade ${bar.left}..${bar.right} ${bar.fades}`,
          );
        }
        // Every tab: the current one in view when its page is opened, no label cut short, and where the
        // bar scrolls, a fading edge on a side that hides tabs.
        for (const path of TAB_PATHS) {
          await open(page, path, lang);
          const bar = await tabBar(page);
          assert.deepEqual(
            bar.tabs.map((t) => t.href),
            TAB_PATHS,
          );
          const current = bar.tabs.find((t) => t.current);
          assert.equal(current.href, path);
          assert.ok(
            clearOfFades(current, bar, lang === 'ar'),
            `${path}: the current tab "${current.text}" is outside the bar or under a fade`,
          );
          for (const t of bar.tabs) assert.ok(!t.cut, `${path}: the label "${t.text}" is cut short`);
          const hidden = bar.tabs.filter((t) => !inside(t, bar));
          if (hidden.length) {
            assert.ok(bar.scrolls, `${path}: tabs outside the bar, and it doesn't scroll`);
            assert.ok(bar.fades[0] || bar.fades[1], `${path}: tabs hidden (${hidden.map((t) => t.text)}) without a fading edge`);
          } else {
            assert.deepEqual(bar.fades, [false, false], `${path}: every tab shows, yet an edge fades`);
          }
        }
        // Scrolled by the member to each tab in turn, each label shows whole inside the bar.
        const names = await page.locator('nav.tabs a').allTextContents();
        for (const [i, name] of names.entries()) {
          // The list snaps to a tab in the middle once the scroll ends: measured after that.
          await page.evaluate(async (n) => {
            document.querySelectorAll('nav.tabs a')[n].scrollIntoView({ inline: 'center', block: 'nearest' });
            await new Promise((r) => setTimeout(r, 300));
          }, i);
          const bar = await tabBar(page);
          assert.ok(inside(bar.tabs[i], bar), `"${name}" does not show whole when scrolled to`);
        }
        // The tab bar's tabs are the right-to-left way round in Arabic: Home at the right.
        await open(page, '/home', lang);
        const bar = await tabBar(page);
        const [home, next] = bar.tabs;
        if (lang === 'ar') assert.ok(home.left > next.left, 'Home is the rightmost tab in Arabic');
        else assert.ok(home.left < next.left, 'Home is the leftmost tab');
        assert.deepEqual(page.errors, []);
        await page.context().close();
      },
    );

    test(
      `tap targets at ${width} px in ${lang}: the frame, the sub-nav, Back to Rewards, a store's phone`,
      { timeout: 90_000 },
      async () => {
        const page = await newPage({ width, height });
        await signIn(page);
        const small = [];
        for (const [path, tab] of [
          ['/home', '/home'],
          ['/profile', '/profile'],
          ['/transactions', '/transactions'],
          ['/offers', '/offers'],
        ]) {
          await open(page, path, lang, tab);
          if (path !== '/home' && path !== '/offers') await page.locator('nav.subnav a').first().waitFor();
          small.push(
            ...(await smallTargets(page, 'header')),
            ...(await smallTargets(page, 'nav.tabs')),
            ...(await smallTargets(page, 'nav.subnav')),
          );
        }
        // The skip link, shown while it has the focus (the first Tab on a page).
        await page.locator('a.skip-link').focus();
        const skip = await page.locator('a.skip-link').boundingBox();
        if (skip.height < 44 || skip.width < 44) small.push(`skip link ${Math.round(skip.width)}×${Math.round(skip.height)}`);
        // "Back to Rewards" on a reward's page.
        await open(page, '/rewards', lang);
        const reward = await page.locator('a[href^="/rewards/item/"]').first().getAttribute('href');
        await open(page, reward, lang, '/rewards');
        await page.locator('.back-link a').waitFor();
        small.push(...(await smallTargets(page, '.back-link')));
        // A store's phone number.
        await page.goto(`${BASE}/loc/melbourne-central?lang=${lang}`);
        await page.locator('a[href^="tel:"]').first().waitFor();
        small.push(...(await smallTargets(page, '.store-facts')));
        assert.deepEqual(small, [], 'tap targets under 44 px');
        assert.deepEqual(page.errors, []);
        await page.context().close();
      },
    );
  }
}

for (const { width, height } of PHONES) {
  test(`the tab bar at ${width} px in all eight languages: no label cut short, the last tab in view`, { timeout: 90_000 }, async () => {
    const page = await newPage({ width, height });
    await signIn(page);
    for (const lang of ['en', 'it', 'es', 'fr', 'ar', 'de', 'el', 'th']) {
      await open(page, '/offers', lang);
      const bar = await tabBar(page);
      const current = bar.tabs.find((t) => t.current);
      assert.ok(clearOfFades(current, bar, lang === 'ar'), `${lang}: "${current.text}" is outside the bar or under a fade`);
      for (const t of bar.tabs) assert.ok(!t.cut, `${lang}: the label "${t.text}" is cut short`);
      if (bar.tabs.some((t) => !inside(t, bar))) assert.ok(bar.fades[0] || bar.fades[1], `${lang}: tabs hidden without a fading edge`);
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}

// In English: the page drawn at build time is English and left-to-right, so in Arabic the frame
// turns right-to-left once the scripts run (the drawn page's own limit, not the tab bar's).
for (const { width, height } of PHONES)
  test(`a reload of the last tab at ${width} px: the header and the tab bar do not move`, { timeout: 60_000 }, async () => {
    const page = await newPage({ width, height });
    await signIn(page);
    await open(page, '/offers', 'en');
    // Layout shifts from the first paint on (the page drawn at build time), with the elements that moved.
    await page.addInitScript(() => {
      window.__shifts = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) {
          for (const s of e.sources ?? []) {
            const n = s.node;
            const el = n && (n.nodeType === 1 ? n : n.parentElement);
            if (el && el.closest('header, nav.tabs')) window.__shifts.push(`${el.tagName}.${el.className} ${e.value.toFixed(4)}`);
          }
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.reload();
    await page.locator('.tabs a[aria-current="page"][href="/offers"]').waitFor();
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.waitForTimeout(500);
    assert.deepEqual(await page.evaluate(() => window.__shifts), [], 'the frame shifted');
    await page.context().close();
  });

test('on a desktop every tab shows, without a fading edge', async () => {
  const page = await newPage({ width: 1280, height: 800 });
  await signIn(page);
  for (const lang of ['en', 'ar', 'el']) {
    await open(page, '/offers', lang);
    const bar = await tabBar(page);
    assert.ok(!bar.scrolls, `${lang}: the bar scrolls at 1280 px`);
    assert.deepEqual(bar.fades, [false, false], `${lang}: an edge fades at 1280 px`);
    for (const t of bar.tabs) assert.ok(inside(t, bar), `${lang}: "${t.text}" is outside the bar`);
  }
  await page.context().close();
});
