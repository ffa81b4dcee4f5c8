#!/usr/bin/env node
// Usage: node scripts/publish-mfe.mjs <package-dir> <version> [--out public]
// Builds ONE micro-frontend into <out>/mfe/<name>/<version>/ and updates only its
// entry in <out>/mfe-manifest.json, then writes <out>/sw.js again so the service worker precaches
// the new version instead of the old one. Works for a copied package inside the repo.
import path from 'node:path';
import fs from 'node:fs';
import { REPO, buildMfe, updateManifest } from './lib.mjs';
import { writeServiceWorker } from './sw.mjs';

const args = process.argv.slice(2);
let out = path.join(REPO, 'public');
const positional = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--out') out = path.resolve(args[++i]);
  else if (args[i].startsWith('--out=')) out = path.resolve(args[i].slice(6));
  else positional.push(args[i]);
}
const [dirArg, version] = positional;
if (!dirArg || !version) {
  console.error('usage: node scripts/publish-mfe.mjs <package-dir> <version> [--out public]');
  process.exit(2);
}
if (!/^[0-9A-Za-z.+-]+$/.test(version)) {
  console.error(`invalid version "${version}"`);
  process.exit(2);
}
const dir = path.resolve(dirArg);
if (!fs.existsSync(path.join(dir, 'webpack.config.js'))) {
  console.error(`${dir} has no webpack.config.js`);
  process.exit(2);
}
try {
  const { name, entry } = buildMfe(dir, version, out);
  updateManifest(out, name, entry);
  console.log(`published ${name} ${version} -> ${entry.entry}`);
  const sw = await writeServiceWorker(out);
  console.log(`sw.js -> ${out}/sw.js (precaches ${sw.count} files)`);
} catch (err) {
  console.error(err.message);
  process.exit(1);
}
