#!/usr/bin/env node
// `npm run build`: the embed package, shell + every MFE into public/ (one build at a time: the
// machine is small).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { MFE_DIRS, REPO, buildMfe, webpack, writeJsonAtomic } from './lib.mjs';
import { writeIcons } from './icons.mjs';
import { writeServiceWorker } from './sw.mjs';

const out = path.resolve(process.env.PORTAL_OUT_DIR || path.join(REPO, 'public'));
fs.mkdirSync(out, { recursive: true });

// @portal/embed first: partner pages load it from the portal at /embed/portal-embed.js.
const embed = spawnSync(process.execPath, [path.join(REPO, 'packages', 'embed', 'build.mjs')], { stdio: 'inherit' });
if (embed.status !== 0) throw new Error(`@portal/embed build failed (exit ${embed.status})`);
fs.mkdirSync(path.join(out, 'embed'), { recursive: true });
fs.copyFileSync(path.join(REPO, 'packages', 'embed', 'dist', 'index.js'), path.join(out, 'embed', 'portal-embed.js'));
console.log(`@portal/embed -> ${out}/embed/portal-embed.js`);

console.log(`shell -> ${out}/index.html (the login page), ${out}/app.html (the signed-in frame), ${out}/shell/`);
webpack(path.join(REPO, 'shells', 'portal'), { PORTAL_OUT_DIR: out });

// PORTAL_SHELL_ONLY=1 (the web image): the shell alone. The tabs are their own deployables in
// production (deploy/docker/mfe.Dockerfile), released into the store with their manifest.
const shellOnly = process.env.PORTAL_SHELL_ONLY === '1';
const manifest = {};
for (const dirName of shellOnly ? [] : MFE_DIRS) {
  const dir = path.join(REPO, dirName);
  const { name, entry } = buildMfe(dir, undefined, out);
  manifest[name] = entry;
  console.log(`${name} -> ${entry.entry}`);
}
if (!shellOnly) writeJsonAtomic(path.join(out, 'mfe-manifest.json'), manifest);

const assets = path.join(REPO, 'shells', 'portal', 'static', 'assets');
fs.mkdirSync(path.join(out, 'assets'), { recursive: true });
for (const file of fs.readdirSync(assets)) {
  fs.copyFileSync(path.join(assets, file), path.join(out, 'assets', file));
}
console.log(`icons -> ${writeIcons(path.join(assets, 'favicon.svg'), path.join(out, 'assets')).join(', ')}`);
// Last: it precaches what the steps above wrote.
const sw = await writeServiceWorker(out);
console.log(`sw.js -> ${out}/sw.js (precaches ${sw.count} files, ${(sw.size / 1024).toFixed(0)} KB)`);
console.log('build done');
