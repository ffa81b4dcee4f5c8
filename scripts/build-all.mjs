#!/usr/bin/env node
// `npm run build`: shell + every MFE into public/ (one build at a time: the machine is small).
import fs from 'node:fs';
import path from 'node:path';
import { MFE_DIRS, REPO, buildMfe, webpack, writeJsonAtomic } from './lib.mjs';

const out = path.resolve(process.env.PORTAL_OUT_DIR || path.join(REPO, 'public'));
fs.mkdirSync(out, { recursive: true });

console.log(`shell -> ${out}/index.html, ${out}/shell/`);
webpack(path.join(REPO, 'shells', 'portal'), { PORTAL_OUT_DIR: out });

const manifest = {};
for (const dirName of MFE_DIRS) {
  const dir = path.join(REPO, dirName);
  const { name, entry } = buildMfe(dir, undefined, out);
  manifest[name] = entry;
  console.log(`${name} -> ${entry.entry}`);
}
writeJsonAtomic(path.join(out, 'mfe-manifest.json'), manifest);

const assets = path.join(REPO, 'shells', 'portal', 'static', 'assets');
fs.mkdirSync(path.join(out, 'assets'), { recursive: true });
for (const file of fs.readdirSync(assets)) {
  fs.copyFileSync(path.join(assets, file), path.join(out, 'assets', file));
}
console.log('build done');
