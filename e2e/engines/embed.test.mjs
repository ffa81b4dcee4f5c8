// The portal inside a partner's page in one engine (ENGINE; issue 27; docs/embedding.md): the
// example partner page on another site (127.0.0.1) frames the portal (localhost). The engine's
// defaults decide the iframe's storage: where it gets storage of its own, partitioned by the top
// site (Firefox ESR 153, WebKitGTK 2.50 whatever its cookie policy, Chromium with third-party
// cookies allowed), the session is kept there and only there; where it gets none (Debian's
// Chromium, tests/embed.test.mjs), the sign-in lasts for the page. Messages go both ways, and a
// page not on the allow-list cannot frame the portal at all (frame-ancestors).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startPartnerServer } from '../../scripts/partner-server.mjs';
import { BASE, ENGINE, assertNoErrors, latestEmail, useEngine } from './support.mjs';

const PARTNER_PORT = Number(process.env.PARTNER_PORT);
const FOREIGN_PORT = Number(process.env.FOREIGN_PORT);
const PORTAL_ORIGIN = new URL(BASE).origin;
const DEMO_ID = 'prf_0000000000000000000000d1';
const FOREIGN_FRAME = `<!doctype html><html lang="en"><title>Not allowed</title>
<h1>Another site</h1><iframe title="portal" src="${BASE}/"></iframe>`;

const engine = useEngine();
let partner;
let foreign;

before(async () => {
  assert.ok(PARTNER_PORT && FOREIGN_PORT, 'e2e/run.sh sets PARTNER_PORT (allowed) and FOREIGN_PORT (not allowed)');
  partner = await startPartnerServer({ port: PARTNER_PORT, host: '127.0.0.1', portalUrl: BASE });
  foreign = await startPartnerServer({ port: FOREIGN_PORT, host: '127.0.0.1', portalUrl: BASE, pages: { '/frame.html': FOREIGN_FRAME } });
});

after(async () => {
  await partner?.close();
  await foreign?.close();
});

/** The partner page with the portal mounted (it said `ready`); returns the portal's frame. */
async function openPartner(page) {
  await page.goto(partner.url);
  await page.waitFor({ text: 'Ready', exact: true, within: { css: '#status' } });
  return page.frame('#portal iframe');
}

/** What the iframe's localStorage is: 'available', or the error touching it throws. */
const storageIn = (frame) =>
  frame.evaluate(() => {
    try {
      localStorage.setItem('portal.probe', '1');
      localStorage.removeItem('portal.probe');
      return 'available';
    } catch (e) {
      return e.name;
    }
  });

test('sign in with a code inside the partner page’s iframe; messages both ways', { timeout: 120_000 }, async () => {
  const { page } = engine;
  let frame = await openPartner(page);
  const storage = await storageIn(frame);
  console.log(`# ${ENGINE}: a third-party iframe's localStorage: ${storage}`);
  const since = Date.now() - 1000;
  await frame.fill({ label: 'Email address' }, 'demo@example.com');
  await frame.click({ role: 'button', name: 'Email me a code instead' });
  const code = (await latestEmail('demo@example.com', since)).text.match(/\b(\d{6})\b/)?.[1];
  assert.ok(code, 'the email holds a 6-digit code');
  await frame.fill({ label: '6-digit code' }, code);
  await frame.click({ role: 'button', name: 'Sign in' });
  await frame.waitFor({ role: 'heading', level: 1, name: /Dana/ });
  // Portal → page: who signed in. Page → portal → page: the customer's data.
  await page.waitFor({ text: `login: profile ${DEMO_ID}` });
  await page.click({ role: 'button', name: 'Get customer data' });
  await page.waitFor({ text: 'demo@example.com', within: { css: '#customer-data' } });
  // Page → portal: the address after a navigation inside the frame.
  await frame.click({ role: 'link', name: 'My Details' });
  await page.waitFor({ text: `${PORTAL_ORIGIN}/profile`, within: { css: '#portal-address' } });
  await frame.waitFor({ role: 'heading', level: 1, name: 'My Details' });
  assert.equal(await page.evaluate(() => window.partnerPortal.getUrl()), `${PORTAL_ORIGIN}/profile`);

  // A new load of the partner page: the session was kept only where the iframe had storage.
  frame = await openPartner(page);
  if (storage === 'available') {
    await frame.waitFor({ role: 'heading', level: 1, name: /Dana/ });
    // Partitioned by the top site: the same browser on the portal's own site is not signed in.
    await page.goto(`${BASE}/home`);
    await page.waitFor({ role: 'heading', name: 'Please log in to continue' });
    frame = await openPartner(page);
    await frame.waitFor({ role: 'heading', level: 1, name: /Dana/ });
    await page.click({ role: 'button', name: 'Sign out' });
    await frame.waitFor({ role: 'heading', name: 'Logged out securely' });
  } else {
    assert.equal(storage, 'SecurityError', 'storage refused the standard way');
    await frame.waitFor({ label: 'Email address' });
  }
  await assertNoErrors(page, 'the partner page and the portal in it');
});

test('a page that is not on the allow-list cannot frame the portal', async () => {
  const { page } = engine;
  const res = await fetch(`${BASE}/`);
  const csp = res.headers.get('content-security-policy');
  assert.match(csp, new RegExp(`frame-ancestors 'self' .*http://127\\.0\\.0\\.1:${PARTNER_PORT}`));
  assert.doesNotMatch(csp, new RegExp(`:${FOREIGN_PORT}`));
  await page.goto(`${foreign.url}frame.html`);
  await page.waitFor({ role: 'heading', name: 'Another site' });
  const frame = await page.frame('iframe');
  // The refused document never runs: no portal root appears (it would within a second).
  const shown = await frame
    .waitForFunction(() => (document.querySelector('#root') ? location.href : null), null, { timeout: 2000 })
    .catch(() => null);
  assert.equal(shown, null, `${ENGINE} showed the portal inside a page not on the allow-list`);
});
