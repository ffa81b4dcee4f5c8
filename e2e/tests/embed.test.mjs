// The portal inside a partner's page (docs/embedding.md): the example partner page on another
// loopback *site* (127.0.0.1) frames the portal (localhost) with @portal/embed. Sign-in completes
// inside the iframe's own, partitioned storage; logout, customer data and impersonation round
// trips; the spec's error texts; a foreign origin is ignored; a page not on the allow-list can't
// frame the portal at all.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import { BASE, latestEmail, newPage } from './helpers.mjs';
import { startPartnerServer } from '../../scripts/partner-server.mjs';

const PARTNER_PORT = Number(process.env.PARTNER_PORT);
const FOREIGN_PORT = Number(process.env.FOREIGN_PORT);
const PORTAL_ORIGIN = new URL(BASE).origin;
const DEMO_ID = 'prf_0000000000000000000000d1';

// A page on an origin the tenant does not allow: it tries to frame the portal, and (as a child
// of the partner page) floods the portal's frame with messages.
const FOREIGN_FRAME = `<!doctype html><html lang="en"><title>Not allowed</title>
<h1>Another site</h1><iframe title="portal" src="${BASE}/"></iframe>`;
const FOREIGN_FLOOD = `<!doctype html><html lang="en"><title>Ad</title><body><script>
  window.answers = 0;
  addEventListener('message', () => { window.answers += 1; });
  window.flood = (n) => {
    const portal = parent.frames[0];
    const kinds = [{ action: 'logout' }, { action: 'requestCustomerData', requestId: 'x' }, 'junk', { action: 'nope' },
      { action: 'impersonate', profileId: '${DEMO_ID}', staffId: 'stf_x' }];
    for (let i = 0; i < n; i++) portal.postMessage(kinds[i % kinds.length], '*');
    return n;
  };
</script></body></html>`;

let partner;
let foreign;
let partitioned;

/**
 * A page in a second Chromium that lets third-party iframes have (partitioned) storage: Debian's
 * build blocks third-party cookies, and with them that storage, by default.
 */
async function partitionedPage() {
  partitioned ??= await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-features=TrackingProtection3pcd'],
  });
  const page = await (await partitioned.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.setDefaultTimeout(15_000);
  page.errors = [];
  page.on('pageerror', (e) => page.errors.push(e));
  return page;
}

before(async () => {
  assert.ok(PARTNER_PORT && FOREIGN_PORT, 'e2e/run.sh sets PARTNER_PORT (allowed) and FOREIGN_PORT (not allowed)');
  // The partner page may also frame the foreign page (an ad, say), for the flood test.
  partner = await startPartnerServer({
    port: PARTNER_PORT,
    host: '127.0.0.1',
    portalUrl: BASE,
    frameSrc: [`http://127.0.0.1:${FOREIGN_PORT}`],
  });
  foreign = await startPartnerServer({
    port: FOREIGN_PORT,
    host: '127.0.0.1',
    portalUrl: BASE,
    pages: { '/frame.html': FOREIGN_FRAME, '/flood.html': FOREIGN_FLOOD },
  });
});

after(async () => {
  await partitioned?.close();
  await partner?.close();
  await foreign?.close();
});

/** The partner page with the portal mounted; resolves once the portal said `ready`. */
async function openPartner(page, url = partner.url) {
  await page.goto(url);
  await page.getByText('Ready', { exact: true }).waitFor();
  const frame = page.frames().find((f) => f.url().startsWith(PORTAL_ORIGIN));
  assert.ok(frame, 'the portal is framed');
  return frame;
}

/** Every message the portal posts to the partner page, recorded from now on. */
async function recordPortalMessages(page) {
  await page.evaluate((origin) => {
    window.__fromPortal = [];
    addEventListener('message', (e) => {
      if (e.origin === origin) window.__fromPortal.push(e.data);
    });
  }, PORTAL_ORIGIN);
}
const portalMessages = (page) => page.evaluate(() => window.__fromPortal);

/** Sign in inside the iframe with an emailed code (typed in the iframe). */
async function signInWithCode(frame, email) {
  const since = Date.now() - 1000;
  await frame.getByLabel('Email address').fill(email);
  await frame.getByRole('button', { name: 'Email me a code instead' }).click();
  const mail = await latestEmail(email, { after: since });
  const code = mail.text.match(/\b(\d{6})\b/)?.[1];
  assert.ok(code, 'the email holds a 6-digit code');
  await frame.getByLabel('6-digit code').fill(code);
  await frame.getByRole('button', { name: 'Sign in' }).click();
}

describe('the portal inside a partner page', () => {
  it('signs in with a code typed in the iframe, kept in the iframe’s own partitioned storage', async () => {
    // A browser that gives a third-party iframe storage of its own (partitioned by the top site),
    // as Chrome does by default for most people.
    const page = await partitionedPage();
    const frame = await openPartner(page);
    assert.match(await page.locator('#portal iframe').getAttribute('src'), /[?&]embedder=http%3A%2F%2F127\.0\.0\.1/);
    await signInWithCode(frame, 'demo@example.com');
    await frame.getByRole('heading', { level: 1, name: /Dana/ }).waitFor();
    await page.getByText(`login: profile ${DEMO_ID}`).waitFor();
    assert.equal(await frame.evaluate(() => Boolean(localStorage.getItem('portal.auth'))), true);
    // The iframe's height follows its content (resize events), and it has no inner scrollbar.
    // (Content still arriving, such as the airline card, grows it again: wait until it settles.)
    await page.waitForFunction(() => parseInt(document.querySelector('#portal iframe').style.height, 10) > 480);
    await frame.waitForFunction(() => document.documentElement.scrollHeight - window.innerHeight <= 1);
    // Back on the partner page later: still signed in there, and the page is told who.
    const again = await openPartner(page);
    await again.getByRole('heading', { level: 1, name: /Dana/ }).waitFor();
    await page.getByText(`login: profile ${DEMO_ID}`).waitFor();
    // Partitioned: the same browser on the portal's own site is not signed in.
    const own = await page.context().newPage();
    await own.goto(`${BASE}/home`);
    await own.getByRole('heading', { name: 'Please log in to continue' }).waitFor();
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('where the browser blocks a third-party iframe’s storage, the sign-in lasts for the page', async () => {
    // Debian's Chromium blocks third-party cookies and with them a third-party iframe's storage
    // (as Chrome does in incognito): the session lives in the page's memory.
    const page = await newPage({ width: 1280, height: 900 });
    const frame = await openPartner(page);
    assert.match(
      await frame.evaluate(() => {
        try {
          return String(localStorage.length);
        } catch (e) {
          return e.name;
        }
      }),
      /SecurityError/,
    );
    await signInWithCode(frame, 'demo@example.com');
    await frame.getByRole('heading', { level: 1, name: /Dana/ }).waitFor();
    await frame.getByRole('link', { name: 'My Details' }).first().click();
    await frame.getByRole('heading', { name: 'Personal details', level: 2 }).waitFor();
    // Every tab works without storage.
    for (const [tab, heading] of [
      ['My Orders', 'My Orders'],
      ['Rewards', 'Rewards'],
      ['Offers', 'Offers'],
    ]) {
      await frame.getByRole('link', { name: tab, exact: true }).first().click();
      await frame.getByRole('heading', { level: 1, name: heading }).waitFor();
      assert.equal(await frame.getByText('Something went wrong').count(), 0, tab);
    }
    await page.getByText(`login: profile ${DEMO_ID}`).waitFor();
    // A new page load starts signed out (nothing could be kept), and says so to nobody.
    const again = await openPartner(page);
    await again.getByLabel('Email address').waitFor();
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('signs in through the emailed link: it opens the partner page, which hands the token to the iframe', async () => {
    const page = await newPage({ width: 1280, height: 900 });
    const frame = await openPartner(page, `${partner.url}?tab=points`);
    const since = Date.now() - 1000;
    await frame.getByLabel('Email address').fill('other@example.com');
    await frame.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await frame.getByText('If that address has an account, a sign-in link is on its way.').waitFor();
    const mail = await latestEmail('other@example.com', { after: since });
    const link = new URL(mail.link);
    assert.equal(link.origin, partner.origin, 'the link opens the partner page');
    assert.equal(link.searchParams.get('tab'), 'points', 'the page address the client package gave, not only the referrer origin');
    const frame2 = await openPartner(page, mail.link);
    // The token left the partner page's address at once.
    assert.equal(new URL(page.url()).searchParams.get('token'), null);
    await frame2.getByRole('button', { name: 'Continue' }).click();
    await frame2.getByRole('heading', { level: 1, name: /Oliver/ }).waitFor();
    await page.getByText(/login: profile prf_/).waitFor();
    await page.context().close();
  });

  it('customer data, the address, logout: round trips with the partner page', async () => {
    const page = await newPage({ width: 1280, height: 900 });
    const frame = await openPartner(page);
    await signInWithCode(frame, 'demo@example.com');
    await frame.getByRole('heading', { level: 1, name: /Dana/ }).waitFor();

    await page.getByRole('button', { name: 'Get customer data' }).click();
    const data = page.locator('#customer-data');
    await data.getByText('demo@example.com').waitFor();
    assert.match(await data.innerText(), /Dana Demo[\s\S]*demo@example\.com[\s\S]*Tier\s*gold/);

    await frame.getByRole('link', { name: 'My Details' }).first().click();
    await page.locator('#portal-address').getByText(`${PORTAL_ORIGIN}/profile`).waitFor();
    const asked = await page.evaluate(() => window.partnerPortal.getUrl());
    assert.equal(asked, `${PORTAL_ORIGIN}/profile`);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await frame.getByRole('heading', { name: 'Logged out securely' }).waitFor();
    await page.locator('#log').getByText('logout', { exact: false }).first().waitFor();
    // Signed out: no customer data.
    const refused = await page.evaluate(() =>
      window.partnerPortal.requestCustomerData().then(
        () => 'answered',
        (e) => e.message,
      ),
    );
    assert.equal(refused, 'Not signed in');
    await page.context().close();
  });

  it('staff view a member from the partner page, with the staff session signed in inside the portal', async () => {
    const page = await newPage({ width: 1280, height: 900 });
    const frame = await openPartner(page);
    // A member's session is not a staff credential; a staffId in the message changes nothing.
    await signInWithCode(frame, 'other@example.com');
    await frame.getByRole('heading', { level: 1, name: /Oliver/ }).waitFor();
    await recordPortalMessages(page);
    await page.evaluate(
      (id) => window.partnerPortal.send({ action: 'impersonate', profileId: id, staffId: 'stf_0000000000000000000000s1', requestId: 'm1' }),
      DEMO_ID,
    );
    await page.waitForFunction(() => window.__fromPortal.some((m) => m.requestId === 'm1'));
    assert.deepEqual(
      (await portalMessages(page)).find((m) => m.requestId === 'm1'),
      {
        action: 'error',
        error: 'Only a signed-in staff user can view a member account',
        requestId: 'm1',
        request: 'impersonate',
      },
    );
    await page.getByRole('button', { name: 'Sign out' }).click();
    await frame.getByRole('link', { name: 'Return to login' }).click();

    await signInWithCode(frame, 'staff@example.com');
    await frame.getByRole('heading', { level: 1, name: 'Find a member' }).waitFor();
    await page.getByLabel('Profile id').fill(DEMO_ID);
    await page.getByLabel(/Reason/).fill('Phone call about points');
    await page.getByRole('button', { name: 'View as member' }).click();
    await frame.getByText('Viewing as Dana Demo').waitFor();
    await page.getByText('viewing as Dana Demo').waitFor();
    const customer = await page.evaluate(() => window.partnerPortal.requestCustomerData());
    assert.equal(customer.email, 'demo@example.com');
    await page.context().close();
  });

  it('answers the spec’s errors, and ignores 1,000 messages from a foreign origin', async () => {
    const page = await newPage({ width: 1280, height: 900 });
    const frame = await openPartner(page);
    await signInWithCode(frame, 'demo@example.com');
    await frame.getByRole('heading', { level: 1, name: /Dana/ }).waitFor();
    await recordPortalMessages(page);

    // From the partner page itself (allowed): a non-object, an unknown action.
    await page.evaluate((origin) => {
      const portal = document.querySelector('#portal iframe').contentWindow;
      portal.postMessage('logout', origin);
      portal.postMessage({ action: 'explode', requestId: 'e1' }, origin);
    }, PORTAL_ORIGIN);
    await page.waitForFunction(() => window.__fromPortal.filter((m) => m.action === 'error').length >= 2);
    const errors = (await portalMessages(page)).filter((m) => m.action === 'error');
    assert.deepEqual(errors, [
      { action: 'error', error: 'Invalid message data type' },
      { action: 'error', error: 'Invalid action explode', requestId: 'e1', request: 'explode' },
    ]);

    // A frame from another origin on the same page floods the portal's frame.
    await page.evaluate((src) => {
      const ad = document.createElement('iframe');
      ad.title = 'Advertisement';
      ad.src = src;
      document.body.append(ad);
      return new Promise((resolve) => ad.addEventListener('load', resolve));
    }, `${foreign.url}flood.html`);
    const ad = page.frames().find((f) => f.url().endsWith('/flood.html'));
    const before = (await portalMessages(page)).length;
    assert.equal(await ad.evaluate(() => window.flood(1000)), 1000);
    // Give the portal time to (not) react, then prove it still answers its own parent.
    const answer = await page.evaluate(() => window.partnerPortal.requestCustomerData());
    assert.equal(answer.email, 'demo@example.com');
    await page.waitForTimeout(300);
    assert.equal(await ad.evaluate(() => window.answers), 0, 'nothing answers the foreign frame');
    const after = (await portalMessages(page)).slice(before);
    assert.deepEqual(
      after.map((m) => m.action).filter((a) => a !== 'resize' && a !== 'getUrl'),
      ['customerData'],
      'the flood got no answer and changed nothing',
    );
    await frame.getByRole('heading', { level: 1, name: /Dana/ }).waitFor();
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });

  it('a page that is not on the allow-list cannot frame the portal', async () => {
    const page = await newPage({ width: 1280, height: 900 });
    const refusals = [];
    page.on('console', (m) => {
      if (/frame-ancestors/.test(m.text())) refusals.push(m.text());
    });
    const framed = page.waitForEvent('response', (r) => r.url() === `${BASE}/`);
    await page.goto(`${foreign.url}frame.html`);
    const res = await framed;
    assert.match(res.headers()['content-security-policy'], new RegExp(`frame-ancestors 'self' .*http://127\\.0\\.0\\.1:${PARTNER_PORT}`));
    assert.doesNotMatch(res.headers()['content-security-policy'], new RegExp(`:${FOREIGN_PORT}`));
    await page.waitForTimeout(500);
    const frame = page.frames().find((f) => f !== page.mainFrame());
    assert.ok(frame, 'the iframe element is there');
    assert.ok(
      !frame.url().startsWith(PORTAL_ORIGIN) || (await frame.locator('#root').count()) === 0,
      `the browser refused to show it (${frame.url()})`,
    );
    assert.ok(refusals.length > 0, 'Chromium reports the frame-ancestors refusal');
    await page.context().close();
  });
});
