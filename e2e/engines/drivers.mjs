// One small page API over three engines, so one journey file drives them all (issue 27):
//   firefox  Debian's firefox-esr over WebDriver BiDi (puppeteer-core; no driver, no download)
//   webkit   WebKitGTK's MiniBrowser over classic WebDriver (WebKitWebDriver, webdriverio) under Xvfb
//   chromium Debian's chromium over CDP (puppeteer-core), the reference engine
// Each engine implements a few primitives (evaluate, click, fill, goto, frames, offline); finding
// things (dom.mjs), waiting and the error record are shared.
import { spawn } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import puppeteer from 'puppeteer-core';
import { remote } from 'webdriverio';
import { createProxy } from 'proxy';
import { findInPage } from './dom.mjs';

export const ENGINES = ['chromium', 'firefox', 'webkit'];
const FIREFOX = process.env.FIREFOX ?? '/usr/bin/firefox-esr';
const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';
const MINIBROWSER = process.env.MINIBROWSER ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
export const VIEWPORT = { width: 1280, height: 900 };
const TIMEOUT = 20_000;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A RegExp crosses into the page as { source, flags }. */
const plain = (q) =>
  Object.fromEntries(
    Object.entries(q).map(([k, v]) => [
      k,
      v instanceof RegExp ? { source: v.source, flags: v.flags } : v && typeof v === 'object' ? plain(v) : v,
    ]),
  );

let marks = 0;

/**
 * The shared page API over an engine's primitives `p` (for the top page or one iframe):
 * evaluate(fn, ...args), click(css), fill(css, value), goto(url), reload(), url().
 */
function pageApi(p, extra = {}) {
  const api = {
    ...p,
    ...extra,
    /** The selector of the first visible element matching `q` (dom.mjs), or null. */
    mark: (q) => p.evaluate(findInPage, plain(q), `m${++marks}`),
    count: (q) => p.evaluate(findInPage, plain({ ...q, count: true }), ''),
    /** Waits until `q` is there (or, with gone, until it isn't); returns its selector. */
    async waitFor(q, { gone = false, timeout = TIMEOUT } = {}) {
      const end = Date.now() + timeout;
      for (;;) {
        const sel = await api.mark(q).catch(() => null);
        if (gone ? !sel : sel) return sel;
        if (Date.now() > end) throw new Error(`${gone ? 'still there' : 'not found'} after ${timeout} ms: ${JSON.stringify(q)}`);
        await sleep(100);
      }
    },
    /** Polls `fn(arg)` in the page until it returns something truthy; returns that. */
    async waitForFunction(fn, arg, { timeout = TIMEOUT, what = fn.name || 'a condition' } = {}) {
      const end = Date.now() + timeout;
      for (;;) {
        const v = await p.evaluate(fn, arg).catch(() => null);
        if (v) return v;
        if (Date.now() > end) throw new Error(`timed out after ${timeout} ms waiting for ${what}`);
        await sleep(100);
      }
    },
    waitForPath: (path, opts) => api.waitForFunction((want) => location.pathname === want, path, { what: `the address ${path}`, ...opts }),
    /** Clicks `q` once it is there and enabled, as Playwright's click waits. */
    async click(q) {
      await p.click(await api.waitFor({ ...q, enabled: true }));
    },
    async fill(q, value) {
      await p.fill(await api.waitFor(q), value);
    },
    async text(q) {
      return p.evaluate((sel) => document.querySelector(sel)?.textContent ?? null, await api.waitFor(q));
    },
  };
  return api;
}

/** Records errors from inside the page (classic WebDriver has no console log): from now on. */
function recordErrors() {
  if (window.__engineErrors) return;
  window.__engineErrors = [];
  addEventListener('error', (e) => window.__engineErrors.push(`uncaught: ${e.message}`));
  addEventListener('unhandledrejection', (e) => window.__engineErrors.push(`unhandled rejection: ${e.reason}`));
  const original = console.error;
  console.error = (...args) => {
    window.__engineErrors.push(args.map(String).join(' '));
    original.apply(console, args);
  };
}

/** An HTTP proxy the engine goes through, whose switch drops every connection ("offline"). */
async function networkSwitch() {
  const server = createProxy(http.createServer());
  const sockets = new Set();
  let offline = false;
  server.on('connection', (s) => {
    if (offline) return s.destroy();
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    host: '127.0.0.1',
    port: server.address().port,
    address: `127.0.0.1:${server.address().port}`,
    setOffline(on) {
      offline = on;
      if (on) for (const s of sockets) s.destroy();
    },
    close: () => new Promise((r) => server.close(r)),
  };
}

async function launchPuppeteer(engine) {
  // Firefox goes through the network switch: BiDi's offline emulation also refuses the requests a
  // service worker would answer when they say `cache: 'no-store'` (a real loss of network doesn't).
  const net_ = engine === 'firefox' ? await networkSwitch() : null;
  const browser = await puppeteer.launch(
    engine === 'firefox'
      ? {
          browser: 'firefox',
          executablePath: FIREFOX,
          headless: true,
          defaultViewport: VIEWPORT,
          extraPrefsFirefox: {
            'network.proxy.type': 1,
            'network.proxy.http': net_.host,
            'network.proxy.http_port': net_.port,
            'network.proxy.allow_hijacking_localhost': true,
            'network.proxy.no_proxies_on': '',
          },
        }
      : {
          executablePath: CHROMIUM,
          headless: true,
          defaultViewport: VIEWPORT,
          args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-sync'],
        },
  );
  const version = await browser.version();
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message ?? e}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const frameApi = (frame) => ({
    evaluate: (fn, ...args) => frame.evaluate(fn, ...args),
    click: (sel) => frame.locator(sel).click(),
    fill: (sel, value) => frame.locator(sel).fill(value),
  });
  return {
    engine,
    version,
    page: pageApi(
      {
        ...frameApi(page),
        goto: (url) => page.goto(url, { waitUntil: 'load' }),
        reload: () => page.reload({ waitUntil: 'load' }),
        url: async () => page.url(),
        setOffline: async (on) => (net_ ? net_.setOffline(on) : page.setOfflineMode(on)),
      },
      {
        errors: async () => errors.splice(0),
        /** The document inside the iframe `css` (the iframe of the page). */
        async frame(css) {
          const handle = await page.waitForSelector(css);
          return pageApi(frameApi(await handle.contentFrame()));
        },
      },
    ),
    async close() {
      await browser.close();
      await net_?.close();
    },
  };
}

async function launchWebKit() {
  // MiniBrowser has no headless mode: a virtual X display of its own (-displayfd picks a free one).
  const xvfb = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1400x1000x24', '-nolisten', 'tcp'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  const display = await new Promise((resolve, reject) => {
    let out = '';
    xvfb.stdio[3].on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(`:${out.trim()}`);
    });
    xvfb.on('exit', (code) => reject(new Error(`Xvfb exited (${code})`)));
  });
  const port = await new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port: p } = s.address();
      s.close(() => resolve(p));
    });
  });
  const driver = spawn('WebKitWebDriver', [`--port=${port}`, '--host=127.0.0.1'], {
    env: { ...process.env, DISPLAY: display },
    stdio: 'ignore',
  });
  // Never left behind, even when the test process ends without closing the browser.
  process.once('exit', () => {
    driver.kill();
    xvfb.kill();
  });
  const net_ = await networkSwitch();
  const stop = async () => {
    driver.kill();
    xvfb.kill();
    await net_.close();
  };
  let b;
  try {
    for (let i = 0; ; i++) {
      try {
        b = await remote({
          hostname: '127.0.0.1',
          port,
          logLevel: 'silent',
          connectionRetryCount: 0,
          capabilities: {
            browserName: 'MiniBrowser',
            'wdio:enforceWebDriverClassic': true,
            // Every request through the switch (loopback included), so the journey can go offline.
            proxy: { proxyType: 'manual', httpProxy: net_.address, noProxy: [] },
            'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
          },
        });
        break;
      } catch (e) {
        if (i > 50) throw e;
        await sleep(100); // the driver is still starting
      }
    }
  } catch (e) {
    await stop();
    throw e;
  }
  await b.setWindowSize(VIEWPORT.width, VIEWPORT.height);
  await b.setTimeout({ script: TIMEOUT });
  // Which document commands go to: the top page, or an iframe found by its CSS selector.
  let inFrame = null;
  const into = async (css) => {
    if (inFrame === css) return;
    await b.switchFrame(null);
    if (css) await b.switchFrame(await b.$(css));
    inFrame = css;
  };
  const errors = [];
  const frameApi = (css) => ({
    evaluate: async (fn, ...args) => {
      await into(css);
      return b.execute(fn, ...args);
    },
    click: async (sel) => {
      await into(css);
      await (await b.$(sel)).click();
    },
    fill: async (sel, value) => {
      await into(css);
      const el = await b.$(sel);
      try {
        await el.setValue(value);
      } catch (e) {
        // WebKitWebDriver refuses to type into a field inside a cross-site iframe ("not
        // focusable"): tap it and type, as a person would.
        if (!/interactable|focusable/.test(e.message)) throw e;
        await el.click();
        await b.execute((field) => field.select(), el);
        await b.keys(value ? [...value] : ['Backspace']);
      }
    },
  });
  const top = frameApi(null);
  // Before a new document replaces this one, keep what its recorder saw.
  const keepErrors = async () => errors.push(...((await top.evaluate(() => window.__engineErrors ?? []).catch(() => [])) || []));
  const loaded = async () => {
    await top.evaluate(recordErrors);
  };
  return {
    engine: 'webkit',
    version: `MiniBrowser/${b.capabilities.browserVersion}`,
    page: pageApi(
      {
        ...top,
        async goto(url) {
          await keepErrors();
          await into(null);
          await b.url(url);
          await loaded();
        },
        async reload() {
          await keepErrors();
          await into(null);
          await b.refresh();
          await loaded();
        },
        url: async () => {
          await into(null);
          return b.getUrl();
        },
        setOffline: async (on) => net_.setOffline(on),
      },
      {
        async errors() {
          await keepErrors();
          await top.evaluate(() => (window.__engineErrors = []));
          return errors.splice(0);
        },
        async frame(css) {
          await into(null);
          await b.$(css).waitForExist({ timeout: TIMEOUT });
          return pageApi(frameApi(css));
        },
      },
    ),
    async close() {
      await b.deleteSession().catch(() => {});
      await stop();
    },
  };
}

/** Starts `engine` (ENGINES) with a fresh profile and one page. */
export function launch(engine) {
  if (engine === 'webkit') return launchWebKit();
  if (engine === 'firefox' || engine === 'chromium') return launchPuppeteer(engine);
  throw new Error(`unknown engine ${engine}: one of ${ENGINES.join(', ')}`);
}
