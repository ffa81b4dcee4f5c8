#!/usr/bin/env node
// A team's pipeline for one tab, one command per step. <out> is the store the portal serves the
// tabs from (a dev portal's public/, or in Kubernetes the mfe-store volume) with the platform's
// mfe-manifest.json, which the gateway reads on every request: no front-end build, no restart.
//
//   publish-mfe.mjs <package-dir> <version> [--out public] [--canary PERCENT
//                   [--min-samples N] [--max-failure-rate R]] [--no-sw]
//       builds ONE micro-frontend into <out>/mfe/<package>/<version>/ (content-hashed files; a
//       version already published is refused) and points the manifest at it: as the stable
//       release (the old one kept for `rollback`), or as a canary for PERCENT % of members
//       (stable by member), rolled back by the gateway when its failures reach the rate.
//   publish-mfe.mjs build <package-dir> <version> --out <artifact>
//   publish-mfe.mjs release <artifact> [--out store] [--canary ...]
//       the same in two steps: the tab's image (deploy/docker/mfe.Dockerfile) is the artifact.
//   publish-mfe.mjs rollback <tab> [--out public]   withdraws the canary, else back to the previous release
//   publish-mfe.mjs promote <tab> [--out public]    the canary becomes the stable release
//
// Then <out>/sw.js is written again (unless --no-sw: a store without the shell) so the service
// worker precaches the stable versions the manifest names.
import path from 'node:path';
import fs from 'node:fs';
import { REPO, buildMfe, readJson, writeJsonAtomic } from './lib.mjs';
import { copyRelease, manifestFile, pointAt, promote, rollback } from './mfe-release.mjs';

const USAGE = `usage: node scripts/publish-mfe.mjs <package-dir> <version> [--out public] [--canary PERCENT [--min-samples N] [--max-failure-rate R]] [--no-sw]
       node scripts/publish-mfe.mjs build <package-dir> <version> --out <artifact>
       node scripts/publish-mfe.mjs release <artifact> [--out store] [--canary ...] [--no-sw]
       node scripts/publish-mfe.mjs rollback|promote <tab> [--out public] [--no-sw]`;

const opts = { out: path.join(REPO, 'public'), sw: true };
const positional = [];
const args = process.argv.slice(2);
for (let i = 0; i < args.length; i++) {
  const [flag, inline] = args[i].startsWith('--') ? args[i].split(/=(.*)/s) : [null];
  const value = () => (inline !== undefined ? inline : args[++i]);
  if (flag === '--out') opts.out = path.resolve(value());
  else if (flag === '--canary') opts.canary = { ...opts.canary, percent: value() };
  else if (flag === '--min-samples') opts.canary = { ...opts.canary, minSamples: value() };
  else if (flag === '--max-failure-rate') opts.canary = { ...opts.canary, maxFailureRate: value() };
  else if (flag === '--no-sw') opts.sw = false;
  else if (flag) fail(`unknown option ${flag}`, 2);
  else positional.push(args[i]);
}
if (opts.canary && opts.canary.percent === undefined) fail('--min-samples and --max-failure-rate go with --canary PERCENT', 2);

function fail(message, code = 1) {
  console.error(message);
  if (code === 2) console.error(USAGE);
  process.exit(code);
}

function checkVersion(version) {
  if (!version || !/^[0-9A-Za-z.+-]+$/.test(version)) fail(`invalid version "${version ?? ''}"`, 2);
}

function packageDir(dirArg) {
  const dir = path.resolve(dirArg ?? '');
  if (!dirArg || !fs.existsSync(path.join(dir, 'webpack.config.js'))) fail(`${dir} has no webpack.config.js`, 2);
  return dir;
}

/** Builds into `<artifact>/mfe/<package>/<version>/` with a release.json naming it. */
function build(dir, version, artifact) {
  const { name, entry } = buildMfe(dir, version, artifact);
  const rel = entry.entry.replace(/^\//, '').replace(/mf-manifest\.json$/, '');
  writeJsonAtomic(path.join(artifact, 'release.json'), { name, dir: rel, entry });
  return { name, entry };
}

function release(artifact) {
  const { name, entry } = copyRelease(artifact, opts.out);
  const manifest = pointAt(readJson(manifestFile(opts.out), {}), name, entry, opts.canary);
  writeJsonAtomic(manifestFile(opts.out), manifest);
  const m = manifest[name];
  console.log(
    opts.canary
      ? `published ${name} ${entry.version} as a canary for ${m.canary.percent} % of members (stable: ${m.version})`
      : `published ${name} ${entry.version} -> ${entry.entry}${m.previous ? ` (rollback goes to ${m.previous.version})` : ''}`,
  );
}

async function writeSw() {
  if (!opts.sw) return;
  const { writeServiceWorker } = await import('./sw.mjs');
  const sw = await writeServiceWorker(opts.out);
  console.log(`sw.js -> ${opts.out}/sw.js (precaches ${sw.count} files)`);
}

try {
  const [first, ...rest] = positional;
  if (first === 'build') {
    const [dirArg, version] = rest;
    checkVersion(version);
    const { name, entry } = build(packageDir(dirArg), version, opts.out);
    console.log(`built ${name} ${entry.version} -> ${opts.out}`);
  } else if (first === 'release') {
    if (!rest[0]) fail('release needs the artifact directory', 2);
    release(path.resolve(rest[0]));
    await writeSw();
  } else if (first === 'rollback' || first === 'promote') {
    if (!rest[0]) fail(`${first} needs the tab's name (e.g. mfe-rewards)`, 2);
    const current = readJson(manifestFile(opts.out), null);
    if (!current) fail(`no manifest at ${manifestFile(opts.out)}`);
    const done = first === 'rollback' ? rollback(current, rest[0]) : promote(current, rest[0]);
    writeJsonAtomic(manifestFile(opts.out), done.manifest);
    console.log(
      first === 'rollback' ? `rolled back ${done.key} from ${done.from} to ${done.to}` : `promoted ${done.key} ${done.version} to stable`,
    );
    await writeSw();
  } else {
    const [dirArg, version] = positional;
    checkVersion(version);
    const dir = packageDir(dirArg);
    const artifact = fs.mkdtempSync(path.join(opts.out, '.publish-'));
    try {
      build(dir, version, artifact);
      release(artifact);
    } finally {
      fs.rmSync(artifact, { recursive: true, force: true });
    }
    await writeSw();
  }
} catch (err) {
  fail(err.message);
}
