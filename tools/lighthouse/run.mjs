#!/usr/bin/env node
// Lighthouse 13 (mobile, default simulated throttling) against the running portal, in Debian's
// Chromium, on the pages a phone user opens first: / (the login page) and /home signed in (the
// demo member's session in the browser's storage, as a returning member has it). Prints the
// scores and measures and exits 1 when any target is missed:
//   performance >= 98 on / and >= 95 on /home, accessibility 100, LCP <= 1.2 s, CLS <= 0.01,
//   JavaScript as transferred (compressed, what the phone downloads) <= 150 KB.
// Both pages are drawn at build time (the shell's prerender), so a phone paints them from their
// HTML before any script has run; their scripts start once that paint is done. Measured on the
// 2-core dev machine in four sessions (median of 5 each) while other builds started and stopped
// beside it: / performance 99-100, LCP 0.91-1.00 s, TBT 34-111 ms; /home performance 96-100,
// LCP 0.91-0.98 s, TBT 69-235 ms; CLS 0 (every single run: LCP 0.82-1.03 s). /home's lower
// target keeps a margin: its remote's start falls in the blocking-time window, which a busy
// machine lengthens.
// PORTAL_URL (default http://localhost:8080) must be a dev-mode portal (the sign-in code is read
// from its outbox). PAGE_URL (default PORTAL_URL): where the browser opens the pages, e.g. the
// HTTPS + HTTP/2 front (h2-front.mjs) that tools/lighthouse.sh puts before the portal, as the
// ingress is in production; CERT_SPKI: that front's certificate's key hash, which the browser is
// told to trust. CHROME_PATH (default /usr/bin/chromium). LIGHTHOUSE_JSON=dir keeps reports.
import fs from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';

const BASE = (process.env.PORTAL_URL ?? 'http://localhost:8080').replace(/\/$/, '');
const PAGES = (process.env.PAGE_URL ?? BASE).replace(/\/$/, '');
// Lighthouse varies from run to run; as its docs advise, each page is measured RUNS times and
// judged on the median run (by FCP and TTI, Lighthouse's own choice).
const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 5);
const TARGETS = { performance: 98, accessibility: 100, lcpMs: 1200, cls: 0.01, jsKB: 150 };
// Where a page's target differs.
const PAGE_TARGETS = { '/home': { performance: 95 } };

/** A session for the demo member through the emailed-code flow (dev outbox). */
async function demoSession(email = 'demo@example.com') {
  const since = Date.now() - 1000;
  const post = (p, body) =>
    fetch(`${BASE}${p}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const asked = await post('/api/auth/email', { email, redirect: '/home' });
  if (!asked.ok) throw new Error(`code request: ${asked.status}`);
  for (let i = 0; i < 50; i++) {
    const list = await (await fetch(`${BASE}/_dev/outbox.json`)).json();
    const mail = list.find((m) => m.to === email && Date.parse(m.sent_at) >= since);
    const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
    if (code) {
      const res = await post('/api/auth/verify', { email, code });
      if (!res.ok) throw new Error(`verify: ${res.status}`);
      return (await res.json()).token;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('no code in the dev outbox');
}

async function audit(chrome, url, { keepStorage = false } = {}) {
  const result = await lighthouse(url, {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
    disableStorageReset: keepStorage,
  });
  const lhr = result.lhr;
  const requests = lhr.audits['network-requests'].details?.items ?? [];
  const jsBytes = requests.filter((r) => r.resourceType === 'Script').reduce((n, r) => n + (r.transferSize ?? 0), 0);
  return {
    lhr,
    performance: Math.round(lhr.categories.performance.score * 100),
    accessibility: Math.round(lhr.categories.accessibility.score * 100),
    lcpMs: Math.round(lhr.audits['largest-contentful-paint'].numericValue),
    cls: lhr.audits['cumulative-layout-shift'].numericValue,
    tbtMs: Math.round(lhr.audits['total-blocking-time'].numericValue),
    jsKB: jsBytes / 1024,
    failedA11y: lhr.categories.accessibility.auditRefs
      .map((ref) => lhr.audits[ref.id])
      .filter((a) => a.score !== null && a.score < 1)
      .map((a) => a.id),
  };
}

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    ...(process.env.CERT_SPKI ? [`--ignore-certificate-errors-spki-list=${process.env.CERT_SPKI}`] : []),
  ],
});
let failed = false;
try {
  const pages = [];
  const median = async (measure) => {
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await measure();
      runs.push(r);
      console.log(`    run ${i + 1}: performance ${r.performance}, LCP ${(r.lcpMs / 1000).toFixed(2)} s, TBT ${r.tbtMs} ms, CLS ${r.cls.toFixed(3)}`);
    }
    const lhr = computeMedianRun(runs.map((r) => r.lhr));
    return runs.find((r) => r.lhr === lhr) ?? runs[0];
  };
  pages.push(['/', await median(() => audit(chrome, `${PAGES}/`))]);
  // Signed in: the token in the browser's storage, then Lighthouse without its storage reset
  // (which would also sign the member out).
  const signedIn = async () => {
    const token = await demoSession();
    const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
    const page = await browser.newPage();
    await page.goto(`${PAGES}/logged-out`);
    await page.evaluate((t) => {
      localStorage.clear();
      localStorage.setItem('portal.auth', t);
    }, token);
    // A first load: nothing in the HTTP cache (the / audit filled it), no service worker and none
    // of its caches (the / audit's page installed it: it would answer every script), only the
    // session.
    await page.goto('about:blank');
    const cdp = await page.createCDPSession();
    await cdp.send('Storage.clearDataForOrigin', { origin: new URL(PAGES).origin, storageTypes: 'service_workers,cache_storage' });
    await cdp.send('Network.clearBrowserCache');
    await page.close();
    await browser.disconnect();
    return audit(chrome, `${PAGES}/home`, { keepStorage: true });
  };
  pages.push(['/home', await median(signedIn)]);

  for (const [p, r] of pages) {
    const misses = [];
    const t = { ...TARGETS, ...PAGE_TARGETS[p] };
    if (r.performance < t.performance) misses.push(`performance ${r.performance} < ${t.performance}`);
    if (r.accessibility < t.accessibility) misses.push(`accessibility ${r.accessibility} < 100 (${r.failedA11y.join(', ')})`);
    if (r.lcpMs > t.lcpMs) misses.push(`LCP ${r.lcpMs} ms > ${t.lcpMs}`);
    if (r.cls > t.cls) misses.push(`CLS ${r.cls.toFixed(3)} > ${t.cls}`);
    if (r.jsKB > t.jsKB) misses.push(`JS ${r.jsKB.toFixed(1)} KB > ${t.jsKB}`);
    console.log(
      `${misses.length ? 'not ok' : 'ok'} - ${p}: performance ${r.performance}, accessibility ${r.accessibility}, ` +
        `LCP ${(r.lcpMs / 1000).toFixed(2)} s, CLS ${r.cls.toFixed(3)}, TBT ${r.tbtMs} ms, JS ${r.jsKB.toFixed(1)} KB transferred` +
        (misses.length ? ` — missed: ${misses.join('; ')}` : ''),
    );
    failed ||= misses.length > 0;
    if (process.env.LIGHTHOUSE_JSON) {
      fs.mkdirSync(process.env.LIGHTHOUSE_JSON, { recursive: true });
      fs.writeFileSync(path.join(process.env.LIGHTHOUSE_JSON, `${p === '/' ? 'login' : p.slice(1)}.json`), JSON.stringify(r.lhr));
    }
  }
} finally {
  await chrome.kill();
}
process.exit(failed ? 1 : 0);
