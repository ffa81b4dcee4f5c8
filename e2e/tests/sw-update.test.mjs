// The service worker and a republished remote: publish a new version of mfe-rewards (a copy with a
// changed title) into the running portal's static folder with scripts/publish-mfe.mjs. A reload
// shows the new version, every file of that remote comes from the new version's folder (no old
// remoteEntry with new chunks, or the reverse), the new service worker precaches the new version
// instead of the old one, and the page opens offline with the new version.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BASE, STATIC_DIR, newPage, signIn } from './helpers.mjs';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PKG = 'mfe-rewards';

/** The URLs in the service worker's precache. */
const precached = (page) =>
  page.evaluate(async () => {
    const urls = [];
    for (const name of await caches.keys()) {
      if (!name.includes('precache')) continue;
      const cache = await caches.open(name);
      for (const req of await cache.keys()) urls.push(new URL(req.url).pathname);
    }
    return urls;
  });

test('a republished remote is picked up after a reload, all of it from the new version, and precached', { timeout: 300_000 }, async () => {
  assert.ok(STATIC_DIR, "PORTAL_STATIC_DIR names the running portal's static dir");
  const manifestFile = path.join(STATIC_DIR, 'mfe-manifest.json');
  const manifestBefore = fs.readFileSync(manifestFile, 'utf8');
  const oldVersion = JSON.parse(manifestBefore).mfe_rewards.version;
  const version = `0.1.1-sw${process.pid}`;
  const copy = path.join(REPO, '.tmp', `${PKG}-sw-${process.pid}`);

  const page = await newPage();
  const consoleErrors = [];
  page.on('console', (m) => {
    // With the resource's address: "Failed to load resource" alone does not say which.
    if (m.type() === 'error') consoleErrors.push(`${m.text()} ${m.location()?.url ?? ''}`.trim());
  });
  const remoteFiles = [];
  page.on('request', (r) => {
    const p = new URL(r.url()).pathname;
    if (p.startsWith(`/mfe/${PKG}/`)) remoteFiles.push(p);
  });

  try {
    await signIn(page);
    await page.waitForURL((u) => u.pathname === '/home');
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
    await page.goto(`${BASE}/rewards`);
    await page.getByRole('heading', { name: 'Rewards', level: 1 }).waitFor();
    assert.ok(remoteFiles.length > 0 && remoteFiles.every((p) => p.startsWith(`/mfe/${PKG}/${oldVersion}/`)), remoteFiles.join(', '));
    await page.waitForFunction(
      async (v) => {
        for (const name of await caches.keys()) {
          const cache = await caches.open(name);
          if (name.includes('precache') && (await cache.keys()).some((r) => r.url.includes(`/mfe/mfe-rewards/${v}/remoteEntry.js`)))
            return true;
        }
        return false;
      },
      oldVersion,
      { timeout: 30_000 },
    );

    // A new version, with a visible change.
    fs.rmSync(copy, { recursive: true, force: true });
    fs.cpSync(path.join(REPO, PKG), copy, { recursive: true, filter: (src) => !/node_modules|[/\\]dist$/.test(src) });
    const enPath = path.join(copy, 'src/i18n/en.json');
    const en = JSON.parse(fs.readFileSync(enPath, 'utf8'));
    en.rewards.title = 'Rewards, version two';
    fs.writeFileSync(enPath, JSON.stringify(en, null, 2));
    execFileSync('node', [path.join(REPO, 'scripts/publish-mfe.mjs'), copy, version, '--out', STATIC_DIR], { cwd: REPO, stdio: 'inherit' });
    assert.equal(JSON.parse(fs.readFileSync(manifestFile, 'utf8')).mfe_rewards.version, version);
    assert.ok(
      fs.readFileSync(path.join(STATIC_DIR, 'sw.js'), 'utf8').includes(`/mfe/${PKG}/${version}/remoteEntry.js`),
      'sw.js lists the new version',
    );

    remoteFiles.length = 0;
    await page.reload();
    await page.getByRole('heading', { name: 'Rewards, version two', level: 1 }).waitFor();
    await page.getByText('$10 voucher').first().waitFor();
    const fromNew = remoteFiles.filter((p) => p.startsWith(`/mfe/${PKG}/${version}/`));
    assert.deepEqual(
      remoteFiles.filter((p) => !fromNew.includes(p)),
      [],
      'every file of the remote came from the new version',
    );
    for (const file of ['mf-manifest.json', 'remoteEntry.js'])
      assert.ok(fromNew.includes(`/mfe/${PKG}/${version}/${file}`), `${file} of the new version`);
    assert.ok(
      fromNew.some((p) => /\/rewards\.[0-9a-f]{8}\.js$/.test(p)),
      "the new version's page chunk",
    );

    // The new service worker took over: it precaches the new version, and (once active) no longer
    // the old one.
    const swapped = (urls) =>
      urls.some((u) => u === `/mfe/${PKG}/${version}/remoteEntry.js`) && !urls.some((u) => u.startsWith(`/mfe/${PKG}/${oldVersion}/`));
    let urls = [];
    for (let i = 0; i < 60 && !swapped(urls); i++) {
      if (i) await page.waitForTimeout(500);
      urls = await precached(page);
    }
    assert.ok(swapped(urls), `precache: ${urls.filter((u) => u.startsWith(`/mfe/${PKG}/`)).join(', ')}`);

    assert.deepEqual(consoleErrors, [], 'no console errors');
    assert.deepEqual(page.errors, []);

    // Offline, the new version is the one that opens.
    const onlineErrors = consoleErrors.length;
    await page.context().setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Rewards, version two', level: 1 }).waitFor();
    await page.context().setOffline(false);
    await page.getByText('No internet connection').waitFor({ state: 'detached' });

    assert.deepEqual(page.errors, []);
    // Offline, Chromium logs each failed request (the API, the network poll) as an error: only those.
    const unexpected = consoleErrors
      .slice(onlineErrors)
      .filter((t) => !/ERR_INTERNET_DISCONNECTED|Failed to load resource|Failed to fetch/.test(t));
    assert.deepEqual(unexpected, []);
  } finally {
    fs.rmSync(copy, { recursive: true, force: true });
    // The other tests expect the remote as it was: its previous manifest entry and worker.
    fs.writeFileSync(manifestFile, manifestBefore);
    execFileSync('node', [path.join(REPO, 'scripts/sw.mjs'), '--out', STATIC_DIR], { cwd: REPO, stdio: 'inherit' });
  }
});
