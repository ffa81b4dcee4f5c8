#!/usr/bin/env node
// `npm run sizes`: JavaScript of the built portal (public/) as it is sent: the build's brotli file
// (name.js.br) where it wrote one, which the gateway sends to every browser that accepts br (all
// current ones over HTTPS), else gzipped at level 9.
// First-load JS is what a browser really fetches to draw a page: public/ is served by a small
// static server (SPA fallback, /api/* answers 404), Chromium opens the page, and every .js it
// requested is measured as above and summed (the pages come as the gateway answers them:
// index.html for /, app.html for the rest). Pages: / (login, signed out) and /home
// signed in (adds the mfe-qff parcel). Without Chromium it falls back to the sum of all shell
// JS, an upper bound. Also, per remote, the JS fetched from its own folder (/mfe/<package>/) when
// its route is opened fresh, signed in: the remote's route chunk. Exits 1 when a page's first load
// is over BUDGET_KB or a route chunk over ROUTE_BUDGET_KB.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { REPO } from './lib.mjs';

const BUDGET_KB = 150;
const ROUTE_BUDGET_KB = 40;
// Routes per remote, each opened fresh (mfe-qff is a parcel: its summary on /home; its account
// views in Rewards, the same chunk as in My Details; the claim screen, the voucher page with its
// QR code library, and offers are chunks of their own).
const REMOTE_ROUTES = {
  'mfe-profile': ['/profile'],
  'mfe-orders': ['/transactions', '/claim-transaction'],
  'mfe-rewards': ['/rewards', '/rewards/item/101', '/offers'],
  'mfe-qff': ['/home', '/rewards'],
};
// The only remote /home may load: the rest wait until their routes are opened.
const HOME_REMOTES = ['mfe-qff'];
const out = path.resolve(process.env.PORTAL_OUT_DIR || path.join(REPO, 'public'));
const gz = (file) =>
  fs.existsSync(`${file}.br`) ? fs.statSync(`${file}.br`).size : zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;

if (!fs.existsSync(path.join(out, 'index.html'))) {
  console.error(`${out}/index.html not found: run npm run build first`);
  process.exit(2);
}

function listJs(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? listJs(path.join(dir, e.name)) : e.name.endsWith('.js') ? [path.join(dir, e.name)] : []));
}

const TYPES = {
  '.js': 'text/javascript',
  '.json': 'application/json',
  '.html': 'text/html',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.css': 'text/css',
};

function serve() {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    // The voucher page draws its QR code (its own chunk) only for a reward with a code: answer one,
    // so that library is counted in the page's route chunk.
    if (url.pathname === '/api/profile/rewards/101') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          data: {
            id: 101,
            name: '$10 voucher',
            description: '',
            terms: '',
            points_cost: 0,
            source: 'gift',
            catalogue_id: null,
            code: 'K7QM-4TXA-9PWD',
            status: 'available',
            issued_at: '2026-11-01T00:00:00Z',
            expires_at: null,
            used_at: null,
          },
        }),
      );
      return;
    }
    if (url.pathname.startsWith('/api/')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ status: 404, message: 'Not found', errors: {}, error: true }));
      return;
    }
    let file = path.join(out, decodeURIComponent(url.pathname));
    // The shell's pages as the gateway picks them: index.html for /, app.html (when built) for the rest.
    if (!file.startsWith(out) || !fs.existsSync(file) || fs.statSync(file).isDirectory()) {
      file = path.join(out, url.pathname !== '/' && fs.existsSync(path.join(out, 'app.html')) ? 'app.html' : 'index.html');
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] || 'application/octet-stream' });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function fakeSession() {
  const b64url = (s) => Buffer.from(s).toString('base64url');
  const jwt = `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(JSON.stringify({ pid: 'p_size', exp: Math.floor(Date.now() / 1000) + 3600, typ: 'session' }))}.c2ln`;
  return Buffer.from(jwt).toString('base64');
}

async function measure() {
  // e2e's launcher, with its playwright-core (absent until `npm ci` in e2e/).
  let browserKit;
  try {
    browserKit = await import('../e2e/chromium.mjs');
  } catch {
    return null;
  }
  if (!browserKit.haveChromium()) return null;
  const server = await serve();
  const base = `http://127.0.0.1:${server.address().port}`;
  const browser = await browserKit.launchChromium();
  const pages = {};
  try {
    const visits = [
      ['/ (login)', '/', false],
      ['/home (signed in)', '/home', true],
    ];
    for (const route of new Set(Object.values(REMOTE_ROUTES).flat()))
      if (route !== '/home') visits.push([`${route} (signed in)`, route, true]);
    for (const [name, pathName, signedIn] of visits) {
      const context = await browser.newContext();
      if (signedIn) await context.addInitScript((t) => localStorage.setItem('portal.auth', t), fakeSession());
      const page = await context.newPage();
      const files = new Set();
      page.on('request', (r) => {
        const u = new URL(r.url());
        if (u.pathname.endsWith('.js')) files.add(path.join(out, u.pathname));
      });
      await page.goto(`${base}${pathName}`, { waitUntil: 'networkidle' });
      await page.waitForTimeout(300);
      await context.close();
      pages[name] = [...files].filter((f) => fs.existsSync(f));
    }
  } finally {
    await browser.close();
    server.close();
  }
  return pages;
}

const pages = await measure();
const over = [];
if (pages) {
  for (const name of ['/ (login)', '/home (signed in)']) {
    const files = pages[name];
    const total = files.reduce((n, f) => n + gz(f), 0);
    if (total > BUDGET_KB * 1024) over.push(`${name} ${kb(total)}`);
    console.log(`${name}: ${kb(total)} first-load JS as sent (brotli) in ${files.length} files`);
    for (const f of files.sort()) console.log(`    ${kb(gz(f)).padStart(9)}  ${path.relative(out, f)}`);
  }
  const homeRemotes = new Set(
    pages['/home (signed in)']
      .map((f) => path.relative(out, f).split(path.sep))
      .filter((p) => p[0] === 'mfe')
      .map((p) => p[1]),
  );
  for (const pkg of homeRemotes) if (!HOME_REMOTES.includes(pkg)) over.push(`/home loads ${pkg}`);
  console.log(`\nRoute chunk per remote (JS from its own folder when its route is opened, budget ${ROUTE_BUDGET_KB} KB):`);
  for (const [pkg, routes] of Object.entries(REMOTE_ROUTES)) {
    for (const route of routes) {
      const files = (pages[`${route} (signed in)`] || []).filter((f) =>
        path.relative(out, f).startsWith(`mfe${path.sep}${pkg}${path.sep}`),
      );
      const total = files.reduce((n, f) => n + gz(f), 0);
      if (!files.length || total > ROUTE_BUDGET_KB * 1024)
        over.push(`${pkg} route chunk on ${route} ${files.length ? kb(total) : 'not loaded'}`);
      console.log(
        `    ${kb(total).padStart(9)}  ${pkg} on ${route} (${files.map((f) => path.basename(f)).join(', ') || 'nothing loaded'})`,
      );
    }
  }
} else {
  const upper = listJs(path.join(out, 'shell')).reduce((n, f) => n + gz(f), 0);
  if (upper > BUDGET_KB * 1024) over.push(`all shell JS ${kb(upper)}`);
  console.log(`Chromium not available: all shell JS (upper bound) ${kb(upper)} gzipped`);
}

console.log('\nAll JS per package (as sent, loaded on demand):');
console.log(`    ${kb(listJs(path.join(out, 'shell')).reduce((n, f) => n + gz(f), 0)).padStart(9)}  shell`);
const mfeRoot = path.join(out, 'mfe');
for (const pkg of fs.existsSync(mfeRoot) ? fs.readdirSync(mfeRoot) : []) {
  for (const version of fs.readdirSync(path.join(mfeRoot, pkg))) {
    const total = listJs(path.join(mfeRoot, pkg, version)).reduce((n, f) => n + gz(f), 0);
    console.log(`    ${kb(total).padStart(9)}  ${pkg}@${version}`);
  }
}
console.log(
  over.length
    ? `\nOVER BUDGET: ${over.join('; ')}`
    : `\nwithin budget (first load ${BUDGET_KB} KB per page, ${ROUTE_BUDGET_KB} KB per route chunk)`,
);
process.exit(over.length ? 1 : 0);
