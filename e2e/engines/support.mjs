// What the engine journeys share: the engine under test (ENGINE), the portal, the dev outbox, the
// API, signing in. (tests/helpers.mjs starts Chromium when imported, so it is not used here.)
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { launch } from './drivers.mjs';

export const BASE = process.env.PORTAL_URL ?? 'http://localhost:8080';
export const ENGINE = process.env.ENGINE ?? 'firefox';

/** The engine for this file: one browser, one page, launched once (the signed-in state is reused). */
export function useEngine() {
  const state = {};
  before(async () => {
    Object.assign(state, await launch(ENGINE));
    console.log(`# engine ${ENGINE}: ${state.version}`);
  });
  after(async () => {
    await state.close?.();
  });
  return state;
}

/**
 * Fails with what the page reported as errors since the last call (console errors, uncaught).
 * WebKit (classic WebDriver: no console log) records them from the moment each page has loaded.
 */
export async function assertNoErrors(page, where, { offline = false } = {}) {
  // Offline, the engine's own report of each request the network refused is expected.
  const errors = (await page.errors()).filter((e) => !(offline && /^Failed to load resource: net::ERR_INTERNET_DISCONNECTED$/.test(e)));
  assert.deepEqual(errors, [], `${ENGINE}: errors in the page (${where})`);
}

/** The newest email to `to` in the dev outbox, sent after `since`. */
export async function latestEmail(to, since) {
  for (let i = 0; i < 100; i++) {
    const list = await (await fetch(`${BASE}/_dev/outbox.json`)).json();
    const m = list.find((x) => x.to === to && Date.parse(x.sent_at) >= since);
    if (m) return m;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no email to ${to}`);
}

/** A call to the API as the member holding `token`: the body (JSON). */
export async function api(token, method, path, body) {
  const res = await fetch(`${BASE}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', Accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

/** The session token the page keeps. */
export const tokenOf = (page) => page.evaluate(() => localStorage.getItem('portal.auth'));

/** Asks for a sign-in email on the login page (already open) and returns it. */
export async function requestEmail(page, email, button) {
  const since = Date.now() - 1000;
  await page.fill({ label: 'Email address' }, email);
  await page.click({ role: 'button', name: button });
  return latestEmail(email, since);
}

/** Signs in with the emailed link: opens it, taps Continue, waits for the redirect (/home). */
export async function signInByLink(page, email = 'demo@example.com') {
  await page.goto(`${BASE}/`);
  const mail = await requestEmail(page, email, 'Email me a sign-in link');
  await page.goto(mail.link);
  await page.click({ role: 'button', name: 'Continue' });
  await page.waitForPath(new URL(mail.link).searchParams.get('redirect') || '/home');
  return mail;
}
