// Issue 3: the emailed link waits for Continue, logout, and staff viewing a member's account.
// Sign-in requests are rate limited per address (5 per 10 minutes) and the older suites use
// demo@example.com, so these tests sign in as other@example.com (Oliver Other).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, latestEmail, newPage, signIn } from './helpers.mjs';

async function requestLink(page, email, startPath = '/') {
  const since = Date.now() - 1000;
  await page.goto(`${BASE}${startPath}`);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByText('If that address has an account, a sign-in link is on its way.').waitFor();
  return latestEmail(email, { after: since });
}

test('opening the emailed link uses nothing until Continue; the token leaves the address bar at once', async () => {
  const first = await newPage();
  const mail = await requestLink(first, 'other@example.com');

  // A mail scanner (or a preview) opens the link: it sees the landing screen only.
  const scanner = await newPage();
  await scanner.goto(mail.link);
  await scanner.getByRole('button', { name: 'Continue' }).waitFor();
  assert.ok(!scanner.url().includes('token='), 'the token is stripped before any tap');
  await scanner.context().close();

  // The member opens the same link afterwards and it still works. (The page drawn at build time
  // shows before the script that takes the token: the landing screen says the script has run.)
  await first.goto(mail.link);
  await first.getByRole('button', { name: 'Continue' }).waitFor();
  assert.ok(!first.url().includes('token='));
  assert.equal(new URL(first.url()).searchParams.get('redirect'), '/home', 'other parameters stay');
  await first.getByRole('button', { name: 'Continue' }).click();
  await first.waitForURL((u) => u.pathname === '/home');
  assert.ok(!first.url().includes('token='));
  await first.getByRole('heading', { name: 'Hello, Oliver' }).waitFor();
  const referrer = await first.locator('meta[name="referrer"]').getAttribute('content');
  assert.equal(referrer, 'no-referrer');

  // The link is one-time: a second Continue is refused.
  const again = await newPage();
  await again.goto(mail.link);
  await again.getByRole('button', { name: 'Continue' }).click();
  await again.getByText('This sign-in link is invalid or has expired. Please request a new one.').waitFor();
  await again.getByLabel('Email address').waitFor();
  assert.deepEqual(first.errors, []);
});

test('logging out shows Logged out securely, and /profile then asks to log in', async () => {
  const page = await newPage();
  await signIn(page, 'other@example.com');
  await page.getByRole('heading', { name: 'Hello, Oliver' }).waitFor();
  const token = await page.evaluate(() => localStorage.getItem('portal.auth'));
  assert.ok(token, 'signed in with a stored session');

  await page.getByRole('button', { name: 'Log out' }).click();
  await page.getByRole('heading', { name: 'Logged out securely' }).waitFor();
  await page.getByText("You've signed out of your account. If you would like to access your account again, log in below.").waitFor();
  await page.getByRole('link', { name: 'Return to login' }).waitFor();
  assert.equal(await page.evaluate(() => localStorage.getItem('portal.auth')), null);

  // The server refuses the old token from now on.
  const res = await fetch(`${BASE}/api/profile`, { headers: { Authorization: `Bearer ${token}` } });
  assert.equal(res.status, 401);

  await page.goto(`${BASE}/profile`);
  await page.getByRole('heading', { name: 'Please log in to continue' }).waitFor();
  assert.deepEqual(page.errors, []);
});

test('staff find a member by email, view the account as that member, and stop viewing', async () => {
  const page = await newPage({ width: 1280, height: 900 });
  await signIn(page, 'staff@example.com');
  await page.getByRole('heading', { name: 'Find a member', level: 1 }).waitFor();

  await page.getByLabel('Search by').selectOption('email');
  await page.getByLabel('Search for').fill('other@example.com');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await page.getByText('Oliver Other').waitFor();
  await page.getByLabel('Reason (optional)').fill('Member asked for help by phone');
  await page.getByRole('button', { name: 'View as member' }).click();

  await page.getByText('Viewing as Oliver Other').waitFor();
  await page.getByRole('link', { name: 'My Details' }).first().click();
  await page.waitForURL((u) => u.pathname === '/profile');
  await page.getByText('other@example.com').first().waitFor();
  await page.getByText('Viewing as Oliver Other').waitFor();

  // A reload keeps the staff view (token and name are stored).
  await page.reload();
  await page.getByText('Viewing as Oliver Other').waitFor();
  await page.getByText('other@example.com').first().waitFor();

  await page.getByRole('button', { name: 'Stop viewing' }).click();
  await page.getByRole('heading', { name: 'Find a member', level: 1 }).waitFor();
  assert.equal(await page.getByText('Viewing as Oliver Other').count(), 0);
  assert.deepEqual(page.errors, []);
});
