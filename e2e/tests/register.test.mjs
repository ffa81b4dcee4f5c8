// Issue 24, the sign-in page's other two doors, in English on a desktop and in Arabic on a phone
// (390 px): "Create an account" (spec 7: POST /api/auth/create) refuses a missing name on its
// field, then creates the member and emails a sign-in link; the new member then signs in with a
// code texted to the mobile number given at registration (the tenant offers SMS:
// components.login.sms), written as dialled in Australia and kept in E.164.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, api, latestEmail, newPage } from './helpers.mjs';

const RUNS = [
  {
    name: 'English, desktop',
    lang: 'en',
    viewport: { width: 1280, height: 900 },
    t: {
      signInTitle: 'Sign in to your account',
      register: 'Create an account',
      first: 'First name',
      last: 'Last name',
      phone: 'Mobile number',
      submit: 'Create my account',
      required: 'Required',
      registered: "Your account is ready: we've emailed you a sign-in link.",
      haveAccount: 'I already have an account',
      smsInstead: 'Text me a code instead',
      smsSent: "If that address has an account with a mobile number, we've texted a 6-digit code to that number.",
      codeSubmit: 'Sign in',
      hello: 'Hello, Ada',
    },
  },
  {
    name: 'Arabic, phone',
    lang: 'ar',
    viewport: { width: 390, height: 844 },
    t: {
      signInTitle: 'سجّل الدخول إلى حسابك',
      register: 'إنشاء حساب',
      first: 'الاسم الأول',
      last: 'اسم العائلة',
      phone: 'رقم الجوال',
      submit: 'إنشاء حسابي',
      required: 'مطلوب',
      registered: 'حسابك جاهز: أرسلنا إليك رابط تسجيل الدخول بالبريد الإلكتروني.',
      haveAccount: 'لدي حساب بالفعل',
      smsInstead: 'أرسل لي رمزًا برسالة نصية',
      smsSent: 'إذا كان لهذا العنوان حساب برقم جوال، فقد أرسلنا رمزًا من 6 أرقام برسالة نصية إلى ذلك الرقم.',
      codeSubmit: 'تسجيل الدخول',
      hello: 'مرحبًا، Ada',
    },
  },
];

for (const [i, { name, lang, viewport, t }] of RUNS.entries()) {
  test(`${name}: create an account, then sign in with a code by text message`, { timeout: 120_000 }, async () => {
    const page = await newPage(viewport);
    const stamp = `${Date.now()}`.slice(-7);
    const email = `new-${lang}-${stamp}@example.com`;
    // An Australian mobile as dialled at home: 04 and eight digits, this run's own.
    const national = `04${i}${stamp}`;
    const e164 = `+61${national.slice(1)}`;
    try {
      await page.goto(`${BASE}/`);
      await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
      if (lang !== 'en') await page.getByLabel('Language').selectOption(lang);
      await page.getByRole('heading', { name: t.signInTitle }).waitFor();

      await page.getByRole('button', { name: t.register }).click();
      await page.getByRole('heading', { name: t.register }).waitFor();
      // Nothing filled in: the first missing field says so and takes the focus; nothing is sent.
      await page.getByRole('button', { name: t.submit }).click();
      await page.waitForFunction(() => document.activeElement?.id === 'register-first_name');
      assert.equal((await page.locator('#register-first_name-error').textContent()).trim(), t.required);

      const since = Date.now() - 1000;
      await page.getByLabel(t.first, { exact: true }).fill('Ada');
      await page.getByLabel(t.last, { exact: true }).fill('Lovelace');
      await page.locator('#register-email').fill(email);
      await page.getByLabel(t.phone).fill(national);
      await page.getByRole('button', { name: t.submit }).click();
      await page.getByText(t.registered).waitFor();
      const mail = await latestEmail(email, { after: since });
      assert.ok(new URL(mail.link).searchParams.get('token'), `a sign-in link in the welcome mail: ${mail.link}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.ok(overflow <= 0, `nothing wider than the screen (${overflow} px over)`);

      // Signing in by text message: the code goes to the number given, kept in E.164.
      await page.goto(`${BASE}/`);
      await page.getByRole('heading', { name: t.signInTitle }).waitFor();
      const smsSince = Date.now() - 1000;
      await page.locator('#login-email').fill(email);
      await page.getByRole('button', { name: t.smsInstead }).click();
      await page.getByText(t.smsSent).waitFor();
      const sms = await latestEmail(e164, { after: smsSince });
      assert.equal(sms.channel, 'sms');
      const code = sms.text.match(/\b(\d{6})\b/)?.[1];
      assert.ok(code, `a code in ${sms.text}`);
      await page.locator('#login-code').fill(code);
      await page.getByRole('button', { name: t.codeSubmit, exact: true }).click();
      await page.waitForURL((u) => u.pathname === '/home');
      await page.getByText(t.hello).first().waitFor();
      assert.equal(await page.evaluate(() => document.documentElement.dir), lang === 'ar' ? 'rtl' : 'ltr');
      const token = await page.evaluate(() => localStorage.getItem('portal.auth'));
      const me = (await api(token, 'GET', '/api/profile')).body;
      assert.deepEqual([me.email, me.first_name, me.last_name, me.phone], [email, 'Ada', 'Lovelace', e164]);
      assert.deepEqual(page.errors, []);
    } finally {
      await page.close();
    }
  });
}
