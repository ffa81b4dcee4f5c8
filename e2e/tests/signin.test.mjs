import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, api, latestEmail, newPage, signIn } from './helpers.mjs';

test('a member signs in with an emailed link, lands on /home and sees My Details from mfe-profile', async () => {
  const page = await newPage();
  const mail = await signIn(page);
  assert.match(mail.link, /^http:\/\/localhost:\d+\/\?token=[^&]+&redirect=%2Fhome$/);
  await page.waitForURL((u) => u.pathname === '/home');
  assert.ok(!page.url().includes('token='), 'the token is stripped from the address bar');
  await page.getByRole('heading', { name: 'Hello, Dana' }).waitFor();

  await page.getByRole('link', { name: 'My Details' }).first().click();
  await page.waitForURL((u) => u.pathname === '/profile');
  await page.getByRole('heading', { name: 'My Details', level: 1 }).waitFor();
  await page.getByText('demo@example.com').first().waitFor();
  await page.getByText('Dana Demo').waitFor();
  const remote = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => e.name)
      .filter((n) => n.includes('/mfe/mfe-profile/')),
  );
  assert.ok(remote.length > 0, 'My Details came from the mfe-profile remote');
  assert.deepEqual(page.errors, []);
});

test('a visitor opening /profile is asked to log in, and comes back to /profile after signing in', async () => {
  const page = await newPage();
  await page.goto(`${BASE}/profile`);
  await page.getByRole('heading', { name: 'Please log in to continue' }).waitFor();
  await page
    .getByText(
      'This page contains protected information and requires that you log in before viewing. Please follow the link below to log in.',
    )
    .waitFor();
  const link = page.getByRole('link', { name: 'Proceed to login' });
  assert.equal(await link.getAttribute('href'), '/?redirect=%2Fprofile');

  await link.click();
  await page.waitForURL((u) => u.pathname === '/' && u.searchParams.get('redirect') === '/profile');
  const mail = await signIn(page, 'demo@example.com', '/?redirect=%2Fprofile');
  assert.match(mail.link, /redirect=%2Fprofile/);
  await page.waitForURL((u) => u.pathname === '/profile');
  await page.getByText('demo@example.com').first().waitFor();
});

test('a used or forged link does not sign anyone in', async () => {
  const page = await newPage();
  await page.goto(`${BASE}/?token=${encodeURIComponent(Buffer.from('a.b.c').toString('base64'))}`);
  await page.getByText('This sign-in link is invalid or has expired. Please request a new one.').waitFor();
  await page.goto(`${BASE}/profile`);
  await page.getByRole('heading', { name: 'Please log in to continue' }).waitFor();
});

test('on a phone, Arabic chosen on the sign-in page: the page is right to left and Arabic, and signing in by code works', async () => {
  const page = await newPage({ width: 390, height: 844 });
  await page.goto(`${BASE}/`);
  await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
  const chooser = page.getByLabel('Language');
  const names = await chooser.locator('option').allTextContents();
  assert.ok(names.includes('العربية') && names.includes('Deutsch'), `each language in its own name: ${names}`);
  await chooser.selectOption('ar');
  await page.getByRole('heading', { name: 'سجّل الدخول إلى حسابك' }).waitFor();
  assert.deepEqual(
    await page.evaluate(() => [document.documentElement.dir, document.documentElement.lang, localStorage.getItem('portal.language')]),
    ['rtl', 'ar', 'ar'],
  );
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  assert.ok(overflow <= 0, `nothing wider than the phone (${overflow} px over)`);

  const email = 'demo@example.com';
  const since = Date.now() - 1000;
  await page.locator('#login-email').fill(email);
  await page.getByRole('button', { name: 'أرسل لي رمزًا عبر البريد الإلكتروني بدلاً من ذلك' }).click();
  await page.getByRole('heading', { name: 'أدخل الرمز' }).waitFor();
  const mail = await latestEmail(email, { after: since });
  const code = mail.text.match(/\b(\d{6})\b/)?.[1];
  assert.ok(code, `a code in ${mail.text}`);
  await page.locator('#login-code').fill(code);
  await page.getByRole('button', { name: 'تسجيل الدخول' }).click();
  await page.waitForURL((u) => u.pathname === '/home');
  // The member's profile says English (the other tests leave it so): the choice made on the
  // sign-in page wins, and becomes the saved language.
  assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl', 'still Arabic after signing in');
  const token = await page.evaluate(() => localStorage.getItem('portal.auth'));
  try {
    let saved;
    for (let i = 0; i < 50 && saved !== 'ar'; i++) {
      saved = (await api(token, 'GET', '/api/profile')).body.custom_attributes?.locale?.language;
      if (saved !== 'ar') await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(saved, 'ar', 'the language chosen on the sign-in page is saved on the profile');
    assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
    assert.deepEqual(page.errors, []);
  } finally {
    // Leave demo@example.com in English, as the other tests expect it.
    await api(token, 'PUT', '/api/profile/attributes/custom/locale:language', { value: 'en' });
  }
});

test('after "send link" the inbox step shows the address, a Resend that counts down, and another address', async () => {
  const page = await newPage({ width: 390, height: 844 });
  await page.goto(`${BASE}/`);
  await page.getByLabel('Email address').fill('demo@example.com');
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
  await page.getByText('Sent to demo@example.com').waitFor();
  const resend = page.getByRole('button', { name: /^Resend in \d+ s$/ });
  await resend.waitFor();
  assert.ok(await resend.isDisabled(), 'Resend waits for its cooldown');
  await page.getByRole('button', { name: 'Use a different email address' }).click();
  assert.equal(await page.getByLabel('Email address').inputValue(), 'demo@example.com');
  assert.deepEqual(page.errors, []);
});
