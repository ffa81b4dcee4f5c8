#!/usr/bin/env node
// Usage: node scripts/sw.mjs [--out public]
// Writes <out>/sw.js, the service worker (shells/portal/src/sw/sw.ts), with the list of files it
// precaches: the shell's pages (index.html as `/`, app.html as `/home`), every file of shell/, the
// icons, and the files of each
// remote version that <out>/mfe-manifest.json names now (older versions stay on the server for
// pages still open, but are not precached). build-all.mjs and publish-mfe.mjs run it last, so the
// list always follows the manifest; a changed list is a new service worker, which browsers pick
// up on their next page load.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { injectManifest } from 'workbox-build';
import { REPO, readJson, webpack } from './lib.mjs';

/** Content-hashed names (`main.1a2b3c4d.js`) are their own revision. */
const HASHED = /\.[0-9a-f]{8,}\.[a-z0-9]+$/;

/**
 * Shared modules the shell loads before any remote starts (its first screen needs them): a remote
 * always gets the shell's copy, so its own fallback copy of these is never fetched, and is not
 * precached. The others (e.g. @tanstack/react-query, which the shell does not load itself) may be
 * taken from a remote, so its copy is precached.
 */
export const SHELL_LOADS_FIRST = [
  'react',
  'react/jsx-runtime',
  'react-dom',
  'react-dom/client',
  'i18next',
  'react-i18next',
  '@portal/runtime',
];

/** The folders (relative to `out`) of the remote versions the manifest names; other origins are left out. */
export function currentRemoteDirs(manifest) {
  const dirs = [];
  for (const { entry } of Object.values(manifest || {})) {
    if (typeof entry !== 'string' || !/^\/mfe\/[^?#]+\/[^/?#]+$/.test(entry) || entry.split('/').includes('..')) continue;
    dirs.push(path.posix.dirname(entry).slice(1));
  }
  return dirs;
}

/**
 * One remote version's files, from its mf-manifest.json: the manifest, remoteEntry.js, every chunk
 * of what it exposes (its pages, their languages), and the shared fallbacks the shell may not
 * provide first. Paths relative to `out`.
 */
export function remoteFiles(out, dir) {
  const mf = readJson(path.join(out, dir, 'mf-manifest.json'), null);
  if (!mf) return [`${dir}/mf-manifest.json`];
  const assets = (a) => [...(a?.js?.sync ?? []), ...(a?.js?.async ?? []), ...(a?.css?.sync ?? []), ...(a?.css?.async ?? [])];
  const files = new Set(['mf-manifest.json', mf.metaData?.remoteEntry?.name || 'remoteEntry.js']);
  for (const e of mf.exposes ?? []) for (const f of assets(e.assets)) files.add(f);
  for (const s of mf.shared ?? []) if (!SHELL_LOADS_FIRST.includes(s.name)) for (const f of assets(s.assets)) files.add(f);
  return [...files].map((f) => `${dir}/${f}`);
}

/** What the worker precaches, as globs relative to `out`. */
export function precacheGlobs(out, manifest) {
  return [
    // The login page and the signed-in frame, drawn at build time.
    'index.html',
    'app.html',
    'shell/**/*.{js,css,json}',
    // The icons the page itself shows (the 192 and 512 px ones are for installers).
    'assets/*.svg',
    'assets/icon-{16,32,64,128}.png',
    ...currentRemoteDirs(manifest).flatMap((d) => remoteFiles(out, d)),
  ];
}

/**
 * The pages are precached under addresses the gateway answers with them, with their security
 * headers (`/` for index.html, `/home`, like every page but `/`, for app.html: LOGIN_PAGE_URL and
 * APP_PAGE_URL in shells/portal/src/sw/routes.ts); other files by their path.
 */
export const PAGE_URLS = { 'index.html': '/', 'app.html': '/home' };

export function toUrls(entries) {
  return { manifest: entries.map((e) => ({ ...e, url: PAGE_URLS[e.url] ?? `/${e.url}` })) };
}

function replaceFile(file, data) {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, data);
  fs.renameSync(tmp, file);
}

export async function writeServiceWorker(out) {
  const manifest = readJson(path.join(out, 'mfe-manifest.json'), {});
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'portal-sw-'));
  try {
    webpack(path.join(REPO, 'shells', 'portal'), { SW_OUT_DIR: tmp }, 'webpack.sw.js');
    const written = path.join(tmp, 'sw.out.js');
    const { count, size, warnings } = await injectManifest({
      swSrc: path.join(tmp, 'sw.js'),
      swDest: written,
      globDirectory: out,
      globPatterns: precacheGlobs(out, manifest),
      dontCacheBustURLsMatching: HASHED,
      manifestTransforms: [toUrls],
      maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
    });
    for (const w of warnings) console.warn(`sw.js: ${w}`);
    // Served like the rest of the build, with brotli and gzip copies beside it. Each file is
    // replaced whole (a browser never reads half a worker), the copies first.
    const body = fs.readFileSync(written);
    const dest = path.join(out, 'sw.js');
    replaceFile(`${dest}.br`, zlib.brotliCompressSync(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
    replaceFile(`${dest}.gz`, zlib.gzipSync(body, { level: 9 }));
    replaceFile(dest, body);
    return { count, size };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  let out = path.join(REPO, 'public');
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--out') out = path.resolve(args[++i]);
    else if (args[i].startsWith('--out=')) out = path.resolve(args[i].slice(6));
  }
  const { count, size } = await writeServiceWorker(out);
  console.log(`sw.js -> ${out}/sw.js (precaches ${count} files, ${(size / 1024).toFixed(0)} KB)`);
}
