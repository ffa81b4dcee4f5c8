#!/usr/bin/env node
// `npm test`: jest in every workspace, one after another, then one summary line
// "N passed, N failed" over all packages. Non-zero exit when anything failed.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO, readJson } from './lib.mjs';

const root = readJson(path.join(REPO, 'package.json'), {});
const workspaces = (root.workspaces || []).filter((w) => fs.existsSync(path.join(REPO, w, 'jest.config.cjs')));
const resultsDir = path.join(REPO, '.cache', 'jest-results');
fs.mkdirSync(resultsDir, { recursive: true });
const jestBin = path.join(REPO, 'node_modules', 'jest', 'bin', 'jest.js');

let passed = 0;
let failed = 0;
let broken = false;
for (const ws of workspaces) {
  const outFile = path.join(resultsDir, `${ws.replace(/[\\/]/g, '_')}.json`);
  fs.rmSync(outFile, { force: true });
  console.log(`\n=== ${ws} ===`);
  const res = spawnSync(
    process.execPath,
    [jestBin, '--ci', '--maxWorkers=2', '--json', `--outputFile=${outFile}`, ...process.argv.slice(2)],
    { cwd: path.join(REPO, ws), stdio: 'inherit', env: { ...process.env, CI: 'true' } },
  );
  const result = readJson(outFile, null);
  if (!result) {
    console.error(`${ws}: jest produced no results (exit ${res.status})`);
    failed += 1;
    broken = true;
    continue;
  }
  passed += result.numPassedTests;
  failed += result.numFailedTests + (result.numRuntimeErrorTestSuites || 0);
  if (res.status !== 0) broken = true;
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 || broken ? 1 : 0);
