// Issue 24, forms and journeys, in English on a desktop and in Arabic on a phone (390 px): an
// Australian mobile written as it is dialled in Australia is kept in E.164 and a number that
// can't be Australian is refused on its field; leaving My Details with unsaved edits asks first
// (the tab bar, Escape, "Leave without saving", and the browser's question on closing); an order's
// lines are line totals that add up to its total, a return's negative; a used or expired voucher
// offers no code to copy. Back with unsaved edits asks too, and edits left when a session ends
// come back to the same member in that tab.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, api, newPage, signIn } from './helpers.mjs';

const RUNS = [
  {
    name: 'English, desktop',
    lang: 'en',
    viewport: { width: 1280, height: 900 },
    t: {
      phone: 'Mobile phone',
      save: 'Save changes',
      saved: 'Your changes have been saved',
      invalidIn: "This isn't a valid phone number in Australia",
      leaveTitle: 'Leave without saving?',
      stay: 'Stay and keep editing',
      leave: 'Leave without saving',
      firstName: 'First name',
      items: 'Items',
      total: 'Total',
      codePast: 'Voucher code, no longer valid',
      copy: 'Copy code',
    },
  },
  {
    name: 'Arabic, phone',
    lang: 'ar',
    viewport: { width: 390, height: 844 },
    t: {
      phone: 'رقم الجوال',
      save: 'حفظ التغييرات',
      saved: 'تم حفظ تغييراتك',
      invalidIn: 'هذا ليس رقم هاتف صالحًا في أستراليا',
      leaveTitle: 'هل تريد المغادرة دون حفظ؟',
      stay: 'البقاء ومتابعة التعديل',
      leave: 'المغادرة دون حفظ',
      firstName: 'الاسم الأول',
      items: 'المنتجات',
      total: 'الإجمالي',
      codePast: 'رمز القسيمة، لم يعد صالحًا',
      copy: 'نسخ الرمز',
    },
  },
];

async function open(page, path, lang) {
  await page.goto(`${BASE}${path}?lang=${lang}`);
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
}

for (const { name, lang, viewport, t } of RUNS) {
  test(
    `My Details in ${name}: a national phone number is kept in E.164, and leaving with unsaved edits asks first`,
    { timeout: 120_000 },
    async () => {
      const page = await newPage(viewport);
      await signIn(page);
      const token = await page.evaluate(() => localStorage.getItem('portal.auth'));
      const before = (await api(token, 'GET', '/api/profile')).body;
      try {
        await open(page, '/profile', lang);
        const phone = page.getByLabel(t.phone, { exact: true });
        await phone.fill('0400 123 456');
        await page.getByRole('button', { name: t.save }).click();
        await page.getByText(t.saved).first().waitFor();
        assert.equal((await api(token, 'GET', '/api/profile')).body.phone, '+61400123456');
        assert.equal(await phone.inputValue(), '+61400123456');

        // Too short for an Australian number: refused on the field, focused, nothing sent.
        await phone.fill('0400 123');
        await page.getByRole('button', { name: t.save }).click();
        await page.waitForFunction(() => document.getElementById('pf-phone')?.getAttribute('aria-invalid') === 'true');
        assert.ok((await page.locator('#pf-phone-error').textContent()).includes(t.invalidIn));
        assert.equal(await page.evaluate(() => document.activeElement?.id), 'pf-phone');
        assert.equal((await api(token, 'GET', '/api/profile')).body.phone, '+61400123456');

        // Unsaved edits: the tab bar asks first; Escape stays, with the edit kept.
        const rewardsTab = page.locator('nav.tabs a[href="/rewards"]');
        await rewardsTab.click();
        const dialog = page.getByRole('dialog', { name: t.leaveTitle });
        await dialog.waitFor();
        assert.equal(await page.evaluate(() => document.activeElement?.textContent), t.stay);
        await page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        assert.equal(new URL(page.url()).pathname, '/profile');
        assert.equal(await phone.inputValue(), '0400 123');
        assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('href')), '/rewards', 'the focus back on the tab');

        // "Stay" keeps them too; "Leave without saving" goes and nothing was saved.
        await rewardsTab.click();
        await dialog.getByRole('button', { name: t.stay }).click();
        await dialog.waitFor({ state: 'detached' });
        assert.equal(new URL(page.url()).pathname, '/profile');
        await rewardsTab.click();
        await dialog.getByRole('button', { name: t.leave }).click();
        await page.waitForURL((u) => u.pathname === '/rewards');
        assert.equal((await api(token, 'GET', '/api/profile')).body.phone, '+61400123456');

        // Closing the tab with an edit gets the browser's question (beforeunload); without, none.
        await open(page, '/profile', lang);
        const first = page.getByLabel(t.firstName, { exact: true });
        await first.click();
        await page.keyboard.type('x');
        const asked = new Promise((resolve) =>
          page.once('dialog', async (d) => {
            resolve(d.type());
            await d.dismiss();
          }),
        );
        await page.close({ runBeforeUnload: true });
        assert.equal(await asked, 'beforeunload');
      } finally {
        await api(token, 'PUT', '/api/profile', { phone: before.phone ?? '' });
        if (!page.isClosed()) await page.close();
      }
    },
  );

  test(
    `My Orders and Rewards in ${name}: lines add up to the order's total; a past voucher offers no code to copy`,
    { timeout: 120_000 },
    async () => {
      const page = await newPage(viewport);
      await signIn(page);
      await open(page, '/transactions', lang);
      // The online order: two pairs of shorts, one returned.
      await page.getByText('WEB-300917').click();
      const items = page.getByRole('list', { name: t.items }).filter({ hasText: 'Chino shorts' });
      await items.waitFor();
      const amounts = await items.locator('.order-item .amount').allTextContents();
      assert.deepEqual(amounts, ['$139.90', '-$69.95']);
      const sum = page.locator('.order__panel:visible .order__sum');
      assert.equal((await sum.textContent()).replace(/\s+/g, ''), `${t.total}$69.95`.replace(/\s+/g, ''));

      for (const id of [103, 104]) {
        await open(page, `/rewards/item/${id}`, lang);
        await page.getByRole('heading', { name: t.codePast }).waitFor();
        assert.equal(await page.getByRole('button', { name: t.copy }).count(), 0, `no copy for reward ${id}`);
        assert.equal(await page.locator('.voucher svg[role=img]').count(), 0, `no QR code for reward ${id}`);
      }
      await page.close();
    },
  );
}

test('My Details: the browser Back button asks first, and edits left when the session ended come back', { timeout: 120_000 }, async () => {
  const page = await newPage({ width: 1280, height: 900 });
  await signIn(page);
  let token = await page.evaluate(() => localStorage.getItem('portal.auth'));
  const before = (await api(token, 'GET', '/api/profile')).body;
  try {
    // Into My Details from Rewards inside the app, so Back stays in the page.
    await page.goto(`${BASE}/rewards?lang=en`);
    await page.locator('nav.tabs a[href="/profile"]').click();
    await page.waitForURL((u) => u.pathname === '/profile');
    const first = page.getByLabel('First name', { exact: true });
    await first.fill('Adaline');

    // Back asks; "Stay" keeps the address and the edit; Back again and "Leave" goes back.
    const dialog = page.getByRole('dialog', { name: 'Leave without saving?' });
    await page.evaluate(() => history.back());
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Stay and keep editing' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(new URL(page.url()).pathname, '/profile');
    assert.equal(await first.inputValue(), 'Adaline');
    await page.evaluate(() => history.back());
    await dialog.getByRole('button', { name: 'Leave without saving' }).click();
    await page.waitForURL((u) => u.pathname === '/rewards');
    assert.equal((await api(token, 'GET', '/api/profile')).body.first_name, before.first_name, 'nothing saved');

    // An edit left when the session ends (here: signed out from elsewhere) waits in this tab for
    // the same member, who is told so and can discard it.
    await page.locator('nav.tabs a[href="/profile"]').click();
    await first.fill('Adaline');
    await page.waitForFunction(() => Object.keys(sessionStorage).some((k) => k.startsWith('draft:details:')));
    await api(token, 'POST', '/api/auth/logout');
    page.once('dialog', (d) => d.accept());
    await page.reload();
    await page.waitForFunction(() => !localStorage.getItem('portal.auth'));
    await signIn(page);
    token = await page.evaluate(() => localStorage.getItem('portal.auth'));
    await page.goto(`${BASE}/profile?lang=en`);
    await page.getByText("We kept the changes you hadn't saved.").waitFor();
    assert.equal(await first.inputValue(), 'Adaline');
    await page.getByRole('button', { name: 'Discard changes' }).click();
    await page.waitForFunction(() => !Object.keys(sessionStorage).some((k) => k.startsWith('draft:')));
    assert.notEqual(await first.inputValue(), 'Adaline');
  } finally {
    if (!page.isClosed()) await page.close();
  }
});
