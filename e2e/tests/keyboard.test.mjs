// Issue 13, accessibility: a member's journeys by keyboard alone (no mouse, no tap), in English on
// a desktop and in Arabic (right to left) on a phone: sign in with the emailed code, move between
// the tabs, edit and save My Details, open an order and a reward, log out. Every element that
// takes the focus on the way shows it (an outline or a ring of at least 3:1 against what is
// behind it, not cut off by a scrolling box), the focus moves in reading order (right to left in
// Arabic), and after each route change it is on the new page's main heading, from where the
// next Tab goes on into that page.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, api, latestEmail, newPage } from './helpers.mjs';

/** What has the focus, and how its focus indicator looks. */
function describeFocus() {
  const el = document.activeElement;
  if (!el || el === document.body) return null;
  const css = getComputedStyle(el);
  const parse = (c) => {
    const m = c.match(/rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)/);
    return m ? { rgb: [+m[1], +m[2], +m[3]], a: m[4] === undefined ? 1 : +m[4] } : null;
  };
  // The colour behind the indicator: the first ancestor's opaque background.
  let backdrop = [255, 255, 255];
  for (let p = el.parentElement; p; p = p.parentElement) {
    const bg = parse(getComputedStyle(p).backgroundColor);
    if (bg && bg.a > 0.5) {
      backdrop = bg.rgb;
      break;
    }
    if (p === document.documentElement) backdrop = parse(getComputedStyle(document.body).backgroundColor)?.rgb ?? backdrop;
  }
  // How far the indicator reaches outside the element's box, and whether a box that clips its
  // overflow (a scrolling list) cuts it off.
  const width = parseFloat(css.outlineWidth) || 0;
  const reach = css.outlineStyle === 'none' ? 0 : Math.max(0, (parseFloat(css.outlineOffset) || 0) + width);
  const r = el.getBoundingClientRect();
  let clipped = false;
  for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
    const o = getComputedStyle(p);
    if (o.overflowX === 'visible' && o.overflowY === 'visible') continue;
    const c = p.getBoundingClientRect();
    if (r.top - reach < c.top - 0.5 || r.bottom + reach > c.bottom + 0.5) clipped = true;
    const inView = r.left >= c.left && r.right <= c.right;
    if (inView && (r.left - reach < c.left - 0.5 || r.right + reach > c.right + 0.5)) clipped = true;
  }
  return {
    tag: el.tagName.toLowerCase(),
    id: el.id,
    cls: el.className && typeof el.className === 'string' ? el.className : '',
    href: el.getAttribute('href'),
    type: el.getAttribute('type'),
    text: (el.getAttribute('aria-label') || el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 200),
    inMain: Boolean(el.closest('main')),
    inHeader: Boolean(el.closest('header')),
    inNav: Boolean(el.closest('nav')),
    isMainHeading: el.tagName === 'H1' && Boolean(el.closest('main')),
    // A date field's focus moves between its own parts (the calendar button is not :focus-visible).
    focusVisible: el.matches(':focus-visible') || (el.type === 'date' && el.matches(':focus-within')),
    outline: { style: css.outlineStyle, width, colour: parse(css.outlineColor)?.rgb ?? null },
    boxShadow: css.boxShadow,
    backdrop,
    clipped,
    left: el.offsetLeft,
  };
}

const luminance = ([r, g, b]) => {
  const c = [r, g, b].map((v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
};
const contrast = (a, b) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
};

/** The focused element shows a focus indicator that can be seen. */
function assertIndicator(f, where) {
  const what = `${where}: ${f.tag}${f.id ? `#${f.id}` : ''} "${f.text}"`;
  assert.ok(f.focusVisible, `${what} does not match :focus-visible`);
  const ring = f.boxShadow && f.boxShadow !== 'none';
  const outline = f.outline.style !== 'none' && f.outline.width >= 2;
  assert.ok(
    outline || ring,
    `${what} shows no focus indicator (outline ${f.outline.style} ${f.outline.width}px, box-shadow ${f.boxShadow})`,
  );
  if (outline) {
    const ratio = contrast(f.outline.colour, f.backdrop);
    assert.ok(
      ratio >= 3,
      `${what}: its focus outline rgb(${f.outline.colour}) has ${ratio.toFixed(2)}:1 against rgb(${f.backdrop}) behind it (at least 3:1)`,
    );
    assert.ok(!f.clipped, `${what}: its focus outline is cut off by a box that clips its overflow`);
  }
}

const focused = async (page) => page.evaluate(describeFocus);

/**
 * Presses Tab (or Shift+Tab) until the focus is on what `match` accepts, checking the indicator
 * of everything on the way. Returns every stop, the last one being the match.
 */
async function tabTo(page, match, { back = false, max = 60, where = '' } = {}) {
  const stops = [];
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const f = await focused(page);
    if (!f) continue;
    assertIndicator(f, `${where} (Tab ${i + 1})`);
    stops.push(f);
    if (match(f)) return stops;
  }
  throw new Error(
    `${where}: not reached with ${max} presses of ${back ? 'Shift+Tab' : 'Tab'}; went through:\n${stops.map((s) => `${s.tag}#${s.id}.${s.cls} "${s.text}"`).join('\n')}`,
  );
}

/** After a route change: the focus lands on the new page's main heading, and shows. */
async function focusOnHeading(page, where) {
  await page
    .waitForFunction(() => document.activeElement?.tagName === 'H1' && document.activeElement.closest('main'), null, { timeout: 10_000 })
    .catch(async () => {
      throw new Error(`${where}: the focus did not move to the page's main heading (it is on ${JSON.stringify(await focused(page))})`);
    });
  const f = await focused(page);
  assertIndicator(f, where);
  // The new heading is also said by the polite live region: its text as focused, or as it became
  // (Home's greeting gets the member's name once the profile is in).
  await page.waitForFunction((first) => {
    const now = document.activeElement.textContent.trim().replace(/\s+/g, ' ');
    return [...document.querySelectorAll('[aria-live="polite"][aria-atomic="true"]')].some((r) => {
      const said = r.textContent.trim().replace(/\s+/g, ' ');
      return said && (said === first || said === now);
    });
  }, f.text);
  return f;
}

async function journey({ lang, viewport }) {
  const page = await newPage(viewport);
  // Keyboard alone: the test fails if anything clicks or taps.
  await page.addInitScript(() => {
    for (const type of ['mousedown', 'pointerdown', 'touchstart']) {
      window.addEventListener(type, (e) => e.isTrusted && (window.__pointerUsed = true), true);
    }
  });
  const rtl = lang === 'ar';
  const email = 'demo@example.com';

  // Sign in with the emailed code.
  await page.goto(`${BASE}/?lang=${lang}`);
  await page.locator('#login-email').waitFor();
  const skip = await tabTo(page, () => true, { where: 'login' });
  assert.equal(skip[0].cls, 'skip-link', 'the first Tab reaches the skip link');
  // The skip link jumps over the header: the next Tab is inside the page.
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'main', 'the skip link moves the focus to <main>');
  await tabTo(page, (f) => f.id === 'login-email', { max: 1, where: 'login, after the skip link' });
  await page.keyboard.type(email);
  // The second way in: the button after the form ("Email me a code instead").
  const since = Date.now() - 1000;
  await tabTo(page, (f) => f.tag === 'button' && f.cls.includes('btn-link') && f.inMain, { where: 'login' });
  await page.keyboard.press('Enter');
  await page.locator('#login-code').waitFor();
  const step = await focused(page);
  assert.equal(step?.id, 'login-title', `the code step's heading has the focus (not ${JSON.stringify(step)})`);
  const mail = await latestEmail(email, { after: since });
  const code = mail.text.match(/\b(\d{6})\b/)?.[1];
  assert.ok(code, `a code in ${mail.text}`);
  await tabTo(page, (f) => f.id === 'login-code', { where: 'code' });
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
  await page.waitForURL((u) => u.pathname === '/home');
  await focusOnHeading(page, 'Home');
  assert.equal(await page.evaluate(() => document.documentElement.lang), lang);
  const token = await page.evaluate(() => localStorage.getItem('portal.auth'));
  const before = (await api(token, 'GET', '/api/profile')).body;

  // Move between the tabs: each one reached by Tab in reading order, opened with Enter.
  const positions = [];
  for (const href of ['/profile', '/transactions', '/rewards', '/offers', '/home']) {
    // The tabs come before the page: back up from the page's heading.
    const stops = await tabTo(page, (f) => f.inNav && f.href === href, { back: true, where: `to the ${href} tab` });
    positions.push(stops.at(-1).left);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => u.pathname === href);
    await focusOnHeading(page, href);
    // From the heading, the next Tab goes on into the page (not back to the top of the frame).
    if (href !== '/home') {
      const [next] = await tabTo(page, () => true, { where: `after the ${href} heading` });
      assert.ok(next.inMain, `${href}: after the heading, Tab went to ${JSON.stringify(next)} outside the page`);
    }
  }
  // Reading order: right to left in Arabic, left to right otherwise (Home is the first tab).
  const order = [positions.at(-1), ...positions.slice(0, 4)];
  for (let i = 1; i < order.length; i++) {
    assert.ok(rtl ? order[i] < order[i - 1] : order[i] > order[i - 1], `tabs in reading order (${lang}): ${order.join(', ')}`);
  }

  // Edit and save My Details (the first name, put back afterwards).
  try {
    await tabTo(page, (f) => f.inNav && f.href === '/profile', { back: true, where: 'to My Details' });
    await page.keyboard.press('Enter');
    await focusOnHeading(page, '/profile');
    await page.locator('#pf-first_name').waitFor();
    await tabTo(page, (f) => f.id === 'pf-first_name', { where: 'My Details' });
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('Keyboard');
    await tabTo(page, (f) => f.tag === 'button' && f.type === 'submit', { where: 'My Details save' });
    await page.keyboard.press('Enter');
    await page.locator('.toast--success').first().waitFor();
    await page.waitForFunction(() => document.querySelector('.dl dd')?.textContent.includes('Keyboard'));
    assert.equal((await api(token, 'GET', '/api/profile')).body.first_name, 'Keyboard', 'saved');
  } finally {
    await api(token, 'PUT', '/api/profile', { first_name: before.first_name });
  }

  // Open an order: its button expands it in place, the focus stays on it.
  await tabTo(page, (f) => f.inNav && f.href === '/transactions', { back: true, where: 'to My Orders' });
  await page.keyboard.press('Enter');
  await focusOnHeading(page, '/transactions');
  await page.locator('.order__toggle').first().waitFor();
  await tabTo(page, (f) => f.cls.includes('order__toggle'), { where: 'an order' });
  await page.keyboard.press('Enter');
  const opened = await page.evaluate(() => document.activeElement.getAttribute('aria-expanded'));
  assert.equal(opened, 'true', 'Enter opens the order');
  await page.keyboard.press('Space');
  assert.equal(await page.evaluate(() => document.activeElement.getAttribute('aria-expanded')), 'false', 'Space closes it');

  // Open a reward: its link goes to the reward's own page, whose heading takes the focus.
  await tabTo(page, (f) => f.inNav && f.href === '/rewards', { back: true, where: 'to Rewards' });
  await page.keyboard.press('Enter');
  await focusOnHeading(page, '/rewards');
  await page.locator('a.reward__name').first().waitFor();
  await tabTo(page, (f) => f.cls.includes('reward__name'), { where: 'a reward' });
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/rewards\/item\/\d+$/);
  await focusOnHeading(page, 'a reward');

  // Log out: the header's button, back up with Shift+Tab; the Logged out screen's heading.
  await tabTo(page, (f) => f.inHeader && f.tag === 'button', { back: true, where: 'to Log out' });
  await page.keyboard.press('Enter');
  await page.waitForURL((u) => u.pathname === '/logged-out');
  await focusOnHeading(page, 'Logged out');
  assert.equal(await page.evaluate(() => window.__pointerUsed ?? false), false, 'no mouse or touch was used');
  assert.deepEqual(page.errors, []);
  await page.context().close();
}

test(
  'by keyboard alone, in English on a desktop: sign in with a code, the tabs, My Details, an order, a reward, log out',
  { timeout: 120_000 },
  () => journey({ lang: 'en', viewport: { width: 1280, height: 900 } }),
);

test('by keyboard alone, in Arabic on a phone (right to left): the same journey', { timeout: 120_000 }, () =>
  journey({ lang: 'ar', viewport: { width: 390, height: 844 } }),
);
