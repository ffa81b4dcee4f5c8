// A canary that rolls itself back. A broken build of mfe-rewards (its ./app throws as it loads) is
// published with scripts/publish-mfe.mjs as a canary for 50 % of members: the demo member (bucket
// 32 for mfe_rewards) gets it, the other member (bucket 58) keeps 0.1.0. The demo member's shell
// reports each failed load to the gateway; at the third (3 loads, all failed: past 50 % with the
// minimum sample) the gateway rolls the canary back, and every member is on the old version,
// without anybody publishing anything. The shell's and the other tabs' files are untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASE, STATIC_DIR, newPage, signIn, tree } from './helpers.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PKG = 'mfe-rewards';

/** The release of mfe_rewards the gateway tells this page's member. */
const served = (page) =>
  page.evaluate(async () => {
    const token = localStorage.getItem('portal.auth');
    const res = await fetch('/mfe-manifest.json', { cache: 'no-store', headers: { Authorization: `Bearer ${token}` } });
    return (await res.json()).mfe_rewards;
  });

/** Opens Rewards; the paths of the mfe-rewards files the page asked for. */
async function openRewards(page, files) {
  files.length = 0;
  await page.goto(`${BASE}/rewards`);
}

test(
  'a broken canary for half the members is reported, rolled back by the gateway, and everybody is on the old version',
  { timeout: 300_000 },
  async () => {
    assert.ok(STATIC_DIR, "PORTAL_STATIC_DIR names the running portal's static dir");
    const manifestFile = path.join(STATIC_DIR, 'mfe-manifest.json');
    const manifestBefore = JSON.parse(fs.readFileSync(manifestFile, 'utf8'));
    const stable = manifestBefore.mfe_rewards.version;
    const canary = `0.2.0-broken${process.pid}`;
    const copy = path.join(REPO, '.tmp', `${PKG}-canary-${process.pid}`);
    const before = tree(STATIC_DIR);

    const demo = await newPage({ serviceWorkers: 'block' });
    const other = await newPage({ serviceWorkers: 'block' });
    const files = { demo: [], other: [] };
    const reports = [];
    for (const [who, page] of [
      ['demo', demo],
      ['other', other],
    ]) {
      page.on('request', (r) => {
        const p = new URL(r.url()).pathname;
        if (p.startsWith(`/mfe/${PKG}/`)) files[who].push(p);
        if (p === '/api/mfe/reports' && who === 'demo') reports.push(r.postDataJSON());
      });
    }
    try {
      // The broken build: its ./app module throws as it is evaluated.
      fs.rmSync(copy, { recursive: true, force: true });
      fs.cpSync(path.join(REPO, PKG), copy, { recursive: true, filter: (src) => !/node_modules|[/\\]dist$/.test(src) });
      fs.writeFileSync(path.join(copy, 'src/app.tsx'), "throw new Error('mfe-rewards: a broken build');\nexport {};\n");
      execFileSync(
        'node',
        [
          path.join(REPO, 'scripts/publish-mfe.mjs'),
          copy,
          canary,
          '--out',
          STATIC_DIR,
          '--canary',
          '50',
          '--min-samples',
          '3',
          '--max-failure-rate',
          '0.5',
        ],
        { cwd: REPO, stdio: 'inherit' },
      );

      await signIn(demo, 'demo@example.com');
      await signIn(other, 'other@example.com');
      assert.deepEqual(await served(demo), { entry: `/mfe/${PKG}/${canary}/mf-manifest.json`, version: canary, canary: true });
      assert.deepEqual(await served(other), { entry: `/mfe/${PKG}/${stable}/mf-manifest.json`, version: stable, canary: false });

      // The other member is not in the canary: Rewards as before.
      await openRewards(other, files.other);
      await other.getByRole('heading', { name: 'Rewards', level: 1 }).waitFor();
      assert.ok(files.other.length > 0 && files.other.every((p) => p.startsWith(`/mfe/${PKG}/${stable}/`)), files.other.join(', '));

      // The demo member gets the broken canary: the section says it could not be loaded (the
      // shell's own fallback, not a blank page) and the shell reports it. Three visits: 3 loads,
      // 3 failures.
      for (let visit = 1; visit <= 3; visit++) {
        await openRewards(demo, files.demo);
        await demo.getByText('This section could not be loaded').waitFor();
        assert.ok(
          files.demo.some((p) => p.startsWith(`/mfe/${PKG}/${canary}/`)),
          files.demo.join(', '),
        );
        for (let i = 0; i < 100 && reports.length < visit; i++) await demo.waitForTimeout(100);
        assert.equal(reports.length, visit, JSON.stringify(reports));
      }
      assert.deepEqual(reports[0], { remote: 'mfe_rewards', version: canary, outcome: 'load_failed' });

      // Rolled back by the gateway: everybody is told the old version, and the demo member's
      // Rewards comes from it.
      assert.deepEqual(await served(demo), { entry: `/mfe/${PKG}/${stable}/mf-manifest.json`, version: stable, canary: false });
      assert.deepEqual((await served(other)).version, stable);
      await openRewards(demo, files.demo);
      await demo.getByRole('heading', { name: 'Rewards', level: 1 }).waitFor();
      assert.ok(files.demo.length > 0 && files.demo.every((p) => p.startsWith(`/mfe/${PKG}/${stable}/`)), files.demo.join(', '));
      // No more reports: a stable release that loads is not reported.
      assert.equal(reports.length, 3);

      // The shell and the other tabs are untouched: every file that was there has its hash; the new
      // files are the canary's own folder (and the rewritten manifest and service worker).
      const after = tree(STATIC_DIR);
      for (const [file, hash] of before) {
        if (file === 'mfe-manifest.json' || /^sw\.js(\.gz|\.br)?$/.test(file)) continue;
        assert.equal(after.get(file), hash, `${file} was changed`);
      }
      for (const f of [...after.keys()].filter((f) => !before.has(f)))
        assert.ok(f.startsWith(`mfe/${PKG}/${canary}/`), `unexpected new file ${f}`);
    } finally {
      // The team withdraws the canary from the file too (one command): the manifest as it was.
      execFileSync('node', [path.join(REPO, 'scripts/publish-mfe.mjs'), 'rollback', PKG, '--out', STATIC_DIR], {
        cwd: REPO,
        stdio: 'inherit',
      });
      fs.rmSync(copy, { recursive: true, force: true });
      await demo.context().close();
      await other.context().close();
    }
    assert.deepEqual(JSON.parse(fs.readFileSync(manifestFile, 'utf8')), manifestBefore);
  },
);
