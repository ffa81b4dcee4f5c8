// Issue 13, accessibility: axe-core finds no WCAG 2.0 / 2.1 / 2.2 A or AA violation (target sizes
// included) nor any of its best-practice findings (landmarks, heading structure) on every page of
// the spec's route table (section 2) and on the screens off it (login and its code step, the
// sign-in link's landing, not logged in, logged out, not found, a remote that failed to load, the
// staff search and the view as a member, a confirmation dialog, an opened order, forms showing
// their errors, toasts), in English and in Arabic (right to left), on a phone (390×844) and on a
// desktop (1280×900); on the desktop every page is also checked for colour contrast in the
// portal's default colours (without the tenant's theme), so a tenant that sets no theme is
// covered too. The member's card and the offline state are checked too, and so are the store
// and event pages (a store, an unknown store, an event's sign-up form, a finished and an unknown
// event), the change of the sign-in address (its dialog, a refused address), its undo screen (and
// a link that can't be used) and an already-used sign-in link opened while signed in.
//
// axe is put into the page with page.evaluate(source), which goes through the DevTools protocol:
// the portal's Content-Security-Policy (`script-src 'self'`) governs the page's own scripts, not
// what the automation evaluates, so nothing is blocked and the suite's CSP-violation check stays
// on (addScriptTag would add an inline <script> the policy refuses, unless the context bypassed
// CSP, which would also hide real violations).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { BASE, latestEmail, newPage } from './helpers.mjs';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Counts the page's requests in flight, for `settle` (client-side navigation has no load event). */
function trackRequests(page) {
  let inflight = 0;
  let last = Date.now();
  const up = () => {
    inflight += 1;
    last = Date.now();
  };
  const down = () => {
    inflight = Math.max(0, inflight - 1);
    last = Date.now();
  };
  page.on('request', up);
  page.on('requestfinished', down);
  page.on('requestfailed', down);
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) inflight = 0;
  });
  /** Resolves once no request has been in flight for `ms` (at most `max`). */
  page.quiet = async (ms = 300, max = 5000) => {
    for (const end = Date.now() + max; Date.now() < end; await sleep(50)) {
      if (inflight === 0 && Date.now() - last >= ms) return;
    }
  };
}

/** Waits until the page has drawn its screen: a main heading, nothing loading, the network quiet. */
async function settle(page) {
  await page.waitForFunction(() => {
    const main = document.querySelector('main');
    if (!main || !main.querySelector('h1')) return false;
    if (main.querySelector('.skeleton, [aria-busy="true"]')) return false;
    return !document.querySelector('.progress');
  });
  await page.quiet();
  await page.evaluate(() => document.fonts.ready);
}

/**
 * Goes to `path` as the portal's own links do (history and the runtime's location event), and
 * waits until the shell has put the focus on the new page's heading, i.e. the page is drawn.
 */
async function go(page, path) {
  await page.evaluate((to) => {
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    window.history.pushState(window.history.state, '', to);
    window.dispatchEvent(new Event('portal:locationchange'));
  }, path);
  await page.waitForFunction(() => {
    const a = document.activeElement;
    return a && (a.id === 'main' || (a.tagName === 'H1' && a.closest('main')));
  });
}

/** Runs axe on the page as it is; returns its violations (what failed, where, how to fix it). */
async function axe(page, options, include) {
  if (!(await page.evaluate(() => Boolean(window.axe)))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(
    ([opts, only]) =>
      window.axe.run(only ? { include: [[only]] } : document, { resultTypes: ['violations'], ...opts }).then((r) =>
        r.violations.map((v) => ({
          id: v.id,
          impact: v.impact,
          help: v.help,
          helpUrl: v.helpUrl,
          nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary })),
        })),
      ),
    [options, include ?? null],
  );
}

// The tenant's theme is written on <html style> (runtime applyTheme); without it the stylesheet's
// own colours apply.
const THEME_VARS = [
  '--color-primary',
  '--color-on-primary',
  '--color-accent',
  '--color-bg',
  '--color-surface',
  '--color-text',
  '--color-muted',
];

/**
 * Collects the violations of each checked screen; `assertNone` fails with all of them at once.
 * With `defaultColours`, each screen's contrast is also checked without the tenant's theme.
 */
function auditor(label, { defaultColours = false } = {}) {
  const found = [];
  return {
    /** Checks the page once it has settled, or at once only what `include` selects (a toast). */
    async check(page, screen, include) {
      if (!include) await settle(page);
      const where = `[${label}] ${screen} (${new URL(page.url()).pathname})`;
      for (const v of await axe(page, { runOnly: { type: 'tag', values: TAGS } }, include)) found.push({ where, ...v });
      if (!defaultColours) return;
      // The same screen in the stylesheet's default colours.
      const style = await page.evaluate((vars) => {
        const s = document.documentElement.style;
        const saved = s.cssText;
        for (const v of vars) s.removeProperty(v);
        return saved;
      }, THEME_VARS);
      try {
        for (const v of await axe(page, { runOnly: { type: 'rule', values: ['color-contrast'] } }, include)) {
          found.push({ where: `${where} in the default colours`, ...v });
        }
      } finally {
        await page.evaluate((saved) => {
          document.documentElement.style.cssText = saved;
        }, style);
      }
    },
    assertNone() {
      if (!found.length) return;
      const text = found
        .map(
          (v) =>
            `${v.where}: ${v.id} (${v.impact}) ${v.help}\n    ${v.helpUrl}\n` +
            v.nodes.map((n) => `    - ${n.target}\n        ${n.summary.replace(/\n/g, '\n        ')}`).join('\n'),
        )
        .join('\n');
      assert.fail(`axe found ${found.length} violation(s):\n${text}`);
    },
  };
}

/** Checks the toast on show right away, then closes it with its button. */
async function toast(page, audit, screen) {
  const shown = page.locator('.toast:not(.toast--out)').first();
  await shown.waitFor();
  await audit.check(page, screen, '.toasts');
  await shown.locator('.toast__close').click();
  await page.locator('.toast').first().waitFor({ state: 'detached' });
}

/** The screen as it is while the connection is gone (the banner, writes off with their reason). */
async function offline(page, audit, screen) {
  await page.context().setOffline(true);
  await page.locator('.banner--offline').waitFor();
  await audit.check(page, screen);
  await page.context().setOffline(false);
  await page.locator('.banner--offline').waitFor({ state: 'detached' });
}

/**
 * Signs in with the emailed link in any language (by element, not by text), checking the login
 * page, the "check your inbox" step and the link's landing on the way.
 */
async function signInChecked(page, audit, email, lang) {
  const since = Date.now() - 1000;
  await page.goto(`${BASE}/${lang === 'en' ? '' : `?lang=${lang}`}`);
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
  await audit.check(page, 'login');
  await page.locator('#login-email').fill(email);
  await page.locator('main form button[type="submit"]').click();
  await page.locator('main [role="status"]').waitFor();
  await audit.check(page, 'login: link sent');
  const mail = await latestEmail(email, { after: since });
  await page.goto(mail.link);
  const landing = page.locator('section[aria-labelledby="link-title"]');
  await landing.waitFor();
  await audit.check(page, 'sign-in link landing');
  await landing.locator('button.btn').click();
  await page.waitForURL((u) => u.pathname === '/home');
  return mail;
}

/** Signs in and checks every screen a member and a visitor see, in one language and size. */
async function memberScreens(viewport, lang, label, defaultColours) {
  const audit = auditor(label, { defaultColours });
  // No service worker: the remote that fails to load below is made to fail with page.route.
  const page = await newPage({ ...viewport, serviceWorkers: 'block' });
  trackRequests(page);
  const mail = await signInChecked(page, audit, 'demo@example.com', lang);
  // Signing in applies the member's saved language (English); the URL's language wins over it,
  // and stays chosen for the pages after.
  if (lang !== 'en') await page.goto(`${BASE}/home?lang=${lang}`);
  await page.waitForFunction((l) => document.documentElement.lang === l, lang);
  if (lang === 'ar') assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');

  await audit.check(page, 'Home');
  // The member's card, and Home offline (its last known balance).
  await page.locator('.member-card-slot > button').click();
  await page.locator('.member-card__barcode').waitFor();
  await audit.check(page, 'Home: the membership card');
  await offline(page, audit, 'offline: Home');
  for (const path of [
    '/profile',
    '/profile/privacy',
    '/size',
    '/messaging',
    '/preference',
    '/transactions',
    '/claim-transaction',
    '/rewards',
    '/offers',
  ]) {
    await go(page, path);
    await audit.check(page, path);
  }
  // A form the server refused (an empty claim): the fields' messages, and the error toast, which is
  // checked at once and then dismissed (a toast fading out would be judged half transparent).
  await go(page, '/claim-transaction');
  await settle(page);
  await page.locator('form.claim-form button[type="submit"]').click();
  await page.locator('form.claim-form [aria-invalid="true"]').first().waitFor();
  await toast(page, audit, 'claim refused: its toast');
  await audit.check(page, 'claim refused: the fields');
  // My Details saved without a change: its information toast.
  await go(page, '/profile');
  await settle(page);
  await page.locator('#pf-first_name').waitFor();
  await page.locator('form:has(#pf-first_name) button[type="submit"]').click();
  await toast(page, audit, 'My Details: nothing changed');
  await offline(page, audit, 'offline: My Details');
  // Changing the sign-in address: the dialog, and an address it refuses before sending anything.
  await page.locator('.email-address button.btn').click();
  const change = page.locator('dialog[open]');
  await change.locator('input[type="email"]').waitFor();
  await audit.check(page, 'My Details: change email');
  await change.locator('input[type="email"]').fill('not an address');
  await change.locator('button[type="submit"]').click();
  await change.locator('input[aria-invalid="true"]').waitFor();
  await audit.check(page, 'My Details: change email, a refused address');
  await page.keyboard.press('Escape');
  await change.waitFor({ state: 'detached' });
  // The sign-in link used above, opened again while signed in: the session stays, and it says so.
  await page.goto(mail.link);
  await page.locator('section[aria-labelledby="link-title"] button.btn').click();
  await page.locator('#link-title[tabindex="-1"]').waitFor();
  await audit.check(page, 'a used sign-in link while signed in');
  await page.locator('section[aria-labelledby="link-title"] button.btn').click();
  await page.waitForURL((u) => u.pathname === '/home');
  // An opened order (its items and actions).
  await go(page, '/transactions');
  await page.locator('.order__toggle').first().click();
  await page.locator('.order__toggle[aria-expanded="true"]').waitFor();
  await audit.check(page, 'an opened order');

  // A confirmation dialog (Rewards: redeem a reward), then a reward's own page.
  await go(page, '/rewards');
  await settle(page);
  await page.locator('.catalogue-item .catalogue-item__action button.btn:not(.btn-off)').first().click();
  const dialog = page.locator('dialog[open]');
  await dialog.waitFor();
  await audit.check(page, 'redeem confirmation dialog');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  const reward = await page.locator('a[href^="/rewards/item/"]').first().getAttribute('href');
  await go(page, reward);
  await audit.check(page, 'Rewards Item Detail');

  // The store and event pages (found, unknown, finished), and an unknown path.
  for (const path of [
    '/event/spring-launch',
    '/event/winter-sale-2025',
    '/event/summer',
    '/loc/melbourne-central',
    '/loc/atlantis',
    '/no-such-page',
  ]) {
    await go(page, path);
    await audit.check(page, `${path} (signed in)`);
  }

  // A remote that cannot be loaded: its pages say so, with a retry.
  await page.route('**/mfe/mfe-orders/**', (route) => route.abort());
  await page.goto(`${BASE}/transactions`);
  await page.locator('section[aria-labelledby="status-title"] button.btn').waitFor();
  await audit.check(page, 'remote failed');
  await page.unroute('**/mfe/mfe-orders/**');

  // Logging out ends on the Logged out screen; then a protected page asks to log in.
  await go(page, '/home');
  await settle(page);
  await page.locator('header button.btn-link').click();
  await page.waitForURL((u) => u.pathname === '/logged-out');
  await audit.check(page, 'logged out');
  await go(page, '/profile');
  await audit.check(page, 'not logged in');
  await go(page, '/no-such-page');
  await audit.check(page, 'not found (signed out)');
  // Undoing a change of the sign-in address (the link to the old address), then a link that can't be used.
  await go(page, '/email-change/undo?key=not-a-key-of-ours');
  await audit.check(page, 'undo an email change');
  await page.locator('main .undo-email button.btn').click();
  await page.locator('main .undo-email a.btn').waitFor();
  await audit.check(page, 'undo an email change: the link unusable');
  // The code step of the login page.
  await go(page, '/');
  await settle(page);
  // "Create an account" (the page's last link-button, after the code by email and by text).
  await page.locator('main form ~ p button.btn-link').last().click();
  await page.locator('#register-title').waitFor();
  await audit.check(page, 'login: create an account');
  await page.goto(`${BASE}/`);
  await settle(page);
  // An address refused before it is sent, then the code step ("Email me a code instead", the
  // first of the link-buttons under the form).
  const emailCode = page.locator('main form ~ p button.btn-link').first();
  await page.locator('#login-email').fill('not an address');
  await emailCode.click();
  await page.locator('#login-email[aria-invalid="true"]').waitFor();
  await audit.check(page, 'login: a refused address');
  await page.locator('#login-email').fill('demo@example.com');
  await emailCode.click();
  await page.locator('#login-code').waitFor();
  await audit.check(page, 'login: enter the code');
  // The remote's failure provoked above is the only error the page may have had.
  assert.deepEqual(
    page.errors.filter((e) => !/'mfe_orders' died in status LOADING_SOURCE_CODE/.test(e.message)),
    [],
  );
  await page.context().close();
  audit.assertNone();
}

/** Staff: the member search with its results, and the portal viewed as that member. */
async function staffScreens(viewport, lang, label, defaultColours) {
  const audit = auditor(label, { defaultColours });
  const page = await newPage(viewport);
  trackRequests(page);
  const since = Date.now() - 1000;
  await page.goto(`${BASE}/${lang === 'en' ? '' : `?lang=${lang}`}`);
  await page.locator('#login-email').fill('staff@example.com');
  await page.locator('main form button[type="submit"]').click();
  await page.locator('main [role="status"]').waitFor();
  const mail = await latestEmail('staff@example.com', { after: since });
  await page.goto(mail.link);
  await page.locator('section[aria-labelledby="link-title"] button.btn').click();
  await page.locator('#staff-query').waitFor();
  await audit.check(page, 'staff: find a member');
  await page.locator('#staff-type').selectOption('email');
  await page.locator('#staff-query').fill('other@example.com');
  await page.locator('form[role="search"] button[type="submit"]').click();
  await page.locator('.staff-result').first().waitFor();
  await audit.check(page, 'staff: search results');
  await page.locator('.staff-result button.btn').first().click();
  await page.locator('.banner--impersonation').waitFor();
  await audit.check(page, 'staff: viewing as a member (Home)');
  await go(page, '/profile');
  await page.locator('.banner--impersonation').waitFor();
  await audit.check(page, 'staff: viewing as a member (My Details)');
  await page.locator('.banner--impersonation button').click();
  await page.locator('#staff-query').waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
  audit.assertNone();
}

/**
 * The suite for one screen size (`phone`: 390×844, `desktop`: 1280×900), in English and Arabic:
 * a file per size (a11y-phone.test.mjs, a11y-desktop.test.mjs), so the two can run in parallel.
 */
export function axeSuite(size) {
  const viewport = { phone: PHONE, desktop: DESKTOP }[size];
  for (const lang of ['en', 'ar']) {
    const label = `${size} ${lang}`;
    // The default colours once per language: contrast hardly depends on the width, and it keeps
    // each file near a minute and a half.
    const defaults = viewport === DESKTOP;
    test(`axe: no violations on any member or visitor screen (${label})`, { timeout: 180_000 }, () =>
      memberScreens(viewport, lang, label, defaults),
    );
    test(`axe: no violations on the staff screens (${label})`, { timeout: 60_000 }, () => staffScreens(viewport, lang, label, defaults));
  }
}
