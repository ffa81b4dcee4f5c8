// Screenshots of the main pages, signed in, in English and Arabic, at phone and desktop width:
//   PORTAL_URL=http://localhost:8080 node e2e/screenshots.mjs [out-dir]
import fs from 'node:fs';
import { launchChromium } from './chromium.mjs';

const BASE = process.env.PORTAL_URL ?? 'http://localhost:8080';
const out = process.argv[2] ?? '.cache/screenshots';
fs.mkdirSync(out, { recursive: true });
const browser = await launchChromium();
const pages = [
  '/',
  '/home',
  '/profile',
  '/profile/privacy',
  '/size',
  '/messaging',
  '/preference',
  '/transactions',
  '/claim-transaction',
  '/rewards',
  '/rewards/item/101',
  '/offers',
];
// Extra states of a page, each its own screenshot (`<page>-<name>.png`).
const states = {
  '/rewards': {
    // The redeem confirmation for the cheapest catalogue item (cancelled: nothing is spent).
    confirm: async (page) => {
      await page.locator('.catalogue-item .btn:not(.btn-off)').first().click();
      await page.waitForSelector('dialog[open]');
    },
  },
  '/transactions': {
    open: async (page) => {
      await page.locator('.order__toggle').first().click();
    },
  },
  '/claim-transaction': {
    errors: async (page) => {
      // Nothing filled in: the server's field errors under every field.
      await page.locator('form button[type=submit]').click();
      await page.waitForSelector('[aria-invalid="true"]');
    },
    // Files a claim (this writes to the server's data): the demo's matching sale the first time
    // (credited), a receipt no store has after that (pending); the member's claims listed below.
    filed: async (page) => {
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Melbourne' }).format(new Date());
      const yesterday = new Date(Date.parse(`${today}T12:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
      const claimed = (
        await page
          .locator('.claims')
          .textContent()
          .catch(() => '')
      ).includes('MC01-100234');
      await page.selectOption('#claim-store', 'melbourne-central');
      await page.fill('#claim-date', yesterday);
      await page.fill('#claim-receipt-number', claimed ? `SS-${Date.now() % 1_000_000}` : 'MC01-100234');
      await page.fill('#claim-amount', claimed ? '12.50' : '59.95');
      await page.locator('form button[type=submit]').click();
      await page.waitForSelector('.claim-result');
      await page.waitForLoadState('networkidle');
    },
  },
};
for (const [label, viewport] of [
  ['phone', { width: 390, height: 844 }],
  ['desktop', { width: 1280, height: 800 }],
]) {
  for (const lang of ['en', 'ar']) {
    const ctx = await browser.newContext({ viewport });
    const page = await ctx.newPage();
    await page.goto(`${BASE}/?lang=${lang}`);
    await page.screenshot({ path: `${out}/${label}-${lang}-login.png`, fullPage: true });
    const since = Date.now() - 1000;
    await page.fill('input[type=email]', 'demo@example.com');
    await page.press('input[type=email]', 'Enter');
    await page.waitForTimeout(500);
    const mail = (await (await fetch(`${BASE}/_dev/outbox.json`)).json()).find((m) => Date.parse(m.sent_at) >= since);
    await page.goto(mail.link);
    await page.screenshot({ path: `${out}/${label}-${lang}-continue.png`, fullPage: true });
    await page.getByRole('button').filter({ hasNotText: /email/i }).first().click();
    await page.waitForURL((u) => u.pathname === '/home');
    for (const p of pages.slice(1)) {
      // ?lang= each time: a session start applies the member's saved language otherwise.
      await page.goto(`${BASE}${p}?lang=${lang}`);
      await page.waitForLoadState('networkidle');
      await page.waitForTimeout(300);
      await page.screenshot({ path: `${out}/${label}-${lang}${p.replace(/\//g, '-')}.png`, fullPage: true });
      for (const [name, run] of Object.entries(states[p] ?? {})) {
        await run(page);
        await page.waitForTimeout(300);
        await page.screenshot({ path: `${out}/${label}-${lang}${p.replace(/\//g, '-')}-${name}.png`, fullPage: true });
      }
    }
    await ctx.close();
  }
  // Staff: search, then view a member's account.
  const ctx = await browser.newContext({ viewport });
  const page = await ctx.newPage();
  const since = Date.now() - 1000;
  await page.goto(`${BASE}/`);
  await page.fill('input[type=email]', 'staff@example.com');
  await page.press('input[type=email]', 'Enter');
  await page.waitForTimeout(500);
  const mail = (await (await fetch(`${BASE}/_dev/outbox.json`)).json()).find(
    (m) => m.to === 'staff@example.com' && Date.parse(m.sent_at) >= since,
  );
  await page.goto(mail.link);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((u) => u.pathname === '/home');
  await page
    .getByLabel(/^(Member )?email|Search/i)
    .first()
    .fill('other@example.com')
    .catch(() => {});
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${out}/${label}-staff-search.png`, fullPage: true });
  await ctx.close();
}
await browser.close();
console.log(`screenshots in ${out}`);
