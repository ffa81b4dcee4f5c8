// Issue 14: stores near me, check-in at a store and event sign-up, in Chromium against the real
// portal (the packaged DB-IP database, e2e/run.sh). With the device position granted the nearest
// store comes first from it; refused, the IP position (the forwarded address of a visitor in
// Perth) orders them, with the database's credit. A check-in through /loc/{handle} and an event
// sign-up with the event's own fields both sign in by the emailed link and say what was recorded,
// once. Signed in, a check-in is one tap (English and Arabic, on a phone), and a re-opened event
// shows the sign-up and its answers (issue 24).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { BASE, latestEmail, newPage, signIn } from './helpers.mjs';

/** A new member of its own (registered through the API), so a visit or sign-up is this test's alone. */
async function newMember(name) {
  const email = `${name}-${Date.now()}@example.com`;
  const res = await fetch(`${BASE}/api/auth/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, first_name: 'Lee', last_name: 'Visitor' }),
  });
  assert.equal(res.status, 202, await res.text());
  return email;
}

// Flinders Street station, Melbourne: 966 m from Melbourne Central.
const FLINDERS_ST = { latitude: -37.8183, longitude: 144.9671 };
// An address the packaged database places in Perth (the University of Western Australia).
const PERTH_IP = '130.95.1.1';

/** Home's nearest stores: below the fold on a phone, they load once scrolled to. */
const nearest = async (page) => {
  await page.getByRole('heading', { level: 1 }).waitFor();
  const card = page.getByRole('region', { name: 'Stores near you' });
  // The page still grows while the airline summary arrives: scroll to its end until the card shows.
  for (let i = 0; i < 50 && (await card.count()) === 0; i++) {
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForTimeout(200);
  }
  await card.getByRole('listitem').nth(2).waitFor();
  return { card, names: await card.getByRole('listitem').getByRole('link').allTextContents() };
};

test('stores near you: the device position when granted, nearest first', { timeout: 60_000 }, async () => {
  const page = await newPage({ geolocation: FLINDERS_ST, permissions: ['geolocation'] });
  await signIn(page, 'other@example.com');
  await page.waitForURL((u) => u.pathname === '/home');
  const { card, names } = await nearest(page);
  assert.deepEqual(names, ['Melbourne Central', 'Chadstone', 'Pitt Street Mall, Sydney']);
  await card.getByText('Distances from your current location.').waitFor();
  await card.getByText('950 m away').waitFor();
  assert.equal(
    await card.getByRole('button', { name: 'Use my precise location' }).count(),
    0,
    'nothing to ask: the position is the device’s',
  );
  // The preferred-store picker is ordered the same way, with distances.
  await page.goto(`${BASE}/preference`);
  const options = page.getByLabel('Store').locator('option');
  await page.getByRole('option', { name: /^Melbourne Central · / }).waitFor({ state: 'attached' });
  assert.deepEqual((await options.allTextContents()).slice(1, 3), ['Melbourne Central · 950 m', 'Chadstone · 13 km']);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('stores near you: refused, the IP position orders them, with the database credit', { timeout: 60_000 }, async () => {
  const page = await newPage({ extraHTTPHeaders: { 'x-forwarded-for': PERTH_IP } });
  await signIn(page, 'other@example.com');
  await page.waitForURL((u) => u.pathname === '/home');
  const { card, names } = await nearest(page);
  assert.equal(names[0], 'Hay Street Mall, Perth');
  await card.getByText(/Distances from your approximate location/).waitFor();
  assert.equal(await card.getByRole('link', { name: 'IP Geolocation by DB-IP' }).getAttribute('href'), 'https://db-ip.com');
  // Asking the browser, which refuses (no permission in this context): still the IP position.
  await card.getByRole('button', { name: 'Use my precise location' }).click();
  await card.getByText("We couldn't get your location, so we're using an approximate one.").waitFor();
  assert.equal((await nearest(page)).names[0], 'Hay Street Mall, Perth');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

/** Seconds to midnight in `timeZone` now. */
const secondsToMidnight = (timeZone) => {
  const [h, m, s] = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' })
    .format(new Date())
    .split(':')
    .map(Number);
  return 24 * 3600 - (h * 3600 + m * 60 + s);
};
const untilNotNearMidnight = async (timeZone) => {
  const left = secondsToMidnight(timeZone);
  if (left <= 60) await new Promise((r) => setTimeout(r, (left + 2) * 1000));
};

// Melbourne Central opens 10:00–19:00 Monday to Wednesday, 10:00–21:00 Thursday. Each instant is
// a Wednesday in November, daylight saving time (UTC+11); the browser's clock is fixed to it.
const STORE_CLOCK = [
  ['2026-11-24T21:00:00Z', 'Closed · opens at 10:00'], // 08:00, before opening
  ['2026-11-25T01:00:00Z', 'Open now · closes 19:00'], // 12:00
  ['2026-11-25T09:00:00Z', 'Closed · opens Thursday at 10:00'], // 20:00, after closing
];

test("the store page says open or closed by the store's own clock, whatever the hour", { timeout: 60_000 }, async () => {
  for (const [instant, expected] of STORE_CLOCK) {
    // A visitor in Perth (UTC+8), so the store's zone, not the browser's, decides.
    const page = await newPage({ timezoneId: 'Australia/Perth' });
    await page.clock.setFixedTime(new Date(instant));
    await page.goto(`${BASE}/loc/melbourne-central`);
    await page.getByRole('heading', { level: 1, name: 'Melbourne Central' }).waitFor();
    await page.getByText(expected, { exact: true }).waitFor();
    const today = page.getByRole('table', { name: 'Opening hours' }).locator('tr[aria-current="date"]');
    assert.match(await today.locator('th').textContent(), /^Wednesday/);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('a check-in through /loc/{handle}: the store page, the emailed link, "Checked in", once a day', { timeout: 90_000 }, async () => {
  const page = await newPage({ geolocation: FLINDERS_ST, permissions: ['geolocation'] });
  await page.goto(`${BASE}/loc/melbourne-central`);
  await page.getByRole('heading', { level: 1, name: 'Melbourne Central' }).waitFor();
  await page.getByText(/211 La Trobe Street/).waitFor();
  // Open or closed depends on the hour (the test below fixes the clock and checks each wording).
  await page.locator('.store-open').waitFor();
  assert.equal(await page.getByRole('table', { name: 'Opening hours' }).getByRole('row').count(), 7);
  assert.match(
    await page.getByRole('link', { name: 'Get directions' }).getAttribute('href'),
    /^https:\/\/www\.google\.com\/maps\/dir\/\?api=1&destination=-37\.81029%2C144\.96284$/,
  );
  await page.getByText('950 m away').waitFor();

  const email = await newMember('visitor');
  // A visit counts once per store and local day (the server's clock, in Melbourne): don't start
  // the two check-ins in the last minute of a Melbourne day, or they would fall on two days.
  await untilNotNearMidnight('Australia/Melbourne');
  const checkIn = async ({ fill }) => {
    const since = Date.now();
    if (fill) await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Email me a check-in link' }).click();
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
    const mail = await latestEmail(email, { after: since });
    assert.equal(new URL(mail.link).searchParams.get('redirect'), '/loc/melbourne-central');
    await page.goto(mail.link);
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.waitForURL((u) => u.pathname === '/loc/melbourne-central');
  };
  await checkIn({ fill: true });
  await page.getByRole('heading', { name: 'Checked in at Melbourne Central' }).waitFor();
  // Signed in now, the same day again: one tap, no email; the visit is not counted twice, and
  // the page says so.
  await page.goto(`${BASE}/loc/melbourne-central`);
  await page.getByRole('button', { name: 'Check in here' }).click();
  await page.getByRole('heading', { name: "You've already checked in at Melbourne Central today" }).waitFor();
  assert.equal(await page.getByLabel('Email address').count(), 0);

  // An unknown store: a clear page, with every store.
  await page.goto(`${BASE}/loc/atlantis`);
  await page.getByRole('heading', { level: 1, name: "We couldn't find this store" }).waitFor();
  await page.getByRole('link', { name: 'Chadstone' }).waitFor();
  // ?location_id= finds a store by its id.
  await page.goto(`${BASE}/?location_id=2`);
  await page.getByRole('heading', { level: 1, name: 'Chadstone' }).waitFor();
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('an event sign-up with its custom fields, checked on the server, recorded once', { timeout: 90_000 }, async () => {
  const page = await newPage();
  const email = await newMember('guest');
  await page.goto(`${BASE}/?mode=event&m=spring-launch`);
  await page.getByRole('heading', { level: 1, name: 'Spring collection launch' }).waitFor();
  await page.getByLabel('Guests, including you').selectOption('2');
  await page.getByLabel('Dietary requirements (optional)').fill('Vegetarian');
  await page.getByLabel('Your birthday, for a birthday treat (optional)').fill('1990-02-28');
  await page.getByLabel('Bring a friend: their email (optional)').fill('not-an-email');
  await page.getByLabel('I agree to be photographed at the event').check();
  await page.getByLabel('Email address').fill(email);
  const since = Date.now();
  await page.getByRole('button', { name: 'Email me a link to confirm' }).click();
  // The server refuses the friend's address, on that field; nothing is sent.
  const friend = page.getByLabel('Bring a friend: their email (optional)');
  await page.waitForFunction(() => document.getElementById('event-field-friend_email')?.getAttribute('aria-invalid') === 'true');
  assert.match(await friend.evaluate((el) => document.getElementById(el.getAttribute('aria-describedby')).textContent), /\S/);
  await friend.fill('friend@example.com');
  await page.getByRole('button', { name: 'Email me a link to confirm' }).click();
  await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();
  const mail = await latestEmail(email, { after: since });
  await page.goto(mail.link);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.waitForURL((u) => u.pathname === '/event/spring-launch');
  await page.getByRole('heading', { name: "You're signed up for Spring collection launch" }).waitFor();
  // Re-opened, signed in: the sign-up and its answers, not an empty form.
  await page.goto(`${BASE}/event/spring-launch`);
  await page.getByRole('heading', { name: "You're signed up for Spring collection launch" }).waitFor();
  await page.getByText('Vegetarian').waitFor();
  assert.equal(await page.getByLabel('Email address').count(), 0);

  // A finished event: a clear state, no form.
  await page.goto(`${BASE}/event/winter-sale-2025`);
  await page.getByRole('heading', { level: 1, name: 'This event has finished' }).waitFor();
  assert.equal(await page.getByLabel('Email address').count(), 0);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a signed-in member checks in with one tap, on a phone in English and Arabic', { timeout: 90_000 }, async () => {
  await untilNotNearMidnight('Australia/Melbourne');
  for (const [lang, button, heading] of [
    ['en', 'Check in here', 'Checked in at Chadstone'],
    ['ar', 'سجّل الحضور هنا', 'تم تسجيل زيارتك في Chadstone'],
  ]) {
    const page = await newPage({ width: 390, height: 844 });
    await signIn(page, await newMember(`onetap-${lang}`));
    await page.goto(`${BASE}/loc/chadstone?lang=${lang}`);
    if (lang === 'ar') await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    await page.getByRole('button', { name: button }).click();
    await page.getByRole('heading', { name: heading }).waitFor();
    assert.equal(await page.locator('#loc-check-in-email').count(), 0, 'no email to confirm');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('a signed-in member signs up to an event with one tap, on a phone in English and Arabic', { timeout: 90_000 }, async () => {
  const tenant = JSON.parse(await readFile(new URL('../../config/tenant.json', import.meta.url), 'utf8'));
  const event = tenant.events['spring-launch'];
  const label = (name, lang) => event.customFields.find((f) => f.name === name).label[lang];
  for (const [lang, button, heading] of [
    ['en', 'Sign me up', "You're signed up for Spring collection launch"],
    ['ar', 'سجّلني', `تم تسجيلك في ${event.title.ar}`],
  ]) {
    const page = await newPage({ width: 390, height: 844 });
    await signIn(page, await newMember(`onetap-event-${lang}`));
    await page.goto(`${BASE}/event/spring-launch?lang=${lang}`);
    if (lang === 'ar') await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    await page.getByLabel(label('guests', lang)).selectOption('2');
    await page.getByLabel(label('terms', lang)).check();
    assert.equal(await page.getByRole('button', { name: button, exact: true }).count(), 1);
    assert.equal(await page.locator('#event-sign-up-email').count(), 0, 'no address to confirm');
    const signedUp = page.waitForResponse((r) => r.url().endsWith('/api/activity/event') && r.request().method() === 'POST');
    await page.getByRole('button', { name: button, exact: true }).click();
    assert.equal((await signedUp).status(), 200);
    await page.getByRole('heading', { name: heading }).waitFor();
    // Re-opened: the sign-up is there, with the answers, not an empty form.
    await page.reload();
    await page.getByRole('heading', { name: heading }).waitFor();
    assert.equal(await page.getByRole('button', { name: button, exact: true }).count(), 0);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});
