#!/usr/bin/env node
// Lighthouse 12 (mobile, simulated throttling) against the running portal, in Debian's
// Chromium, on the pages a phone user opens first: / (the login page) and /home signed in (the
// demo member's session in the browser's storage, as a returning member has it). Prints the
// scores and measures and exits 1 when any target is missed:
//   performance >= 98 on / and >= 95 on /home, accessibility 100, LCP <= 1.2 s, CLS <= 0.01,
//   JavaScript as transferred (compressed, what the phone downloads) <= 150 KB.
// Both pages are drawn at build time (the shell's prerender), so a phone paints them from their
// HTML before any script has run; their scripts start once that paint is done. What remains of
// blocking time is the evaluation of the shell's main chunk and React's, each a task of 15-45 ms
// on this 2-core machine, which the simulated phone stretches 4x. On 2026-11-26, idle (host
// benchmark 1700-2800, 4x), median of 5: / performance 100, LCP 0.91 s, TBT 33 ms; /home
// performance 100, LCP 0.88 s, TBT 17 ms (single runs: 95-100). A CI run on a slower or busier
// host measured TBT 190-380 ms at 4x, which the CPU calibration below is for.
// PORTAL_URL (default http://localhost:8080) must be a dev-mode portal (the sign-in code is read
// from its outbox). PAGE_URL (default PORTAL_URL): where the browser opens the pages, e.g. the
// HTTPS + HTTP/2 front (h2-front.mjs) that tools/lighthouse.sh puts before the portal, as the
// ingress is in production; CERT_SPKI: that front's certificate's key hash, which the browser is
// told to trust. CHROME_PATH (default /usr/bin/chromium). LIGHTHOUSE_JSON=dir keeps every run's
// report (login-run1.json ... home-run5.json): its long-tasks audit shows what blocked.
import fs from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import puppeteer from 'puppeteer-core';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';

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

// The simulated phone's CPU is this host's slowed down by Lighthouse's default 4x, which its
// docs (throttling.md, "Calibrating the CPU slowdown") pair with a high-end desktop host:
// BenchmarkIndex 1500 and up. A host below that, a slower CI runner or one busy with something
// else, gets the multiplier lowered in proportion, as those docs advise, so the phone stays the
// same phone and the targets judge the page rather than the runner; a faster host keeps 4x.
// The index is Lighthouse's own benchmark, run in the browser just before each audit.
const DESKTOP_BENCHMARK = 1500;
const DEFAULT_SLOWDOWN = 4;

async function hostBenchmark(chrome) {
  const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
  try {
    const page = await browser.newPage();
    const index = await page.evaluate(`(${pageFunctions.computeBenchmarkIndex.toString()})()`);
    await page.close();
    return index;
  } finally {
    await browser.disconnect();
  }
}

async function audit(chrome, url, { keepStorage = false, benchmark } = {}) {
  const cpuSlowdownMultiplier = Math.max(1, Math.min(DEFAULT_SLOWDOWN, (DEFAULT_SLOWDOWN * benchmark) / DESKTOP_BENCHMARK));
  const result = await lighthouse(url, {
    port: chrome.port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
    disableStorageReset: keepStorage,
    throttling: { cpuSlowdownMultiplier },
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
    benchmarkIndex: Math.round(benchmark),
    slowdown: lhr.configSettings.throttling.cpuSlowdownMultiplier,
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
  const median = async (name, measure) => {
    const runs = [];
    for (let i = 0; i < RUNS; i++) {
      const r = await measure();
      runs.push(r);
      if (process.env.LIGHTHOUSE_JSON) {
        fs.mkdirSync(process.env.LIGHTHOUSE_JSON, { recursive: true });
        fs.writeFileSync(path.join(process.env.LIGHTHOUSE_JSON, `${name}-run${i + 1}.json`), JSON.stringify(r.lhr));
      }
      console.log(
        `    run ${i + 1}: performance ${r.performance}, LCP ${(r.lcpMs / 1000).toFixed(2)} s, TBT ${r.tbtMs} ms, CLS ${r.cls.toFixed(3)}, JS ${r.jsKB.toFixed(1)} KB, host benchmark ${r.benchmarkIndex}, CPU ${r.slowdown.toFixed(1)}x`,
      );
    }
    const lhr = computeMedianRun(runs.map((r) => r.lhr));
    // Judged on the median run, but the JavaScript on the most any run downloaded: a run whose
    // scripts came from a cache would otherwise pass the size target unmeasured.
    return { ...(runs.find((r) => r.lhr === lhr) ?? runs[0]), jsKB: Math.max(...runs.map((r) => r.jsKB)) };
  };
  pages.push(['/', await median('login', async () => audit(chrome, `${PAGES}/`, { benchmark: await hostBenchmark(chrome) }))]);
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
    return audit(chrome, `${PAGES}/home`, { keepStorage: true, benchmark: await hostBenchmark(chrome) });
  };
  pages.push(['/home', await median('home', signedIn)]);

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
  }
} finally {
  await chrome.kill();
}
process.exit(failed ? 1 : 0);
