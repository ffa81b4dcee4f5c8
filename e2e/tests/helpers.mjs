// Shared by the browser tests: one Chromium (Debian's), a page per test, the dev outbox.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';
import { launchChromium } from '../chromium.mjs';

export const BASE = process.env.PORTAL_URL ?? 'http://localhost:8080';
export const STATIC_DIR = process.env.PORTAL_STATIC_DIR;

let browser;
// Anything the portal's Content-Security-Policy blocked (but the frame-ancestors refusals the
// embedding tests provoke on purpose): the run fails if there is any.
const cspViolations = [];

before(async () => {
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  if (cspViolations.length) throw new Error(`Content-Security-Policy violations:\n${cspViolations.join('\n')}`);
});

/**
 * A fresh browser context (no stored session) and page. `serviceWorkers: 'block'` keeps the
 * portal's service worker out (page.route cannot see what the worker answers from its cache).
 */
export async function newPage({ width = 390, height = 844, serviceWorkers = 'allow', ...contextOptions } = {}) {
  const context = await browser.newContext({ viewport: { width, height }, serviceWorkers, ...contextOptions });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors = [];
  page.on('pageerror', (e) => errors.push(e));
  page.on('console', (m) => {
    const text = m.text();
    if (/Content Security Policy/i.test(text) && !/frame-ancestors/.test(text)) cspViolations.push(`${page.url()}: ${text}`);
  });
  page.errors = errors;
  return page;
}

/** The newest email to `to` in the dev outbox. */
export async function latestEmail(to, { after: since = 0 } = {}) {
  for (let i = 0; i < 50; i++) {
    const res = await fetch(`${BASE}/_dev/outbox.json`);
    const list = await res.json();
    const m = list.find((x) => x.to === to && Date.parse(x.sent_at) >= since);
    if (m) return m;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no email to ${to}`);
}

/**
 * Signs in through the login page and the emailed link: opens the link, taps Continue (the link
 * is only used then) and waits until the portal has left the landing screen for the redirect.
 * Returns the email.
 */
export async function signIn(page, email = 'demo@example.com', startPath = '/') {
  const since = Date.now() - 1000;
  await page.goto(`${BASE}${startPath}`);
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByText('If that address has an account, a sign-in link is on its way.').waitFor();
  const mail = await latestEmail(email, { after: since });
  await page.goto(mail.link);
  const expected = new URL(mail.link).searchParams.get('redirect') || '/home';
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((u) => u.pathname === expected);
  return mail;
}

/**
 * A stand-in native wrapper (add it with page.addInitScript): records every analytics event the
 * page sends (`window.__analytics`, e.g. `screen_view:Rewards`) and the other actions it posts
 * (`window.__native`).
 */
export function recordAnalytics() {
  window.__analytics = [];
  window.__native = [];
  window.ReactNativeWebView = {
    postMessage(message) {
      const m = JSON.parse(message);
      if (m.action === 'firebaseAnalytics') window.__analytics.push(`${m.type}:${m.name}`);
      else window.__native.push(m.action);
    },
  };
}

/** A call to the portal's API as the member holding `token`: `{ status, body }`. */
export async function api(token, method, path, body) {
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** Every file under `dir` (its path relative to `dir`) with its SHA-256: what a publish must not touch. */
export function tree(dir) {
  const out = new Map();
  const walk = (d) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(path.relative(dir, p), crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}

/**
 * A screenshot to look at, written only when E2E_SCREENS names a directory (the README's
 * docs/screens come from such a run): of a page (`fullPage`: all of it) or of one element (a
 * locator); `name` is the file's name.
 */
export async function shoot(target, name, { fullPage = true } = {}) {
  const dir = process.env.E2E_SCREENS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  // Dialogs and steps fade in: let them finish.
  await new Promise((r) => setTimeout(r, 250));
  const file = path.join(dir, name);
  await (typeof target.goto === 'function' ? target.screenshot({ path: file, fullPage }) : target.screenshot({ path: file }));
}
