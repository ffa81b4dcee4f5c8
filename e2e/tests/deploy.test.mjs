// Independent deployment: rebuild only mfe-profile, with a changed string, into a new versioned
// folder and point its manifest entry there. The new string shows after a reload; the shell's
// and the other remotes' files are untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASE, STATIC_DIR, newPage, signIn, tree } from './helpers.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

test('rebuilding only mfe-profile into a new version changes only that remote', { timeout: 300_000 }, async () => {
  assert.ok(STATIC_DIR, "PORTAL_STATIC_DIR names the running portal's static dir");
  const page = await newPage();
  await signIn(page);
  await page.waitForURL((u) => u.pathname === '/home');
  await page.goto(`${BASE}/profile`);
  await page.getByRole('heading', { name: 'My Details', level: 1 }).waitFor();

  const before = tree(STATIC_DIR);
  const manifestBefore = JSON.parse(fs.readFileSync(path.join(STATIC_DIR, 'mfe-manifest.json'), 'utf8'));

  const copy = path.join(REPO, '.tmp', `mfe-profile-e2e-${process.pid}`);
  fs.rmSync(copy, { recursive: true, force: true });
  fs.cpSync(path.join(REPO, 'mfe-profile'), copy, { recursive: true, filter: (src) => !/node_modules|[/\\]dist$/.test(src) });
  try {
    const enPath = path.join(copy, 'src/i18n/en.json');
    const en = JSON.parse(fs.readFileSync(enPath, 'utf8'));
    en.profile.title = 'My Details, redeployed';
    fs.writeFileSync(enPath, JSON.stringify(en, null, 2));
    const version = `0.1.1-e2e${process.pid}`;
    execFileSync('node', [path.join(REPO, 'scripts/publish-mfe.mjs'), copy, version, '--out', STATIC_DIR], { cwd: REPO, stdio: 'inherit' });

    const afterTree = tree(STATIC_DIR);
    const manifestAfter = JSON.parse(fs.readFileSync(path.join(STATIC_DIR, 'mfe-manifest.json'), 'utf8'));
    for (const [file, hash] of before) {
      // The remote list, and the service worker that precaches what it names.
      if (file === 'mfe-manifest.json' || /^sw\.js(\.gz|\.br)?$/.test(file)) continue;
      assert.equal(afterTree.get(file), hash, `${file} was changed`);
    }
    const added = [...afterTree.keys()].filter((f) => !before.has(f));
    assert.ok(added.length > 0);
    for (const f of added) assert.ok(f.startsWith(`mfe/mfe-profile/${version}/`), `unexpected new file ${f}`);
    assert.equal(manifestAfter.mfe_profile.version, version);
    assert.ok(
      fs.readFileSync(path.join(STATIC_DIR, 'sw.js'), 'utf8').includes(`/mfe/mfe-profile/${version}/remoteEntry.js`),
      'the service worker precaches the new version',
    );
    for (const name of Object.keys(manifestBefore).filter((n) => n !== 'mfe_profile')) {
      assert.deepEqual(manifestAfter[name], manifestBefore[name], `${name} entry untouched`);
    }

    await page.reload();
    await page.getByRole('heading', { name: 'My Details, redeployed', level: 1 }).waitFor();
    await page.getByText('demo@example.com').first().waitFor();
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
  }
});
