// Issue 24, "The card and Home": Home answers "how many points". The demo member signs in and
// /home shows, at the top, the balance /api/profile/balances answers, the tier and the way to the
// next one, and links to Rewards (and each voucher) and Offers; on a phone (390 px) in English and
// Arabic, and on a desktop. The summary loads after the first paint into room kept for it: the
// page's layout shifts add up to 0 while it loads. Offline, after a visit, Home shows the last known
// summary with its time. With E2E_SCREENS=<dir>, screenshots home-<lang>.png (phone) go there.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { BASE, api, newPage, signIn } from './helpers.mjs';

const SCREENS = process.env.E2E_SCREENS;
const NAME = { en: 'Your points', ar: 'نقاطك' };
const LOCALE = { en: 'en-AU', ar: 'ar-u-nu-latn' };
const BALANCE = { en: 'Points balance', ar: 'رصيد النقاط' };

/** Records every layout shift from the first paint on (window.__shifts), with what moved. */
function watchShifts() {
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.hadRecentInput) continue;
      const moved = (e.sources ?? []).map((s) => {
        const n = s.node;
        const el = n && (n.nodeType === 1 ? n : n.parentElement);
        const r = (x) => x && `${Math.round(x.x)},${Math.round(x.y)} ${Math.round(x.width)}x${Math.round(x.height)}`;
        return el ? `${el.tagName}.${el.className} ${r(s.previousRect)} -> ${r(s.currentRect)} @${Math.round(e.startTime)}` : '?';
      });
      // Whether the summary, or anything after it, moved up or down.
      const summary = (e.sources ?? []).some((x) => {
        const n = x.node;
        const el = n && (n.nodeType === 1 ? n : n.parentElement);
        const box = document.querySelector('.home-summary');
        const after = el && box && (box.contains(el) || box.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
        // Pushed up or down (the turn to right-to-left moves things sideways only).
        return Boolean(after && x.previousRect.y !== x.currentRect.y);
      });
      window.__shifts.push({ value: e.value, moved, summary });
    }
  }).observe({ type: 'layout-shift', buffered: true });
  // The largest paint on a phone: Home's heading, drawn in the HTML (nothing drawn later may be larger).
  window.__largest = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__largest.push(e.element?.tagName ?? '?');
  }).observe({ type: 'largest-contentful-paint', buffered: true });
}

const tokenOf = (page) => page.evaluate(() => localStorage.getItem('portal.auth'));

for (const { lang, width, height } of [
  { lang: 'en', width: 390, height: 844 },
  { lang: 'ar', width: 390, height: 844 },
  { lang: 'en', width: 1280, height: 800 },
])
  test(
    `Home's points summary at ${width} px in ${lang}: the balance, the tier, the links, no layout shift`,
    { timeout: 90_000 },
    async () => {
      const page = await newPage({ width, height, serviceWorkers: 'block' });
      await signIn(page);
      const token = await tokenOf(page);
      const points = (await api(token, 'GET', '/api/profile/balances')).body.data.points;

      // The language kept first, so the page loads in it from the start.
      await page.evaluate((l) => localStorage.setItem('portal.language', l), lang);
      // Off Home first, so the answers waited for below are the next page's.
      await page.goto('about:blank');
      await page.addInitScript(watchShifts);
      const progress = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/profile/tiers/progress');
      const rewards = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/profile/rewards');
      await page.goto(`${BASE}/home?lang=${lang}`);
      await page.waitForFunction((l) => document.documentElement.lang === l, lang);
      const tier = (await (await progress).json()).data;
      const ready = (await (await rewards).json()).data.filter((r) => r.status === 'available');

      const summary = page.getByRole('region', { name: NAME[lang] });
      const shown = new Intl.NumberFormat(LOCALE[lang]).format(points);
      await summary.locator('.home-summary__points').getByText(shown, { exact: true }).waitFor();
      await summary.getByText(BALANCE[lang], { exact: true }).waitFor();
      // The tier's name in the page's language (the tenant's translation, else its default).
      const tierName = tier.current.translations?.[lang]?.name ?? tier.current.name;
      await summary.getByText(tierName).first().waitFor();
      const bar = summary.getByRole('progressbar');
      assert.equal(await bar.getAttribute('aria-valuenow'), String(tier.next ? tier.progress_percent : 100));
      assert.ok((await bar.getAttribute('aria-valuetext'))?.length, 'the bar has a text alternative');

      // Links: Rewards, Offers, and each voucher ready to use (the first few).
      const hrefs = await summary.getByRole('link').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      assert.ok(hrefs.includes('/rewards'), `a link to /rewards in ${hrefs}`);
      assert.ok(hrefs.includes('/offers'), `a link to /offers in ${hrefs}`);
      for (const r of ready.slice(0, 3)) assert.ok(hrefs.includes(`/rewards/item/${r.id}`), `voucher ${r.id} linked`);

      // Drawn ahead of time, the skeleton kept the summary's room: nothing moved while it loaded. The
      // page drawn at build time is English and left-to-right, so in Arabic the header, the tabs and
      // the greeting turn right-to-left once the scripts run (the drawn page's own limit): there the
      // summary and what follows it do not move up or down.
      await page.waitForTimeout(500);
      const shifts = await page.evaluate(() => window.__shifts);
      const sum = (lang === 'en' ? shifts : shifts.filter((s) => s.summary)).reduce((n, s) => n + s.value, 0);
      assert.equal(sum, 0, `layout shifts: ${JSON.stringify(shifts)}`);

      // On a desktop the first screen's largest text is a card's (drawn in the HTML too, at 100 ms).
      if (width === 390) assert.equal((await page.evaluate(() => window.__largest)).at(-1), 'H1', 'the largest paint is the heading');

      // Every row is inside the section (one line each, nothing cut off below).
      const fits = await summary.evaluate((s) => {
        const box = s.getBoundingClientRect();
        return [...s.querySelectorAll('.home-summary__row, .home-summary__balance')].every(
          (r) => r.getBoundingClientRect().bottom <= box.bottom + 0.5,
        );
      });
      assert.ok(fits, 'a row of the summary falls outside it');
      if (SCREENS && width === 390) await page.screenshot({ path: path.join(SCREENS, `home-${lang}.png`) });

      // Each part a tap away.
      await summary.locator('a[href="/offers"]').click();
      await page.waitForURL((u) => u.pathname === '/offers');
      await page.goBack();
      await summary.locator('a[href="/rewards"]').click();
      await page.waitForURL((u) => u.pathname === '/rewards');
      assert.deepEqual(page.errors, []);
      await page.context().close();
    },
  );

test('offline, Home shows the last known summary and when it was read', { timeout: 120_000 }, async () => {
  const page = await newPage();
  await signIn(page);
  await page.waitForURL((u) => u.pathname === '/home');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
  const token = await tokenOf(page);
  const points = (await api(token, 'GET', '/api/profile/balances')).body.data.points;
  const shown = new Intl.NumberFormat('en-AU').format(points);
  const summary = page.getByRole('region', { name: 'Your points' });
  await summary.getByText(shown, { exact: true }).waitFor();
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('portal.loyaltyMember') ?? '{}').home);

  await page.context().setOffline(true);
  const reloaded = await page.reload();
  assert.equal(reloaded.fromServiceWorker(), true, 'the page came from the service worker');
  await page.getByText('No internet connection').waitFor();
  await summary.getByText(shown, { exact: true }).waitFor();
  await summary.getByText(/^Last known, \d{1,2} [A-Z][a-z]{2} \d{4}, \d{1,2}:\d{2} [ap]m$/).waitFor();
  await summary.locator('a[href="/rewards"]').waitFor();
  await page.context().setOffline(false);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
