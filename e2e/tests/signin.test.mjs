import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, newPage, signIn } from './helpers.mjs';

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
