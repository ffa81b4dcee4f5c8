// Issue 24, "in every language": dates come in one style per kind across a list, and numbers keep
// their sign in right-to-left pages. As demo@example.com in Arabic on a phone (390 px): My Orders'
// day headings and times, the Rewards page's points history, and the demo's return line, which
// must read "−1 × …" (the sign before the digits), never "1- × …".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, newPage, shoot, signIn } from './helpers.mjs';

// With E2E_SCREENS=<dir>, screenshots to look at are written there.
const ARABIC = '[\\u0600-\\u06ff]+';
/** The kit's `date` style in Arabic: "24 نوفمبر 2026" (Western digits). */
const DATE = new RegExp(`\\d{1,2} ${ARABIC} \\d{4}`);
/** `weekdayDate`: "الثلاثاء، 24 نوفمبر 2026". */
const WEEKDAY_DATE = new RegExp(`^${ARABIC}، ${DATE.source}$`);
/** `time`: "6:17 م". */
const TIME = /^\d{1,2}:\d{2} [صم]$/;

/** Where a signed number's sign and first digit are drawn: the sign must be left of the digit. */
function signBeforeDigits(bdi) {
  return bdi.evaluate((el) => {
    const text = el.firstChild;
    const rect = (i) => {
      const r = document.createRange();
      r.setStart(text, i);
      r.setEnd(text, i + 1);
      return r.getBoundingClientRect();
    };
    return { text: el.textContent, sign: rect(0).left, digit: rect(1).left };
  });
}

async function arabicPage() {
  const page = await newPage({ width: 390, height: 844 });
  await signIn(page);
  await page.goto(`${BASE}/home?lang=ar`);
  await page.waitForFunction(() => document.documentElement.dir === 'rtl' && document.documentElement.lang === 'ar');
  return page;
}

test('My Orders in Arabic: one date style down the list, and a return reads "−1 ×"', { timeout: 120_000 }, async () => {
  const page = await arabicPage();
  await page.goto(`${BASE}/transactions`);
  await page.getByRole('heading', { name: 'طلباتي', level: 1 }).waitFor();
  const headings = page.locator('main h2');
  await headings.first().waitFor();
  const days = await headings.allTextContents();
  assert.ok(days.length >= 3, `several days: ${days.join(' | ')}`);
  for (const day of days) assert.match(day, WEEKDAY_DATE, `a day heading in the weekdayDate style: ${days.join(' | ')}`);
  const times = await page.locator('.order__meta > span:first-child').allTextContents();
  assert.ok(times.length >= days.length);
  for (const time of times) assert.match(time, TIME, `an order's time in the time style: ${times.join(' | ')}`);

  // The demo's online order has a return line: quantity −1.
  await page.getByRole('button', { name: /WEB-300917/ }).click();
  const quantity = page.locator('.order-item__name bdi[dir="ltr"]').filter({ hasText: '\u22121' });
  await quantity.waitFor();
  const line = quantity.locator('xpath=ancestor::li[1]');
  assert.match(await line.locator('.order-item__name').textContent(), /Chino shorts × \u22121$/);
  const drawn = await signBeforeDigits(quantity);
  assert.equal(drawn.text, '\u22121');
  assert.ok(drawn.sign < drawn.digit, `the minus is drawn before (left of) the 1: ${JSON.stringify(drawn)}`);
  // Right to left: the name on the right, the quantity on its left.
  const nameBox = await line.locator('.order-item__name bdi').first().boundingBox();
  const quantityBox = await quantity.boundingBox();
  assert.ok(quantityBox.x + quantityBox.width <= nameBox.x + 1, 'the quantity left of the name');
  await shoot(page, 'formats-orders-ar-390.png');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Rewards in Arabic: the points history in one date style, the points with their sign', { timeout: 120_000 }, async () => {
  const page = await arabicPage();
  await page.goto(`${BASE}/rewards`);
  const entries = page.locator('.ledger__entry');
  await entries.first().waitFor();
  const metas = await page.locator('.ledger__meta').evaluateAll((els) => els.map((el) => [...el.children].map((c) => c.textContent)));
  assert.ok(metas.length >= 2, `several entries: ${JSON.stringify(metas)}`);
  for (const [issued, expires] of metas) {
    assert.match(issued, new RegExp(`^${DATE.source}$`), `an entry's date in the date style: ${JSON.stringify(metas)}`);
    if (expires) assert.match(expires, DATE, `its expiry in the same style: ${expires}`);
  }
  // Expiring next: the same style, with its year.
  const expiring = await page.locator('.expiring__list li').allTextContents();
  for (const line of expiring) assert.match(line, DATE, `an expiry in the date style: ${line}`);

  const signed = page.locator('.ledger__points bdi[dir="ltr"]');
  const shown = await signed.allTextContents();
  assert.ok(shown.length >= 2);
  for (const s of shown) assert.match(s, /^(?:[+\u2212]\d[\d,]*|0)$/, `a signed number: ${shown.join(' | ')}`);
  const drawn = await signBeforeDigits(signed.first());
  assert.ok(drawn.sign < drawn.digit, `the sign is drawn before (left of) the digits: ${JSON.stringify(drawn)}`);
  await shoot(page.locator('.ledger').first(), 'formats-history-ar-390.png');
  await shoot(page.locator('.expiring'), 'formats-expiring-ar-390.png');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('The same pages in English on a desktop: the same styles', { timeout: 120_000 }, async () => {
  const page = await newPage({ width: 1280, height: 800 });
  await signIn(page);
  await page.goto(`${BASE}/transactions?lang=en`);
  await page.getByRole('heading', { name: 'My Orders', level: 1 }).waitFor();
  await page.locator('main h2').first().waitFor();
  // "Tuesday 24 Nov 2026", "4:48 pm".
  for (const day of await page.locator('main h2').allTextContents()) assert.match(day, /^[A-Z][a-z]+day \d{1,2} [A-Z][a-z]{2,3} \d{4}$/);
  for (const time of await page.locator('.order__meta > span:first-child').allTextContents()) assert.match(time, /^\d{1,2}:\d{2}\s[ap]m$/);
  await page.getByRole('button', { name: /WEB-300917/ }).click();
  await page
    .locator('.order-item__name')
    .filter({ hasText: /× \u22121$/ })
    .waitFor();
  await shoot(page, 'formats-orders-en-1280.png');

  await page.goto(`${BASE}/rewards`);
  await page.locator('.ledger__entry').first().waitFor();
  for (const issued of await page.locator('.ledger__meta > span:first-child').allTextContents()) {
    assert.match(issued, /^\d{1,2} [A-Z][a-z]{2,3} \d{4}$/);
  }
  for (const line of await page.locator('.expiring__list li').allTextContents()) assert.match(line, / on \d{1,2} [A-Z][a-z]{2,3} \d{4}$/);
  await shoot(page.locator('.ledger').first(), 'formats-history-en-1280.png');
  await shoot(page.locator('.expiring'), 'formats-expiring-en-1280.png');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
