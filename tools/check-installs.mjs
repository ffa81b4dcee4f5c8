#!/usr/bin/env node
// Reproducible installs: every package the lock files name supports the Node the README names
// (the root package.json's engines.node, checked against this Node too), and each lock file is
// in step with its package.json, so `npm ci` installs it as is and nothing rewrites it.
// Prints one line per lock file; exits 1 on any package whose engines.node excludes the named
// Node or on a lock file npm ci would refuse.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const LOCKS = ['.', 'e2e', 'tools/lighthouse'];
const named = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')).engines?.node;
let failed = false;
const fail = (msg) => {
  console.log(`not ok - ${msg}`);
  failed = true;
};

if (!named) fail('package.json names no engines.node');
else if (!semver.satisfies(process.version, named)) fail(`this Node ${process.version} is outside package.json's engines.node ${named}`);
// The lowest Node the project says it runs on: every dependency must accept it.
const lowest = named && semver.minVersion(named).version;

for (const dir of LOCKS) {
  const lock = JSON.parse(fs.readFileSync(path.join(REPO, dir, 'package-lock.json'), 'utf8'));
  const refused = Object.entries(lock.packages)
    .filter(([, p]) => typeof p.engines?.node === 'string' && lowest && !semver.satisfies(lowest, p.engines.node))
    .map(([k, p]) => `${k.replace(/^.*node_modules\//, '')}@${p.version} wants node ${p.engines.node}`);
  if (refused.length)
    fail(`${dir}/package-lock.json: ${refused.length} packages exclude Node ${lowest}: ${refused.slice(0, 5).join('; ')}`);
  // npm ci's own check: the lock satisfies package.json (a dry run installs nothing).
  try {
    execFileSync('npm', ['ci', '--dry-run', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: path.join(REPO, dir), stdio: 'pipe' });
  } catch (e) {
    fail(
      `${dir}/package-lock.json is out of step with its package.json: ${
        String(e.stderr)
          .split('\n')
          .find((l) => /Missing|Invalid|in sync/.test(l)) ?? e.message
      }`,
    );
    continue;
  }
  if (!refused.length)
    console.log(
      `ok - ${dir}/package-lock.json: ${Object.keys(lock.packages).length - 1} packages, all accept Node ${lowest}; npm ci takes it as is`,
    );
}
process.exit(failed ? 1 : 0);
