// The platform's micro-frontend manifest (<out>/mfe-manifest.json, which the gateway reads on
// every request) as a team's pipeline changes it: each tab's stable release, the one before it
// (for a rollback), and optionally a canary for a share of members. Versions are immutable: a
// version's folder is never written twice. Node alone (no packages): the tab images run it.
import fs from 'node:fs';
import path from 'node:path';
import { readJson } from './lib.mjs';

export const manifestFile = (out) => path.join(out, 'mfe-manifest.json');

/** The manifest's key for a tab named either way (`mfe-rewards` or `mfe_rewards`). */
export function tabKey(manifest, name) {
  if (manifest[name]) return name;
  const alt = name.replace(/[^a-zA-Z0-9_]/g, '_');
  if (manifest[alt]) return alt;
  throw new Error(`no tab "${name}" in the manifest (${Object.keys(manifest).join(', ') || 'empty'})`);
}

/**
 * Copies a built version (`<artifact>/mfe/<package>/<version>/`, as `release.json` names it)
 * into the store `out`. A version already there is refused: published files never change.
 */
export function copyRelease(artifact, out) {
  const release = readJson(path.join(artifact, 'release.json'), null);
  if (!release || !release.name || !release.dir || !release.entry) throw new Error(`${artifact} has no release.json`);
  const from = path.join(artifact, release.dir);
  const to = path.join(out, release.dir).replace(/[/\\]+$/, '');
  if (fs.existsSync(to)) throw new Error(`${release.dir} is already published: versions are immutable, publish a new one`);
  // Copied beside it, then renamed: the version's folder appears whole or not at all.
  const stage = `${to}.${process.pid}.partial`;
  fs.mkdirSync(path.dirname(to), { recursive: true });
  try {
    fs.cpSync(from, stage, { recursive: true });
    fs.renameSync(stage, to);
  } finally {
    fs.rmSync(stage, { recursive: true, force: true });
  }
  return release;
}

/**
 * Points the manifest at a release: the stable one (the old stable kept as `previous`, any
 * canary withdrawn), or with `canary.percent` a canary beside the stable one.
 */
export function pointAt(manifest, name, entry, canary) {
  const next = { ...manifest };
  const current = next[name];
  if (canary) {
    if (!current) throw new Error(`${name} has no stable release yet: publish one before a canary`);
    const percent = Number(canary.percent);
    if (!Number.isInteger(percent) || percent < 0 || percent > 100) throw new Error(`canary percent ${canary.percent} is not 0-100`);
    const c = { ...entry, percent };
    if (canary.minSamples !== undefined) c.minSamples = Number(canary.minSamples);
    if (canary.maxFailureRate !== undefined) c.maxFailureRate = Number(canary.maxFailureRate);
    next[name] = { ...current, canary: c };
    return next;
  }
  next[name] = { ...entry };
  if (current) next[name].previous = { entry: current.entry, version: current.version };
  return next;
}

/** A canary becomes the stable release. */
export function promote(manifest, name) {
  const key = tabKey(manifest, name);
  const current = manifest[key];
  if (!current.canary) throw new Error(`${key} has no canary to promote`);
  const { entry, version } = current.canary;
  return {
    manifest: { ...manifest, [key]: { entry, version, previous: { entry: current.entry, version: current.version } } },
    key,
    version,
  };
}

/** Withdraws the canary, or without one goes back to the previous stable release. */
export function rollback(manifest, name) {
  const key = tabKey(manifest, name);
  const current = manifest[key];
  if (current.canary) {
    const { canary, ...rest } = current;
    return { manifest: { ...manifest, [key]: rest }, key, from: canary.version, to: current.version };
  }
  if (!current.previous) throw new Error(`${key} has no canary and no previous release to go back to`);
  return {
    manifest: { ...manifest, [key]: { ...current.previous } },
    key,
    from: current.version,
    to: current.previous.version,
  };
}
