// Issue 12, the native wrapper, against the real backend: a stand-in for the app's bridge (added
// before any page script, in every frame, as a wrapper injects it) receives a screen view with the
// spec's title on every route, the actions of the buttons shown only when it offers them, and
// logout; a wrapper declaring some actions gets only those buttons; and a portal page inside an
// iframe posts nothing to the bridge (only the top frame talks to the app).
// The protocol: docs/native-wrapper.md.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, newPage, signIn } from './helpers.mjs';

const tabs = (page) => page.getByRole('navigation', { name: 'Account sections' });
const subnav = (page, name) => page.getByRole('navigation', { name });

/**
 * Runs in the page before its scripts, in every frame: installs one shape of bridge that hands
 * each message to the test (window.__nativeRecord, exposed to every frame), saying which frame
 * sent it and in what form (a string for React Native and Android, an object for iOS).
 */
function installBridge({ shape, declare, androidActions }) {
  const record = (raw) =>
    window.__nativeRecord({
      top: window.top === window,
      path: location.pathname,
      form: typeof raw,
      message: typeof raw === 'string' ? JSON.parse(raw) : raw,
    });
  if (shape === 'react-native') window.ReactNativeWebView = { postMessage: record };
  if (shape === 'ios') window.webkit = { messageHandlers: { portal: { postMessage: record } } };
  if (shape === 'android') {
    window.PortalAndroid = { postMessage: record };
    if (androidActions) window.PortalAndroid.getActions = () => JSON.stringify(androidActions);
  }
  if (declare) window.PortalNative = { actions: declare };
}

/** A page with the bridge of `shape`; `page.records` is every message any frame posted to it. */
async function wrapperPage(bridge) {
  const page = await newPage({ width: 1280, height: 900 });
  const records = [];
  await page.exposeFunction('__nativeRecord', (r) => records.push(r));
  await page.addInitScript(installBridge, bridge);
  page.records = records;
  return page;
}

const screenViews = (records) =>
  records.filter((r) => r.message.action === 'firebaseAnalytics' && r.message.type === 'screen_view').map((r) => r.message.name);
const events = (records) =>
  records.filter((r) => r.message.action === 'firebaseAnalytics' && r.message.type === 'event').map((r) => r.message.name);
const actions = (records) => records.filter((r) => r.message.action !== 'firebaseAnalytics').map((r) => r.message.action);

/** Waits until `check(records)` holds (messages come to the test asynchronously). */
async function until(page, check, what) {
  for (let i = 0; i < 100; i++) {
    if (check(page.records)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`${what}: ${JSON.stringify(page.records.map((r) => r.message))}`);
}

test(
  'React Native bridge: a screen view on every route, the buttons of the actions it offers post them, logout posts logout',
  { timeout: 180_000 },
  async () => {
    const page = await wrapperPage({ shape: 'react-native' });
    await signIn(page);
    await page.getByRole('heading', { name: /^Hello/, level: 1 }).waitFor();
    await until(page, (r) => screenViews(r).includes('Home'), 'the Home screen view');
    assert.ok(screenViews(page.records).includes('Login page'), 'the login page reported itself');
    assert.ok(actions(page.records).includes('login'), 'login posted');
    assert.ok(
      page.records.every((r) => r.top && r.form === 'string'),
      'React Native takes JSON strings',
    );
    for (const r of page.records) {
      const { message } = r;
      if (message.action !== 'firebaseAnalytics') continue;
      assert.deepEqual(Object.keys(message).sort(), ['action', 'name', 'params', 'type']);
      assert.doesNotMatch(JSON.stringify(message), /demo@example|Dana|\+61400000001/, 'no personal data in analytics');
    }
    page.records.length = 0;

    // Home: "Shop now" (the wrapper declares nothing: every action but the wallets).
    await page.getByRole('button', { name: 'Shop now' }).click();
    await until(page, (r) => actions(r).includes('gotoShop'), 'gotoShop from Home');

    // Every tab and page, each by its link.
    await tabs(page).getByRole('link', { name: 'My Details', exact: true }).click();
    await page.getByRole('heading', { name: 'Personal details', level: 2 }).waitFor();
    // No app button to delete the account: deleteMyAccount is posted once the privacy centre has
    // deleted it on the server (privacy.test.mjs).
    assert.equal(await page.getByRole('button', { name: 'Delete my account' }).count(), 0);

    for (const name of ['My Size', 'Messaging Preferences', 'Preference']) {
      await subnav(page, 'My details sections').getByRole('link', { name, exact: true }).click();
      await page.getByRole('heading', { name, level: 1 }).waitFor();
    }
    await subnav(page, 'My details sections').getByRole('link', { name: 'Privacy', exact: true }).click();
    await page.getByRole('heading', { name: 'Privacy centre', level: 1 }).waitFor();

    await tabs(page).getByRole('link', { name: 'My Orders', exact: true }).click();
    await page.getByRole('heading', { name: 'My Orders', level: 1 }).waitFor();
    const app = page.getByRole('group', { name: 'In the app' });
    await app.getByRole('button', { name: 'Go to wish list' }).click();
    await app.getByRole('button', { name: 'Go to cart' }).click();
    await subnav(page, 'My orders sections').getByRole('link', { name: 'Claim Transaction', exact: true }).click();
    await page.getByRole('heading', { name: 'Claim Transaction', level: 1 }).waitFor();

    await tabs(page).getByRole('link', { name: 'Rewards', exact: true }).click();
    await page.getByRole('heading', { name: 'Rewards', level: 1 }).waitFor();
    // No wallet buttons: a wrapper that declares nothing offers neither.
    await page.locator('a.reward__name').first().click();
    await page.waitForURL(/\/rewards\/item\/\d+$/);
    await page.getByRole('img', { name: /^QR code of voucher/ }).waitFor();
    assert.equal(await page.getByRole('button', { name: /Apple Wallet|Google Pay/ }).count(), 0);

    await tabs(page).getByRole('link', { name: 'Offers', exact: true }).click();
    await page.getByRole('heading', { name: 'Offers', level: 1 }).waitFor();
    await until(page, (r) => actions(r).includes('loadOfferList'), 'loadOfferList');
    await page.getByRole('button', { name: 'Shop now' }).click();

    await until(page, (r) => actions(r).filter((a) => a === 'gotoShop').length === 2, 'gotoShop from Offers');
    assert.deepEqual(screenViews(page.records), [
      'My Details',
      'My Size',
      'Messaging Preferences',
      'Preference',
      'Privacy Centre',
      'My Orders',
      'Claim Transaction',
      'Rewards',
      'Rewards Item Detail',
      'Offers',
    ]);
    assert.deepEqual(actions(page.records), ['gotoShop', 'gotoWishlist', 'gotoCart', 'loadOfferList', 'gotoShop']);
    const offerList = page.records.find((r) => r.message.action === 'loadOfferList').message;
    assert.ok(Array.isArray(offerList.ids) && offerList.ids.length > 0 && offerList.ids.every(Number.isInteger), JSON.stringify(offerList));
    // The tab clicks and the buttons' own events, with the spec's prefixes.
    const sent = events(page.records);
    for (const name of [
      'home_goto_shop',
      'my_details_click',
      'my_size_click',
      'messaging_preferences_click',
      'my_orders_click',
      'my_orders_goto_wishlist',
      'my_orders_goto_cart',
      'claim_transaction_click',
      'rewards_click',
      'offers_click',
      'offers_goto_shop',
    ]) {
      assert.ok(sent.includes(name), `${name} in ${sent}`);
    }

    // Log out: the wrapper hears it.
    page.records.length = 0;
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('heading', { name: 'Logged out securely' }).waitFor();
    await until(page, (r) => actions(r).includes('logout'), 'logout');
    assert.deepEqual(page.errors, []);
  },
);

test(
  'Android bridge declaring some actions (getActions): only their buttons show, and the screen views still arrive',
  { timeout: 120_000 },
  async () => {
    const page = await wrapperPage({ shape: 'android', androidActions: ['gotoCart', 'deleteMyAccount'] });
    await signIn(page);
    await page.getByRole('heading', { name: /^Hello/, level: 1 }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Shop now' }).count(), 0, 'no gotoShop: no "Shop now"');

    await tabs(page).getByRole('link', { name: 'My Orders', exact: true }).click();
    await page.getByRole('heading', { name: 'My Orders', level: 1 }).waitFor();
    const app = page.getByRole('group', { name: 'In the app' });
    await app.getByRole('button', { name: 'Go to cart' }).click();
    assert.deepEqual(await app.getByRole('button').allTextContents(), ['Go to cart']);

    await tabs(page).getByRole('link', { name: 'My Details', exact: true }).click();
    await page.getByRole('heading', { name: 'Personal details', level: 2 }).waitFor();

    await tabs(page).getByRole('link', { name: 'Offers', exact: true }).click();
    await page.getByRole('heading', { name: 'Offers', level: 1 }).waitFor();
    await page.getByRole('article').first().waitFor();
    assert.equal(await page.getByRole('button', { name: 'Shop now' }).count(), 0);

    await until(page, (r) => screenViews(r).includes('Offers'), 'the Offers screen view');
    // loadOfferList is not declared: not posted.
    assert.deepEqual(
      actions(page.records).filter((a) => a !== 'login'),
      ['gotoCart'],
    );
    const views = screenViews(page.records);
    assert.deepEqual(views.slice(views.lastIndexOf('Home')), ['Home', 'My Orders', 'My Details', 'Offers']);
    assert.ok(
      page.records.every((r) => r.top && r.form === 'string'),
      'Android takes JSON strings',
    );
    assert.deepEqual(page.errors, []);
  },
);

test('iOS bridge declaring through window.PortalNative: objects reach webkit.messageHandlers.portal', { timeout: 120_000 }, async () => {
  const page = await wrapperPage({ shape: 'ios', declare: ['gotoShop', 'gotoWishlist'] });
  await signIn(page);
  await page.getByRole('button', { name: 'Shop now' }).click();
  await tabs(page).getByRole('link', { name: 'My Orders', exact: true }).click();
  const app = page.getByRole('group', { name: 'In the app' });
  await app.getByRole('button', { name: 'Go to wish list' }).click();
  assert.deepEqual(await app.getByRole('button').allTextContents(), ['Go to wish list']);
  await until(page, (r) => actions(r).includes('gotoWishlist'), 'gotoWishlist');
  assert.deepEqual(
    actions(page.records).filter((a) => a !== 'login'),
    ['gotoShop', 'gotoWishlist'],
  );
  const views = screenViews(page.records);
  assert.deepEqual(views.slice(views.lastIndexOf('Home')), ['Home', 'My Orders']);
  assert.ok(
    page.records.every((r) => r.form === 'object'),
    'WKWebView gets objects',
  );
  assert.deepEqual(page.errors, []);
});

test('inside an iframe the portal posts nothing to the bridge, even one injected into every frame', { timeout: 120_000 }, async () => {
  const page = await wrapperPage({ shape: 'react-native' });
  await signIn(page);
  await page.getByRole('heading', { name: /^Hello/, level: 1 }).waitFor();
  await until(page, (r) => screenViews(r).includes('Home'), 'the top frame’s Home screen view');
  page.records.length = 0;

  // A portal page (same origin, same session) framing another portal page.
  await page.evaluate((src) => {
    const frame = document.createElement('iframe');
    frame.name = 'framed';
    frame.title = 'Framed portal';
    frame.src = src;
    frame.style.width = '800px';
    frame.style.height = '600px';
    document.body.appendChild(frame);
  }, `${BASE}/offers`);
  const framed = page.frameLocator('iframe[name=framed]');
  await framed.getByRole('heading', { name: 'Offers', level: 1 }).waitFor();
  await framed.getByRole('article').first().waitFor();
  // The frame has the bridge (the init script ran there too) but does not use it.
  const frame = page.frame({ name: 'framed' });
  assert.equal(await frame.evaluate(() => typeof window.ReactNativeWebView?.postMessage), 'function');
  assert.equal(await frame.evaluate(() => window.top === window), false);
  // No "Shop now" in the frame: no actions are offered there.
  assert.equal(await framed.getByRole('button', { name: 'Shop now' }).count(), 0);
  await framed.getByRole('navigation', { name: 'Account sections' }).getByRole('link', { name: 'Rewards', exact: true }).click();
  await framed.getByRole('heading', { name: 'Rewards', level: 1 }).waitFor();

  // Meanwhile the top frame still talks to the app.
  await tabs(page).getByRole('link', { name: 'My Orders', exact: true }).click();
  await page.getByRole('heading', { name: 'My Orders', level: 1 }).waitFor();
  await until(page, (r) => screenViews(r).includes('My Orders'), 'the top frame’s My Orders screen view');
  await new Promise((r) => setTimeout(r, 300));
  const fromFrame = page.records.filter((r) => !r.top);
  assert.deepEqual(fromFrame, [], 'nothing from the frame');
  assert.deepEqual(screenViews(page.records), ['My Orders']);
  assert.deepEqual(page.errors, []);
});
