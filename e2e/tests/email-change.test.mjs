// Issue 22 in the browser, against the real back end: changing the sign-in address through My
// Details with the code emailed to the new address (the member's other browser is signed out), the
// notice to the old address and its undo link (every session ends, the old address signs in
// again, further changes are locked), the same dialog in Arabic on a phone, a staff view listed in
// the member's privacy centre and ended there (the staff's view token is refused from then on),
// and an already-used sign-in link opened while signed in (the session stays). axe finds nothing
// on the new screens. Members of their own (registered here), so the demo members keep their
// addresses for the other suites.
//
// E2E_SCREENS=<dir>: also saves screenshots of the new screens there (phone, English and Arabic).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BASE, api, latestEmail, newPage, shoot, signIn } from './helpers.mjs';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const stamp = Date.now();

/** POST /api/auth/create (no session): 202 whatever the address. */
async function register(email, first_name = 'Casey') {
  const res = await fetch(`${BASE}/api/auth/create`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ email, first_name, last_name: 'Changer', redirect: '/home' }),
  });
  assert.equal(res.status, 202, await res.text());
}

/** A session token for `email` by the API: the emailed link exchanged (staff included). */
async function apiSignIn(email) {
  const since = Date.now() - 1000;
  const asked = await fetch(`${BASE}/api/auth`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ email, redirect: '/home' }),
  });
  assert.equal(asked.status, 200);
  const mail = await latestEmail(email, { after: since });
  const res = await fetch(`${BASE}/api/auth/exchange`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ token: new URL(mail.link).searchParams.get('token') }),
  });
  assert.equal(res.status, 200);
  return (await res.json()).token;
}

const token = (page) => page.evaluate(() => localStorage.getItem('portal.auth'));
const codeIn = (mail) => mail.text.match(/\b(\d{6})\b/)?.[1];

/** axe on the page as it is (only `include` when given): the violations, with where and why. */
async function axe(page, include) {
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    ([only, tags]) =>
      window.axe
        .run(only ? { include: [[only]] } : document, { resultTypes: ['violations'], runOnly: { type: 'tag', values: tags } })
        .then((r) => r.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`)),
    [include ?? null, TAGS],
  );
}

/** Fails with what axe found on `screen`; waits for the page to be still first. */
async function noViolations(page, screen) {
  await page.waitForFunction(() => !document.querySelector('.progress, [aria-busy="true"], .skeleton'));
  await page.evaluate(() => document.fonts.ready);
  // Dialogs and steps fade in: let them finish.
  await page.waitForTimeout(250);
  assert.deepEqual(await axe(page), [], `axe on ${screen}`);
}

/** Nothing wider than the viewport, and nothing in the open dialog wider than the dialog. */
async function assertNoOverflow(page, where) {
  const found = await page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out = [];
    if (document.documentElement.scrollWidth > width) out.push(`page ${document.documentElement.scrollWidth} > ${width}`);
    const dialog = document.querySelector('dialog[open]');
    if (dialog) {
      const box = dialog.getBoundingClientRect();
      if (box.left < 0 || box.right > width) out.push(`dialog ${box.left}..${box.right} of ${width}`);
      for (const el of dialog.querySelectorAll('*')) {
        const r = el.getBoundingClientRect();
        if (r.width && (r.left < box.left - 0.5 || r.right > box.right + 0.5))
          out.push(`${el.tagName}.${el.className} ${r.left}..${r.right}`);
      }
      if (dialog.scrollWidth > dialog.clientWidth) out.push(`dialog scrolls ${dialog.scrollWidth} > ${dialog.clientWidth}`);
    }
    return out;
  });
  assert.deepEqual(found, [], `overflow on ${where}`);
}

const emailGroup = (page) => page.getByRole('group', { name: 'Email address' });

test(
  'the sign-in address changed with the emailed code, the other browser signed out, then undone from the old address',
  { timeout: 180_000 },
  async () => {
    const OLD = `change.${stamp}@example.com`;
    const NEW = `moved.${stamp}@example.com`;
    await register(OLD);

    // A phone (A) and a computer (B): the same member twice.
    const a = await newPage();
    await signIn(a, OLD);
    const b = await newPage({ width: 1280, height: 900 });
    await signIn(b, OLD);
    const [tokenA, tokenB] = [await token(a), await token(b)];
    assert.ok(tokenA && tokenB && tokenA !== tokenB);

    await a.getByRole('navigation', { name: 'Account sections' }).getByRole('link', { name: 'My Details', exact: true }).click();
    await a.getByRole('heading', { name: 'Personal details', level: 2 }).waitFor();
    await emailGroup(a).getByText(OLD).waitFor();
    // The address is shown, not a field to type over.
    assert.equal(await emailGroup(a).getByRole('textbox').count(), 0);

    await emailGroup(a).getByRole('button', { name: 'Change email' }).click();
    const dialog = a.getByRole('dialog', { name: 'Change your email address' });
    await dialog.waitFor();
    assert.equal(await a.evaluate(() => document.activeElement?.getAttribute('type')), 'email', 'the new address has the focus');
    await shoot(a, 'email-change-en-1-change-dialog.png', { fullPage: false });
    await noViolations(a, 'the change dialog');
    await assertNoOverflow(a, 'the change dialog (en)');

    // The address it already has: refused on the field before anything is sent.
    await dialog.getByLabel('New email address').fill(OLD.toUpperCase());
    await dialog.getByRole('button', { name: 'Send code' }).click();
    await dialog.getByRole('alert').filter({ hasText: "That's already your email address" }).waitFor();
    await shoot(a, 'email-change-en-2-change-dialog-error.png', { fullPage: false });
    await noViolations(a, 'the change dialog with a refused address');

    const sent = Date.now() - 1000;
    await dialog.getByLabel('New email address').fill(NEW);
    await dialog.getByRole('button', { name: 'Send code' }).click();
    const codeStep = a.getByRole('dialog', { name: 'Enter the code' });
    await codeStep.waitFor();
    await codeStep.getByText(/We've sent a code to m\*\*\*@example\.com/).waitFor();
    assert.equal(
      await a.evaluate(() => document.activeElement?.getAttribute('autocomplete')),
      'one-time-code',
      'the code field has the focus',
    );
    await shoot(a, 'email-change-en-3-code-step.png', { fullPage: false });
    await noViolations(a, 'the code step');
    // Nothing has changed until the code is confirmed.
    assert.equal((await api(tokenA, 'GET', '/api/profile')).body.email, OLD);

    const mail = await latestEmail(NEW, { after: sent });
    const code = codeIn(mail);
    assert.ok(code, `a code in ${mail.text}`);
    // A wrong code: on its field, nothing changed.
    await codeStep.getByLabel('6-digit code').fill(code === '000000' ? '111111' : '000000');
    await codeStep.getByRole('button', { name: 'Confirm new address' }).click();
    await codeStep.getByRole('alert').filter({ hasText: 'That code is not right or has expired' }).waitFor();
    assert.equal(await codeStep.getByLabel('6-digit code').getAttribute('aria-invalid'), 'true');
    await noViolations(a, 'the code step with a refused code');

    const changedAt = Date.now() - 1000;
    await codeStep.getByLabel('6-digit code').fill(code);
    await codeStep.getByRole('button', { name: 'Confirm new address' }).click();
    const done = a.getByRole('dialog', { name: 'Email address changed' });
    await done.waitFor();
    await done.getByText('You now sign in with this address:').waitFor();
    await done.getByText(NEW, { exact: true }).waitFor();
    await done.getByText('Your other devices have been signed out.').waitFor();
    await shoot(a, 'email-change-en-4-done.png', { fullPage: false });
    await noViolations(a, 'the change done');
    await done.getByRole('button', { name: 'Done' }).click();
    await emailGroup(a).getByText(NEW).waitFor();
    assert.equal((await api(tokenA, 'GET', '/api/profile')).body.email, NEW);

    // B is signed out: the server refuses its token as revoked, and the browser ends on the Logged
    // out screen that says another device did it.
    assert.equal((await api(tokenB, 'GET', '/api/profile')).status, 401);
    await b.goto(`${BASE}/profile`);
    await b.getByRole('heading', { name: 'Signed out from another device' }).waitFor();
    assert.equal(await token(b), null);

    // The old address is told, with a link that undoes the change.
    const notice = await latestEmail(OLD, { after: changedAt });
    assert.match(notice.text, /changed to m\*\*\*@example\.com/);
    const undo = new URL(notice.link);
    assert.equal(`${undo.origin}${undo.pathname}`, `${BASE}/email-change/undo`);
    assert.ok(undo.searchParams.get('key'));

    // Opened in a fresh browser (no session): it says what undoing does and waits for the tap.
    const c = await newPage();
    await c.goto(notice.link);
    await c.getByRole('heading', { name: 'Undo the change of your email address', level: 1 }).waitFor();
    await c.getByText('Everyone using your account is signed out, on every device.').waitFor();
    await shoot(c, 'email-change-en-5-undo.png', { fullPage: false });
    await noViolations(c, 'the undo screen');
    assert.equal((await api(tokenA, 'GET', '/api/profile')).body.email, NEW, 'opening the link changes nothing');
    await c.getByRole('button', { name: 'Undo the change' }).click();
    await c.getByRole('heading', { name: 'Your email address is back', level: 1 }).waitFor();
    await c.getByText(/Your sign-in address is c\*\*\*@example\.com again/).waitFor();
    await shoot(c, 'email-change-en-6-undone.png', { fullPage: false });
    await noViolations(c, 'the undo screen, done');

    // Every session has ended: A's too (its next page ends on the Logged out screen, which says
    // it was ended from elsewhere: the undo link, opened in another browser).
    assert.equal((await api(tokenA, 'GET', '/api/profile')).status, 401);
    await a.reload();
    await a.getByRole('heading', { name: 'Signed out from another device' }).waitFor();

    // The old address signs in again (from the undo screen's Sign in); the new one is no longer it.
    await c.getByRole('link', { name: 'Sign in' }).click();
    await c.waitForURL((u) => u.pathname === '/');
    await signIn(c, OLD);
    const tokenC = await token(c);
    assert.equal((await api(tokenC, 'GET', '/api/profile')).body.email, OLD);

    // Changes are locked for a while: the dialog says so in the server's words, and offers nothing to send.
    await c.goto(`${BASE}/profile`);
    await emailGroup(c).getByRole('button', { name: 'Change email' }).click();
    const again = c.getByRole('dialog', { name: 'Change your email address' });
    await again.getByLabel('New email address').fill(`again.${stamp}@example.com`);
    await again.getByRole('button', { name: 'Send code' }).click();
    await again.getByRole('alert').filter({ hasText: "can't be changed again for a few days" }).waitFor();
    assert.equal(await again.getByRole('button', { name: 'Send code' }).count(), 0);
    await again.getByRole('button', { name: 'Close' }).click();

    // The link works once.
    const d = await newPage();
    await d.goto(notice.link);
    await d.getByRole('button', { name: 'Undo the change' }).click();
    await d.getByRole('heading', { name: "This link can't be used", level: 1 }).waitFor();
    await d.getByText('This link has expired or has already been used.').waitFor();
    await noViolations(d, 'the undo screen, link used');

    for (const p of [a, b, c, d]) assert.deepEqual(p.errors, []);
    for (const p of [a, b, c, d]) await p.context().close();
  },
);

test('the change dialog in Arabic on a phone: right to left, nothing wider than the screen', { timeout: 120_000 }, async () => {
  const OLD = `arabic.${stamp}@example.com`;
  const NEW = `arabic.moved.${stamp}@example.com`;
  await register(OLD, 'Amal');
  const page = await newPage({ width: 390, height: 844 });
  await signIn(page, OLD);
  await page.goto(`${BASE}/profile?lang=ar`);
  await page.waitForFunction(() => document.documentElement.dir === 'rtl' && document.documentElement.lang === 'ar');
  await page.getByRole('heading', { name: 'البيانات الشخصية', level: 2 }).waitFor();
  await shoot(page, 'email-change-ar-0-my-details.png', { fullPage: false });
  await page.getByRole('button', { name: 'تغيير البريد الإلكتروني' }).click();
  const dialog = page.getByRole('dialog', { name: 'تغيير عنوان بريدك الإلكتروني' });
  await dialog.waitFor();
  assert.equal(await dialog.evaluate((d) => getComputedStyle(d).direction), 'rtl');
  // The address typed reads left to right inside the right-to-left dialog.
  assert.equal(await dialog.getByLabel('عنوان البريد الإلكتروني الجديد').evaluate((i) => getComputedStyle(i).direction), 'ltr');
  await shoot(page, 'email-change-ar-1-change-dialog.png', { fullPage: false });
  await assertNoOverflow(page, 'the change dialog (ar)');
  await noViolations(page, 'the change dialog (ar)');

  await dialog.getByLabel('عنوان البريد الإلكتروني الجديد').fill('ليس عنوانا');
  await dialog.getByRole('button', { name: 'إرسال الرمز' }).click();
  await dialog.getByRole('alert').filter({ hasText: 'أدخل عنوان بريد إلكتروني صالحًا' }).waitFor();
  await shoot(page, 'email-change-ar-2-change-dialog-error.png', { fullPage: false });
  await assertNoOverflow(page, 'the change dialog with an error (ar)');

  const sent = Date.now() - 1000;
  await dialog.getByLabel('عنوان البريد الإلكتروني الجديد').fill(NEW);
  await dialog.getByRole('button', { name: 'إرسال الرمز' }).click();
  const codeStep = page.getByRole('dialog', { name: 'أدخل الرمز' });
  await codeStep.waitFor();
  await shoot(page, 'email-change-ar-3-code-step.png', { fullPage: false });
  await assertNoOverflow(page, 'the code step (ar)');
  await noViolations(page, 'the code step (ar)');
  const code = codeIn(await latestEmail(NEW, { after: sent }));
  await codeStep.getByLabel('رمز مكوّن من 6 أرقام').fill(code);
  await codeStep.getByRole('button', { name: 'تأكيد العنوان الجديد' }).click();
  const done = page.getByRole('dialog', { name: 'تم تغيير البريد الإلكتروني' });
  await done.waitFor();
  await shoot(page, 'email-change-ar-4-done.png', { fullPage: false });
  await assertNoOverflow(page, 'the change done (ar)');
  await noViolations(page, 'the change done (ar)');
  await done.getByRole('button', { name: 'تم' }).click();
  assert.equal((await api(await token(page), 'GET', '/api/profile')).body.email, NEW);

  // The undo screen in Arabic, from the notice to the old address.
  const notice = await latestEmail(OLD, { after: sent });
  const other = await newPage({ width: 390, height: 844 });
  await other.goto(`${notice.link}&lang=ar`);
  await other.waitForFunction(() => document.documentElement.dir === 'rtl');
  await other.getByRole('heading', { name: 'التراجع عن تغيير بريدك الإلكتروني', level: 1 }).waitFor();
  await shoot(other, 'email-change-ar-5-undo.png', { fullPage: false });
  await assertNoOverflow(other, 'the undo screen (ar)');
  await noViolations(other, 'the undo screen (ar)');
  await other.getByRole('button', { name: 'التراجع عن التغيير' }).click();
  await other.getByRole('heading', { name: 'عاد عنوان بريدك الإلكتروني', level: 1 }).waitFor();
  await shoot(other, 'email-change-ar-6-undone.png', { fullPage: false });
  await noViolations(other, 'the undo screen, done (ar)');
  assert.deepEqual(page.errors, []);
  assert.deepEqual(other.errors, []);
  await page.context().close();
  await other.context().close();
});

test(
  'a staff view shows in the member’s privacy centre, and ending it there ends the staff’s view token',
  { timeout: 120_000 },
  async () => {
    const EMAIL = `viewed.${stamp}@example.com`;
    await register(EMAIL, 'Vera');
    const page = await newPage();
    await signIn(page, EMAIL);
    const member = await token(page);
    const profileId = (await api(member, 'GET', '/api/profile')).body.id;

    // Staff open a view of the account (the API, as the staff panel does).
    const staff = await apiSignIn('staff@example.com');
    const opened = await api(staff, 'POST', `/api/auth/impersonate/${profileId}`, { reason: 'Member asked for help by phone' });
    assert.equal(opened.status, 200, JSON.stringify(opened.body));
    const view = opened.body.token;
    assert.equal((await api(view, 'GET', '/api/profile')).status, 200);

    await page.goto(`${BASE}/profile/privacy`);
    const section = page.getByRole('region', { name: 'Staff viewing your account' });
    await section.waitFor();
    const item = section.getByRole('listitem').filter({ hasText: 'Sam Staff' });
    await item.waitFor();
    for (const label of ['Viewing since', 'Last active', 'Ends by']) await item.getByText(label, { exact: true }).waitFor();
    await section.scrollIntoViewIfNeeded();
    await shoot(page, 'email-change-en-7-staff-view.png', { fullPage: false });
    await noViolations(page, 'the privacy centre with a staff view');

    await item.getByRole('button', { name: 'End this view (Sam Staff)' }).click();
    const ask = page.getByRole('dialog', { name: 'End this staff view?' });
    await ask.waitFor();
    await noViolations(page, 'ending a staff view: the confirmation');
    await ask.getByRole('button', { name: 'End view' }).click();
    await page.getByText('Sam Staff can no longer see your account').waitFor();
    await section.waitFor({ state: 'detached' });
    // The staff's view token is refused from now on; the member is still signed in.
    assert.equal((await api(view, 'GET', '/api/profile')).status, 401);
    assert.equal((await api(member, 'GET', '/api/profile')).status, 200);
    assert.deepEqual((await api(member, 'GET', '/api/privacy/sessions')).body.staff_views, []);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  },
);

test('an already-used sign-in link opened while signed in keeps the session and says so', { timeout: 60_000 }, async () => {
  const EMAIL = `relinked.${stamp}@example.com`;
  await register(EMAIL, 'Robin');
  const page = await newPage();
  const mail = await signIn(page, EMAIL, '/?redirect=%2Fprofile');
  const held = await token(page);
  await page.goto(mail.link);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('heading', { name: "You're already signed in", level: 1 }).waitFor();
  await page.getByText("This sign-in link has already been used or has expired. You're still signed in.").waitFor();
  await shoot(page, 'email-change-en-8-link-kept.png', { fullPage: false });
  await noViolations(page, 'a used sign-in link while signed in');
  assert.equal(await token(page), held, 'the session stays');
  assert.equal((await api(held, 'GET', '/api/profile')).status, 200);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((u) => u.pathname === '/profile');
  await page.getByRole('heading', { name: 'Personal details', level: 2 }).waitFor();
  assert.equal(await token(page), held);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
