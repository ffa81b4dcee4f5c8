import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { authStore } from '@portal/runtime';
import type { FetchStub, StubRequest, StubResponse } from '@portal/kit/fetch-stub';
import {
  LINKED,
  PARTNER_DOWN,
  backend,
  callsTo,
  conversion,
  eventsNamed,
  failure,
  partnerDown,
  renderView,
  resetAll,
  toasts,
} from './fixtures';

let stub: FetchStub;

beforeEach(() => resetAll());
afterEach(() => stub.restore());

const KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const REAUTH = 'For your security, please sign in again with a new code or link to convert points.';

/** The redeem route: answers the n-th request with `replies[n]` (the last one again after that). */
function redeemRoute(replies: ((req: StubRequest) => StubResponse)[]) {
  let n = 0;
  return (req: StubRequest) => replies[Math.min(n++, replies.length - 1)](req);
}

const completed =
  (balance = 1049) =>
  () => ({ body: { data: conversion({ balance }) } });

async function openConvert(blocks?: number) {
  await renderView('full');
  const section = await screen.findByRole('region', { name: 'Convert points to Qantas Points' });
  await within(section).findByText('You have 3,049 points.');
  if (blocks !== undefined)
    fireEvent.change(within(section).getByLabelText('Points to convert'), { target: { value: String(blocks * 1000) } });
  return section;
}

async function confirmDialog(blocks = 2) {
  const section = await openConvert(blocks);
  fireEvent.click(within(section).getByRole('button', { name: 'Convert' }));
  const dialog = screen.getByRole('dialog', { name: `Convert ${(blocks * 1000).toLocaleString('en-AU')} points?` });
  return { section, dialog };
}

const counts = () =>
  Object.fromEntries(
    ['/api/profile/balances', '/api/qff/points', '/api/qff/history', '/api/qff/conversions'].map((p) => [
      p,
      callsTo(stub, 'GET', p).length,
    ]),
  );

describe('conversion preview', () => {
  it('asks in points, a block at a time: the rate, the balance and what goes, comes and stays', async () => {
    stub = backend({ 'GET /api/qff/points': { body: LINKED } });
    const section = await openConvert();
    expect(within(section).getByText('1,000 points → 500 Qantas Points')).toBeInTheDocument();
    const field = within(section).getByLabelText('Points to convert') as HTMLInputElement;
    expect(field.value).toBe('1000');
    expect(field).toHaveAttribute('step', '1000');
    expect(field).toHaveAttribute('min', '1000');
    expect(field).toHaveAttribute('max', '3000');
    expect(field).toHaveAccessibleDescription(/^In steps of 1,000 points, up to 3,000 points\.\s*$/);
    const preview = within(section).getByText('You convert').closest('dl')!;
    expect(preview).toHaveTextContent('You convert1,000 pointsYou get500 Qantas PointsPoints that stay2,049 points');

    fireEvent.click(within(section).getByRole('button', { name: '1,000 points more' }));
    expect(field.value).toBe('2000');
    expect(preview).toHaveTextContent('You convert2,000 pointsYou get1,000 Qantas PointsPoints that stay1,049 points');
    fireEvent.click(within(section).getByRole('button', { name: '1,000 points more' }));
    fireEvent.click(within(section).getByRole('button', { name: '1,000 points more' }));
    expect(field.value).toBe('3000');
    expect(within(section).getByRole('button', { name: '1,000 points more' })).toHaveAttribute('aria-disabled', 'true');
    fireEvent.click(within(section).getByRole('button', { name: '1,000 points fewer' }));
    expect(field.value).toBe('2000');

    // Typed points between two blocks: the steppers go to the next whole block either way.
    fireEvent.change(field, { target: { value: '2500' } });
    fireEvent.click(within(section).getByRole('button', { name: '1,000 points fewer' }));
    expect(field.value).toBe('2000');
    fireEvent.change(field, { target: { value: '1500' } });
    fireEvent.click(within(section).getByRole('button', { name: '1,000 points more' }));
    expect(field.value).toBe('2000');
  });

  it.each([['2500'], ['4000'], ['0'], ['abc'], ['']])('refuses %p points, which is not a block to convert, and says why', async (typed) => {
    stub = backend({ 'GET /api/qff/points': { body: LINKED } });
    const section = await openConvert();
    const field = within(section).getByLabelText('Points to convert');
    fireEvent.change(field, { target: { value: typed } });
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAccessibleDescription(
      'In steps of 1,000 points, up to 3,000 points. Choose a multiple of 1,000 points, up to 3,000 points',
    );
    expect(within(section).queryByText('You convert')).toBeNull();
    const convert = within(section).getByRole('button', { name: 'Convert' });
    expect(convert).toHaveAttribute('aria-disabled', 'true');
    fireEvent.click(convert);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says how many points are needed when there are not enough for a block', async () => {
    stub = backend({
      'GET /api/qff/points': { body: LINKED },
      'GET /api/profile/balances': { body: { data: { points: 300, currency: 'AUD' } } },
    });
    await renderView('full');
    expect(await screen.findByText('You need at least 1,000 points to convert.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Convert' })).toBeNull();
  });

  it('is not offered when the tenant turned conversion off', async () => {
    stub = backend({ 'GET /api/qff/points': { body: { ...LINKED, redemption: { ...LINKED.redemption, type: 'off' } } } });
    await renderView('full');
    await screen.findByText('48,250 Qantas Points');
    expect(screen.queryByRole('region', { name: 'Convert points to Qantas Points' })).toBeNull();
    expect(callsTo(stub, 'GET', '/api/profile/balances')).toHaveLength(0);
  });
});

describe('converting', () => {
  it('asks first; Confirm sends ONE request with an Idempotency-Key, then the receipt, and both balances are fetched again', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let balance = 3049;
    stub = backend({
      'GET /api/qff/points': () => ({ body: { ...LINKED, points: balance === 3049 ? 48250 : 49250 } }),
      'GET /api/profile/balances': () => ({ body: { data: { points: balance, currency: 'AUD' } } }),
      'POST /api/qff/redeem': async () => {
        await gate;
        balance = 1049;
        return { body: { data: conversion({ balance: 1049 }) } };
      },
    });
    const { dialog } = await confirmDialog(2);
    expect(dialog).toHaveAccessibleDescription(
      /You convert\s*2,000 points.*You get\s*1,000 Qantas Points.*To Frequent Flyer account\s*1900123456.*Points that stay\s*1,049 points/,
    );
    expect(document.activeElement).toHaveAccessibleName('Cancel');
    await screen.findByText('Showing 5 of 7');
    const before = counts();

    const confirm = within(dialog).getByRole('button', { name: 'Convert points' });
    act(() => {
      confirm.click();
      confirm.click();
    });
    expect(within(dialog).getByRole('button', { name: 'Converting…' })).toBeDisabled();
    await act(async () => open());

    const posts = callsTo(stub, 'POST', '/api/qff/redeem');
    expect(posts).toHaveLength(1);
    expect(posts[0].body).toEqual({ points: 2000 });
    expect(posts[0].headers['Idempotency-Key']).toMatch(KEY);
    expect(posts[0].headers.Authorization).toBe('Bearer token-p_demo');

    const done = await screen.findByRole('dialog', { name: 'Points converted' });
    expect(document.activeElement).toBe(within(done).getByRole('heading', { name: 'Points converted' }));
    expect(done).toHaveTextContent('1,000 Qantas Points were added to Frequent Flyer account 1900123456.');
    expect(done).toHaveTextContent('Your points balance is now 1,049 points.');
    expect(eventsNamed('rewards_qff_convert')).toEqual([
      { type: 'event', name: 'rewards_qff_convert', params: { points: 2000, airline_points: 1000, status: 'completed' } },
    ]);

    // The member's balance at once; then the balance, the status (airline balance), the activity and
    // the conversions are fetched again.
    await waitFor(() => expect(counts()).toEqual(Object.fromEntries(Object.entries(before).map(([p, n]) => [p, n + 1]))));
    fireEvent.click(within(done).getByRole('button', { name: 'Close' }));
    expect(await screen.findByText('49,250 Qantas Points')).toBeInTheDocument();
    expect(screen.getByText('You have 1,049 points.')).toBeInTheDocument();
  });

  it('tells every other micro-frontend that the balances, points, qff status and profile changed', async () => {
    const heard: unknown[] = [];
    const listener = (e: Event) => heard.push((e as CustomEvent).detail);
    window.addEventListener('portal:data-changed', listener);
    stub = backend({ 'GET /api/qff/points': { body: LINKED }, 'POST /api/qff/redeem': completed() });
    const { dialog } = await confirmDialog(1);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Convert points' }));
    await screen.findByRole('dialog', { name: 'Points converted' });
    window.removeEventListener('portal:data-changed', listener);
    expect(heard).toEqual([['qff', 'balances', 'points', 'profile']]);
  });

  it('explains a pending conversion (202): held points, finished automatically', async () => {
    stub = backend({
      'GET /api/qff/points': { body: LINKED },
      'POST /api/qff/redeem': () => ({ status: 202, body: { data: conversion({ status: 'pending', settled_at: null, balance: 1049 }) } }),
    });
    const { dialog } = await confirmDialog(2);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Convert points' }));
    const pending = await screen.findByRole('dialog', { name: 'Waiting for Qantas' });
    expect(pending).toHaveTextContent(
      "We're waiting for Qantas to confirm. Your 2,000 points are held and we'll finish automatically: the Qantas Points are added once Qantas confirms, and if it doesn't, your points come back.",
    );
    expect(pending).toHaveTextContent('Your points balance is now 1,049 points.');
    expect(eventsNamed('rewards_qff_convert')[0].params).toEqual({ points: 2000, airline_points: 1000, status: 'pending' });
  });

  it('a failed conversion (422) says why and that the points were given back; no retry', async () => {
    const message = 'Qantas Frequent Flyer refused the transfer: the account is closed. Your points were given back.';
    stub = backend({ 'GET /api/qff/points': { body: LINKED }, 'POST /api/qff/redeem': failure(422, message) });
    const { dialog } = await confirmDialog(2);
    const before = callsTo(stub, 'GET', '/api/profile/balances').length;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Convert points' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent("The conversion didn't go through");
    expect(alert).toHaveTextContent(message);
    expect(within(dialog).queryByRole('button', { name: /Convert points|Try again/ })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeInTheDocument();
    await waitFor(() => expect(callsTo(stub, 'GET', '/api/profile/balances').length).toBe(before + 1));
    expect(eventsNamed('rewards_qff_convert')[0].params).toMatchObject({ status: 'failed' });
  });

  it('a 422 about the points is told as the server words it', async () => {
    stub = backend({
      'GET /api/qff/points': { body: LINKED },
      'POST /api/qff/redeem': failure(422, 'Please check the highlighted fields', {
        points: 'Convert a whole number of blocks of 1,000 points',
      }),
    });
    const { dialog } = await confirmDialog(1);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Convert points' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Convert a whole number of blocks of 1,000 points');
    expect(within(dialog).queryByText("The conversion didn't go through")).toBeNull();
  });

  it('a 409 (not enough points, or still being processed) is told, the page catches up, and a retry sends the same key', async () => {
    stub = backend({
      'GET /api/qff/points': { body: LINKED },
      'POST /api/qff/redeem': redeemRoute([() => failure(409, 'This conversion is still being processed'), completed()]),
    });
    const { dialog } = await confirmDialog(2);
    const before = callsTo(stub, 'GET', '/api/profile/balances').length;
    fireEvent.click(within(dialog).getByRole('button', { name: 'Convert points' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('This conversion is still being processed');
    await waitFor(() => expect(callsTo(stub, 'GET', '/api/profile/balances').length).toBe(before + 1));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('dialog', { name: 'Points converted' });
    const keys = callsTo(stub, 'POST', '/api/qff/redeem').map((c) => c.headers['Idempotency-Key']);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });

  it('after a network error, Try again sends the same Idempotency-Key; a new confirmation gets a new one', async () => {
    stub = backend({
      'GET /api/qff/points': { body: LINKED },
      'POST /api/qff/redeem': redeemRoute([() => ({ networkError: true }), completed()]),
    });
    const { section, dialog } = await confirmDialog(2);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Convert points' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      "We couldn't reach the server, so we don't know yet whether it worked. Try again: your points won't be converted twice.",
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    const done = await screen.findByRole('dialog', { name: 'Points converted' });
    const [first, second] = callsTo(stub, 'POST', '/api/qff/redeem').map((c) => c.headers['Idempotency-Key']);
    expect(first).toMatch(KEY);
    expect(second).toBe(first);

    fireEvent.click(within(done).getByRole('button', { name: 'Close' }));
    fireEvent.click(within(section).getByRole('button', { name: 'Convert' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Convert points' }));
    await waitFor(() => expect(callsTo(stub, 'POST', '/api/qff/redeem')).toHaveLength(3));
    expect(callsTo(stub, 'POST', '/api/qff/redeem')[2].headers['Idempotency-Key']).not.toBe(first);
  });

  it('when Qantas is not answering (503) shows the server’s message and retries with the same key', async () => {
    stub = backend({ 'GET /api/qff/points': { body: LINKED }, 'POST /api/qff/redeem': redeemRoute([partnerDown, completed()]) });
    const { dialog } = await confirmDialog(1);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Convert points' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(PARTNER_DOWN);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('dialog', { name: 'Points converted' });
    const keys = callsTo(stub, 'POST', '/api/qff/redeem').map((c) => c.headers['Idempotency-Key']);
    expect(keys[1]).toBe(keys[0]);
  });

  it('a sign-in older than 15 minutes (403 reauthenticate): explains, and "Sign in again" signs out to the login page that comes back here', async () => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    try {
      stub = backend({
        'GET /api/qff/points': { body: LINKED },
        'POST /api/qff/redeem': failure(403, REAUTH, { session: 'reauthenticate' }),
        'POST /api/auth/logout': { status: 204 },
      });
      const { dialog } = await confirmDialog(1);
      fireEvent.click(within(dialog).getByRole('button', { name: 'Convert points' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(REAUTH);
      // Said here, not again in a toast.
      expect(toasts()).toEqual([]);
      expect(within(dialog).queryByRole('button', { name: 'Convert points' })).toBeNull();
      fireEvent.click(within(dialog).getByRole('button', { name: 'Sign in again' }));
      await act(async () => {
        await jest.advanceTimersByTimeAsync(400);
      });
      expect(authStore.get().authenticated).toBe(false);
      expect(authStore.get().loggedOut).toBe(false);
      expect(callsTo(stub, 'POST', '/api/auth/logout')).toHaveLength(1);
      expect(`${window.location.pathname}${window.location.search}`).toBe('/?redirect=%2Frewards');
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('conversions list', () => {
  it('lists the recent conversions and explains pending and failed ones', async () => {
    stub = backend({
      'GET /api/qff/points': { body: LINKED },
      'GET /api/qff/conversions': {
        body: {
          data: [
            conversion({ id: 'cnv_3', status: 'pending', settled_at: null }),
            conversion({
              id: 'cnv_2',
              status: 'failed',
              message: 'Qantas Frequent Flyer refused the transfer: the account is closed. Your points were given back.',
            }),
            conversion({ id: 'cnv_1', points: 1000, airline_points: 500, blocks: 1 }),
          ],
        },
      },
    });
    await renderView('full');
    const list = await screen.findByRole('region', { name: 'Your conversions' });
    const items = await within(list).findAllByRole('listitem');
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveTextContent('2,000 points → 1,000 Qantas Points');
    expect(items[0]).toHaveTextContent('Waiting for Qantas');
    expect(items[0]).toHaveTextContent("Your points are held until Qantas confirms; we'll finish automatically.");
    expect(items[1]).toHaveTextContent("Didn't go through");
    expect(items[1]).toHaveTextContent('refused the transfer: the account is closed. Your points were given back.');
    expect(items[2]).toHaveTextContent('1,000 points → 500 Qantas Points');
    expect(items[2]).toHaveTextContent('Completed');
    expect(items[2]).toHaveTextContent('21 Nov 2026');
  });

  it('says when there are none', async () => {
    stub = backend({ 'GET /api/qff/points': { body: LINKED } });
    await renderView('full');
    const list = await screen.findByRole('region', { name: 'Your conversions' });
    expect(await within(list).findByText("You haven't converted any points yet.")).toBeInTheDocument();
  });
});
