import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, newPage, signIn } from './helpers.mjs';

// A minimal React DevTools hook: every react-dom copy that starts in the page registers here.
function countReactRenderers() {
  window.__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
    renderers: new Map(),
    supportsFiber: true,
    inject(renderer) {
      const id = this.renderers.size + 1;
      this.renderers.set(id, renderer);
      return id;
    },
    onScheduleFiberRoot() {},
    onCommitFiberRoot() {},
    onCommitFiberUnmount() {},
    onPostCommitFiberRoot() {},
    checkDCE() {},
  };
}

test('every micro-frontend renders its page from the API, sharing one React and one runtime', async () => {
  const page = await newPage({ width: 1280, height: 900 });
  await page.addInitScript(countReactRenderers);
  const remotes = new Set();
  page.on('request', (r) => {
    const m = r.url().match(/\/mfe\/([^/]+)\//);
    if (m) remotes.add(m[1]);
  });
  await signIn(page);
  await page.waitForURL((u) => u.pathname === '/home');
  // mfe-qff is mounted on /home (its summary: the link, or the airline balance once linked).
  await page.getByRole('heading', { name: 'Qantas Frequent Flyer' }).waitFor();

  await page.goto(`${BASE}/transactions`);
  await page.getByRole('heading', { name: 'My Orders', level: 1 }).waitFor();
  await page.getByText('Melbourne Central').first().waitFor();
  await page.getByText('$129.90').first().waitFor();

  await page.goto(`${BASE}/rewards`);
  await page.getByRole('heading', { name: 'Rewards', level: 1 }).waitFor();
  await page.getByText('$10 voucher').first().waitFor();

  await page.goto(`${BASE}/offers`);
  await page.getByRole('heading', { name: 'Offers', level: 1 }).waitFor();
  await page.getByText('Double points this weekend').first().waitFor();

  assert.deepEqual([...remotes].sort(), ['mfe-orders', 'mfe-qff', 'mfe-rewards'], 'each page came from its remote');
  // Client-side navigation through every tab (the last full load was /offers), then count.
  for (const name of ['My Details', 'My Orders', 'Rewards', 'Home']) {
    await page.getByRole('link', { name, exact: true }).first().click();
  }
  await page.getByRole('heading', { name: 'Qantas Frequent Flyer' }).waitFor();
  assert.equal(await page.evaluate(() => window.__portalRuntimeInstances), 1, 'one runtime instance');
  assert.equal(await page.evaluate(() => window.__REACT_DEVTOOLS_GLOBAL_HOOK__.renderers.size), 1, 'one react-dom instance');
  assert.deepEqual(page.errors, []);
});

test('?lang=ar turns the page right-to-left; an unknown language is ignored', async () => {
  const page = await newPage();
  await page.goto(`${BASE}/?lang=ar`);
  await page.waitForFunction(() => document.documentElement.dir === 'rtl');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'ar');
  await page
    .getByRole('button', { name: 'Email me a sign-in link' })
    .waitFor({ state: 'detached', timeout: 5000 })
    .catch(() => {
      throw new Error('the login button is still in English under ?lang=ar');
    });

  const other = await newPage();
  await other.goto(`${BASE}/?lang=xx`);
  await other.getByRole('button', { name: 'Email me a sign-in link' }).waitFor();
  assert.equal(await other.evaluate(() => document.documentElement.dir), 'ltr');
  assert.equal(await other.evaluate(() => document.documentElement.lang), 'en');
});
