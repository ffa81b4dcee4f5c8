// Issue 10, the airline link and points conversion, against the real backend and the partner
// sandbox (its own process, started by the launcher) as demo@example.com: on Rewards the member
// links their Frequent Flyer number (checked with the airline), converts points once despite a
// double click, and sees both balances change once; with the airline down, a clear message and
// nothing converted.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { api as call, newPage, recordAnalytics, signIn } from './helpers.mjs';

const SANDBOX = process.env.QFF_SANDBOX_URL;
const NUMBER = '1900123456';
const api = async (token, path) => (await call(token, 'GET', path)).body;
const tabs = (page) => page.getByRole('navigation', { name: 'Account sections' });
const fmt = (n) => new Intl.NumberFormat('en-AU').format(n);

/** The airline's own figure for the member, straight from the sandbox. */
async function airlinePoints() {
  const res = await fetch(`${SANDBOX}/v1/members/${NUMBER}`, { headers: { Authorization: 'Bearer sandbox' } });
  return (await res.json()).points;
}

async function faults(method, body) {
  const res = await fetch(`${SANDBOX}/_sandbox/faults`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    body: body && JSON.stringify(body),
  });
  assert.ok(res.ok, `sandbox faults: ${res.status}`);
}

test(
  'Airline: link the Frequent Flyer account, convert points once, both balances change once; a clear message when the airline is down',
  { timeout: 180_000 },
  async () => {
    assert.ok(SANDBOX, 'QFF_SANDBOX_URL is set by e2e/run.sh');
    const page = await newPage({ width: 390, height: 844 });
    await page.addInitScript(recordAnalytics);
    await signIn(page);
    const token = await page.evaluate(() => localStorage.getItem('portal.auth'));
    assert.equal((await api(token, '/api/qff/points')).linked, false, 'the demo member starts unlinked');

    await tabs(page).getByRole('link', { name: 'Rewards', exact: true }).click();
    const qff = page.getByRole('region', { name: 'Qantas Frequent Flyer' });
    await qff.waitFor();

    // A wrong last name is refused at its field, in plain words.
    await qff.getByLabel('Frequent Flyer number').fill(NUMBER);
    await qff.getByLabel('Last name on the Frequent Flyer account (optional)').fill('Smith');
    await qff.getByRole('button', { name: 'Continue' }).click();
    await qff.getByText("This last name doesn't match the Frequent Flyer account").waitFor();
    // Empty: the profile's own last name is used.
    await qff.getByLabel('Last name on the Frequent Flyer account (optional)').fill('');
    await qff.getByRole('button', { name: 'Continue' }).click();
    await qff.getByText('Is this you?').waitFor();
    await qff.getByText(`Dana Demo, ${NUMBER}`).waitFor();
    await qff.getByRole('button', { name: 'Yes, link this account' }).click();
    const airlineBefore = await airlinePoints();
    await qff
      .getByText(`${fmt(airlineBefore)} Qantas Points`)
      .first()
      .waitFor();
    const status = await api(token, '/api/qff/points');
    assert.equal(status.qff_number, NUMBER);
    const profile = await api(token, '/api/profile');
    assert.ok(
      profile.identities.some((i) => i.handle === 'qff_number' && i.identifier === NUMBER),
      'on the profile',
    );
    assert.equal(profile.custom_attributes.qantas.qff_last_name, 'Demo');

    // Convert one block: a preview, a confirmation (double-clicked), a receipt.
    const before = (await api(token, '/api/profile/balances')).data.points;
    const convert = qff.getByRole('region', { name: 'Convert points to Qantas Points' });
    await convert.getByText('1,000 points → 500 Qantas Points').waitFor();
    const posts = [];
    page.on('request', (r) => r.url().endsWith('/api/qff/redeem') && posts.push(r.headers()['idempotency-key']));
    // Asked in points, a block at a time (issue 24), not in "blocks".
    const amount = convert.getByLabel('Points to convert');
    assert.equal(await amount.inputValue(), '1000');
    assert.ok(before >= 2000, `the demo member has at least two blocks: ${before}`);
    await convert.getByRole('button', { name: '1,000 points more' }).click();
    assert.equal(await amount.inputValue(), '2000');
    await convert.getByText('2,000 points', { exact: true }).waitFor();
    await convert.getByRole('button', { name: '1,000 points fewer' }).click();
    assert.equal(await amount.inputValue(), '1000');
    await convert.getByRole('button', { name: 'Convert', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Convert 1,000 points?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Convert points' }).dblclick();
    const receipt = page.getByRole('dialog', { name: 'Points converted' });
    await receipt.waitFor();
    await receipt.getByText(`Your points balance is now ${fmt(before - 1000)} points.`).waitFor();
    assert.equal(posts.length, 1, 'one request');
    assert.ok(posts[0], 'with an Idempotency-Key');
    assert.equal((await api(token, '/api/profile/balances')).data.points, before - 1000, 'the member balance drops once');
    assert.equal(await airlinePoints(), airlineBefore + 500, 'the airline balance rises once');
    const conversions = (await api(token, '/api/qff/conversions')).data;
    assert.deepEqual(
      conversions.map((c) => c.status),
      ['completed'],
    );
    const ledger = (await api(token, '/api/profile/points?sort=-issued_at&per_page=100')).data.filter((e) => e.source === 'conversion');
    assert.deepEqual(
      ledger.map((e) => e.kind),
      ['confirm', 'hold'],
    );
    await receipt.getByRole('button', { name: 'Close' }).click();
    // Both balances on screen moved.
    await qff
      .getByText(`${fmt(airlineBefore + 500)} Qantas Points`)
      .first()
      .waitFor();
    const shown = await page.evaluate(() => window.__analytics);
    assert.ok(shown.includes('event:rewards_qff_link') && shown.includes('event:rewards_qff_convert'), shown.join());

    // The airline goes down: the page says so, and nothing is converted.
    await faults('POST', { kind: 'unavailable', count: 100000 });
    try {
      await page.reload();
      await qff.waitFor();
      await qff.getByText("Your Qantas Points balance can't be shown right now.").first().waitFor();
      // The activity can't be read either; after these failures the breaker leaves the airline alone.
      await qff
        .getByText("Qantas Frequent Flyer isn't answering right now. Nothing was changed; please try again in a few minutes.")
        .first()
        .waitFor();
      await convert.getByRole('button', { name: 'Convert', exact: true }).click();
      const again = page.getByRole('dialog', { name: 'Convert 1,000 points?' });
      await again.getByRole('button', { name: 'Convert points' }).click();
      await again
        .getByRole('alert')
        .getByText(/Qantas Frequent Flyer (isn't answering right now|wasn't answering)/)
        .waitFor();
      assert.equal((await api(token, '/api/profile/balances')).data.points, before - 1000, 'nothing more was converted');
    } finally {
      await faults('DELETE');
    }
    // The airline is back: once the breaker lets a call through again, the portal reaches it. The
    // tests after this one (the same demo member, the airline card on Rewards) find it answering.
    let history = 0;
    for (let i = 0; i < 60 && history !== 200; i++) {
      if (i) await page.waitForTimeout(500);
      history = (await call(token, 'GET', '/api/qff/history')).status;
    }
    assert.equal(history, 200, 'the airline answers through the portal again');
    assert.equal(await airlinePoints(), airlineBefore + 500, 'nor credited');
    assert.deepEqual(page.errors, []);
  },
);
