// Helpers shared by the front-end build scripts.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const MFE_DIRS = ['mfe-profile', 'mfe-orders', 'mfe-rewards', 'mfe-qff'];

export function readPkg(dir) {
  return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
}

export function federationName(pkg) {
  return (pkg.portal && pkg.portal.federationName) || pkg.name.replace(/[^a-zA-Z0-9_]/g, '_');
}

/** Runs webpack (the repo's copy) for the package in `dir` with extra env. */
export function webpack(dir, env, config = 'webpack.config.js') {
  const cli = path.join(REPO, 'node_modules', 'webpack-cli', 'bin', 'cli.js');
  const res = spawnSync(process.execPath, [cli, '--config', path.join(dir, config), '--mode', 'production', '--no-stats'], {
    cwd: dir,
    env: { ...process.env, ...env },
    stdio: 'inherit',
  });
  if (res.status !== 0) throw new Error(`webpack failed for ${dir} (exit ${res.status})`);
}

/** Writes JSON atomically (the gateway re-reads the manifest on each request). */
export function writeJsonAtomic(file, data) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(data, null, 2)}\n`);
  fs.renameSync(tmp, file);
}

export function readJson(file, fallback) {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return fallback;
  }
}

/**
 * Builds one MFE into <out>/mfe/<package-name>/<version>/ with that publicPath.
 * Returns its manifest entry.
 */
export function buildMfe(dir, version, out) {
  const pkg = readPkg(dir);
  const v = version || pkg.version;
  const rel = `mfe/${pkg.name}/${v}/`;
  const outDir = path.join(out, rel);
  webpack(dir, { MFE_OUT_DIR: outDir, MFE_VERSION: v, MFE_PUBLIC_PATH: `/${rel}` });
  const manifestFile = path.join(outDir, 'mf-manifest.json');
  if (!fs.existsSync(manifestFile)) throw new Error(`${manifestFile} was not produced`);
  return { name: federationName(pkg), entry: { entry: `/${rel}mf-manifest.json`, version: v } };
}
