// Issue 24, "The card": on a 390 px phone, in English and in Arabic, the membership card shows the
// brand-issued member number (GET /api/profile's memberNumber, in groups of four, left to right),
// its barcode carries the digits, My Details shows it read-only, and no internal profile id
// (`prf_…`) is anywhere in the page's text or attributes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, api, newPage, signIn } from './helpers.mjs';

/** The page's text and every attribute of its elements: what a member can see or hear. */
const shown = (page) =>
  page.evaluate(() => {
    const attrs = [...document.querySelectorAll('body, body *')].flatMap((el) => [...el.attributes].map((a) => `${a.name}=${a.value}`));
    return `${document.body.innerText}\n${attrs.join('\n')}\n${document.title}`;
  });

/** Opens `path` in `lang` (a full load), the document in that language. */
async function open(page, path, lang) {
  await page.goto(`${BASE}${path}?lang=${lang}`);
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
}

test('the card and My Details show the member number, never the internal id (390 px, en and ar)', { timeout: 120_000 }, async () => {
  const page = await newPage({ width: 390, height: 844, serviceWorkers: 'block' });
  await signIn(page);
  const token = await page.evaluate(() => localStorage.getItem('portal.auth'));
  const profile = (await api(token, 'GET', '/api/profile')).body;
  assert.match(profile.memberNumber, /^[0-9]{10}$/);
  assert.match(profile.id, /^prf_/);
  const grouped = profile.memberNumber.replace(/(\d{4})(?=\d)/g, '$1 ');

  for (const lang of ['en', 'ar']) {
    await open(page, '/home', lang);
    const toggle = page.locator('button[aria-controls="member-card"]');
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    const card = page.locator('section.member-card');
    const number = card.locator('.member-card__number strong');
    await number.waitFor();
    assert.equal(await number.textContent(), grouped, `${lang}: the number in groups of four`);
    assert.equal(await number.getAttribute('dir'), 'ltr', `${lang}: digits read left to right`);
    const barcode = card.locator('svg.member-card__barcode');
    assert.equal(await barcode.getAttribute('data-value'), profile.memberNumber, `${lang}: the barcode carries the digits`);
    assert.ok((await barcode.locator('rect').count()) > 10, `${lang}: the barcode is drawn`);
    const box = await card.boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `${lang}: the card fits the phone`);
    assert.ok(!(await shown(page)).includes('prf_'), `${lang}: no internal id on Home`);

    await open(page, '/profile', lang);
    await page.locator('.member-number').waitFor();
    assert.equal(await page.locator('.member-number').textContent(), grouped, `${lang}: My Details`);
    assert.ok(!(await shown(page)).includes('prf_'), `${lang}: no internal id in My Details`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
