// A dependency-free partner site for development and e2e: serves examples/partner/ (the page
// that embeds the portal, with the portal URL written into it) and the built @portal/embed at
// /portal-embed.js. Tests start it in-process with startPartnerServer(); the command line is
// scripts/partner-example.mjs.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const EXAMPLE_DIR = path.join(REPO, 'examples', 'partner');
const EMBED_DIR = path.join(REPO, 'packages', 'embed');
export const EMBED_JS = path.join(EMBED_DIR, 'dist', 'index.js');

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};
const typeOf = (file) => TYPES[path.extname(file).toLowerCase()] || 'application/octet-stream';

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === '__tests__') continue;
    const p = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(p));
    else newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Builds packages/embed (node packages/embed/build.mjs) when dist/index.js is missing, or, with
 * `ifStale`, older than a file of src/. Throws with the build's output when it fails.
 */
export function ensureEmbedBuilt({ ifStale = false } = {}) {
  const exists = fs.existsSync(EMBED_JS);
  if (exists && !(ifStale && newestMtime(path.join(EMBED_DIR, 'src')) > fs.statSync(EMBED_JS).mtimeMs)) return false;
  const res = spawnSync(process.execPath, [path.join(EMBED_DIR, 'build.mjs')], { encoding: 'utf8' });
  if (res.status !== 0 || !fs.existsSync(EMBED_JS)) {
    throw new Error(
      `${EMBED_JS} is missing and building it failed (node packages/embed/build.mjs, exit ${res.status}; run npm install first?)\n${res.stdout}${res.stderr}`,
    );
  }
  return true;
}

const escapeAttr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The example page with the portal's URL in its <meta name="portal-url">. */
function examplePage(portalUrl) {
  const html = fs.readFileSync(path.join(EXAMPLE_DIR, 'index.html'), 'utf8');
  const out = html.replace(/(<meta name="portal-url" content=")[^"]*(")/, `$1${escapeAttr(portalUrl)}$2`);
  if (out === html && !html.includes(`content="${escapeAttr(portalUrl)}"`)) {
    throw new Error('examples/partner/index.html has no <meta name="portal-url" content="…">');
  }
  return out;
}

/** A file of `dir` for a URL path, or null (never outside `dir`). */
function fileIn(dir, urlPath) {
  let rel;
  try {
    rel = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  const file = path.resolve(dir, `.${rel.endsWith('/') ? `${rel}index.html` : rel}`);
  if (file !== dir && !file.startsWith(dir + path.sep)) return null;
  try {
    return fs.statSync(file).isFile() ? file : null;
  } catch {
    return null;
  }
}

/**
 * Starts the partner site.
 *
 * @param {object} [options]
 * @param {number} [options.port=8081] 0 for any free port (the result says which).
 * @param {string} [options.host='127.0.0.1']
 * @param {string} [options.portalUrl='http://localhost:8080'] the portal the page embeds.
 * @param {Record<string, string | {body: string | Buffer, type?: string, headers?: Record<string, string>}>} [options.pages]
 *   extra answers by exact path (query ignored), e.g. { '/foreign.html': '<!doctype html>…' };
 *   a string is served as text/html (or by the path's extension). They win over everything else.
 * @param {string} [options.pagesDir] extra files served from this directory (after the built-in paths).
 * @param {string[]} [options.frameSrc] origins the example page may frame besides the portal's (tests).
 * @param {boolean} [options.dev=false] rebuild @portal/embed when its src/ is newer than dist/.
 * @param {boolean} [options.build=true] build @portal/embed at start if dist/index.js is missing.
 * @returns {Promise<{ url: string, origin: string, port: number, host: string, portalUrl: string, server: import('node:http').Server, close(): Promise<void> }>}
 *   `url` is the example page (origin + '/').
 */
export async function startPartnerServer(options = {}) {
  const {
    port = 8081,
    host = '127.0.0.1',
    portalUrl = 'http://localhost:8080',
    pages = {},
    pagesDir,
    frameSrc = [],
    dev = false,
    build = true,
  } = options;
  const portalOrigin = new URL(portalUrl).origin;
  if (build) ensureEmbedBuilt({ ifStale: dev });
  const extraDir = pagesDir ? path.resolve(pagesDir) : null;

  // The example page may frame only the portal, and only this site's scripts run on it.
  const pageCsp = [
    "default-src 'self'",
    `frame-src ${[portalOrigin, ...frameSrc].join(' ')}`,
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');

  function send(res, status, body, headers = {}) {
    res.writeHead(status, {
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
      'Content-Length': Buffer.byteLength(body),
      ...headers,
    });
    res.end(res.req.method === 'HEAD' ? undefined : body);
  }

  function handle(req, res) {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      send(res, 405, 'Method not allowed\n', { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' });
      return;
    }
    const { pathname } = new URL(req.url || '/', 'http://partner');

    if (Object.prototype.hasOwnProperty.call(pages, pathname)) {
      const page = pages[pathname];
      const { body, type, headers } = typeof page === 'string' || Buffer.isBuffer(page) ? { body: page } : page;
      const contentType = type || (path.extname(pathname) ? typeOf(pathname) : TYPES['.html']);
      send(res, 200, body, { 'Content-Type': contentType, ...headers });
      return;
    }
    if (pathname === '/' || pathname === '/index.html') {
      send(res, 200, examplePage(portalUrl), { 'Content-Type': TYPES['.html'], 'Content-Security-Policy': pageCsp });
      return;
    }
    if (pathname === '/portal-embed.js') {
      try {
        if (build) ensureEmbedBuilt({ ifStale: dev });
        send(res, 200, fs.readFileSync(EMBED_JS), { 'Content-Type': TYPES['.js'] });
      } catch (err) {
        const message = fs.existsSync(EMBED_JS)
          ? String(err)
          : `${EMBED_JS} is missing: run npm run build (or node packages/embed/build.mjs)\n`;
        send(res, 500, message, { 'Content-Type': 'text/plain; charset=utf-8' });
      }
      return;
    }
    if (pathname === '/partner.js' || pathname === '/partner.css') {
      const file = path.join(EXAMPLE_DIR, pathname.slice(1));
      send(res, 200, fs.readFileSync(file), { 'Content-Type': typeOf(file) });
      return;
    }
    if (pathname === '/favicon.ico') {
      send(res, 204, '');
      return;
    }
    const extra = extraDir && fileIn(extraDir, pathname);
    if (extra) {
      send(res, 200, fs.readFileSync(extra), { 'Content-Type': typeOf(extra) });
      return;
    }
    send(res, 404, 'Not found\n', { 'Content-Type': 'text/plain; charset=utf-8' });
  }

  const server = http.createServer((req, res) => {
    try {
      handle(req, res);
    } catch (err) {
      if (!res.headersSent) send(res, 500, `${err && err.message ? err.message : err}\n`, { 'Content-Type': 'text/plain; charset=utf-8' });
      else res.destroy();
    }
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const bound = server.address().port;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${bound}`;
  return {
    url: `${origin}/`,
    origin,
    port: bound,
    host,
    portalUrl,
    server,
    close() {
      return new Promise((resolve, reject) => {
        server.close((err) => (err ? reject(err) : resolve()));
        server.closeAllConnections();
      });
    },
  };
}
