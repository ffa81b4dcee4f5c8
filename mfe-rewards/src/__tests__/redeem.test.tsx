import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { FetchStub, StubRequest } from '@portal/kit/fetch-stub';
import { newIdempotencyKey } from '@portal/kit/idempotency';
import { backend, callsTo, failure, renderAt, resetAll, reward, toasts } from './fixtures';

let stub: FetchStub;

const REDEEMED = {
  data: {
    reward: reward(105, { name: 'Free coffee', source: 'redemption', catalogue_id: 'coffee', points_cost: 300, code: 'NEW1-COFF-EE99' }),
    points_spent: 300,
    balance: 2749,
  },
};

/** The redeem route: answers `reply` (after `gate` resolves, if given) and records each request. */
function redeemRoute(reply: (req: StubRequest, n: number) => { status?: number; body?: unknown }, gate?: Promise<void>) {
  let n = 0;
  return async (req: StubRequest) => {
    n += 1;
    const i = n;
    if (gate) await gate;
    return reply(req, i);
  };
}

beforeEach(() => {
  resetAll();
});
afterEach(() => {
  stub.restore();
});

async function openRedeem(name = 'Free coffee') {
  await renderAt('/rewards');
  const button = await screen.findByRole('button', { name: `Redeem ${name}` });
  fireEvent.click(button);
  // (jsdom's name computation puts a space after the isolated name: "Redeem Free coffee ?")
  return { button, dialog: screen.getByRole('dialog', { name: new RegExp(`^Redeem ${name} ?\\?$`) }) };
}

const counts = () =>
  Object.fromEntries(
    [
      '/api/profile/balances',
      '/api/profile/rewards',
      '/api/profile/points',
      '/api/profile/points/expiring',
      '/api/profile/tiers/progress',
      '/api/profile/rewards/catalogue',
    ].map((p) => [p, callsTo(stub, 'GET', p).length]),
  );

describe('Redeem', () => {
  it('asks first: what it costs and the balance after; Escape cancels and the focus comes back', async () => {
    stub = backend();
    const { button, dialog } = await openRedeem();
    expect(dialog).toHaveAccessibleDescription(/Cost\s*300 points.*Your balance\s*3,049 points.*Balance after\s*2,749 points/);
    expect(within(dialog).getByText('2,749 points')).toBeInTheDocument();
    expect(within(dialog).getByText('Valid for 30 days after you redeem it')).toBeInTheDocument();
    // The focus is inside the dialog (on Cancel: spending points cannot be undone).
    expect(dialog).toContainElement(document.activeElement as HTMLElement);
    expect(document.activeElement).toHaveAccessibleName('Cancel');

    fireEvent.keyDown(document.activeElement!, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);

    // Cancel too.
    fireEvent.click(button);
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(callsTo(stub, 'POST', '/api/profile/rewards/redeem')).toEqual([]);
  });

  it('sends ONE request with an Idempotency-Key even on a double click, then shows the voucher and refreshes the page', async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let balance = 3049;
    stub = backend({
      'GET /api/profile/balances': () => ({ body: { data: { points: balance, currency: 'AUD' } } }),
      'POST /api/profile/rewards/redeem': redeemRoute(() => {
        balance = 2749;
        return { status: 201, body: REDEEMED };
      }, gate),
    });
    const { dialog } = await openRedeem();
    await screen.findByText('1,951 points to Platinum');
    await screen.findByText('Showing 3 of 3 entries');
    const before = counts();
    const confirm = within(dialog).getByRole('button', { name: 'Confirm' });
    // Two clicks before React renders again.
    act(() => {
      confirm.click();
      confirm.click();
    });
    expect(within(dialog).getByRole('button', { name: 'Redeeming…' })).toBeDisabled();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Redeeming…' }));
    await act(async () => open());

    const posts = callsTo(stub, 'POST', '/api/profile/rewards/redeem');
    expect(posts).toHaveLength(1);
    expect(posts[0].body).toEqual({ catalogue_id: 'coffee' });
    expect(posts[0].headers['Idempotency-Key']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(posts[0].headers.Authorization).toBe('Bearer token-p_demo');

    // The voucher, in the dialog, which now has the focus on its title.
    const done = await screen.findByRole('dialog', { name: 'Reward redeemed' });
    expect(document.activeElement).toBe(within(done).getByRole('heading', { name: 'Reward redeemed' }));
    expect(within(done).getByText('Free coffee')).toBeInTheDocument();
    expect(within(done).getByText('NEW1-COFF-EE99')).toBeInTheDocument();
    expect(within(done).getByText('Your balance is now 2,749 points.')).toBeInTheDocument();
    expect(within(done).getByRole('link', { name: 'View voucher' })).toHaveAttribute('href', '/rewards/item/105');
    expect(toasts()).toEqual(['success: Free coffee redeemed. Enjoy!']);

    // The new balance, and every list the redemption changed fetched again, once.
    expect(await screen.findByText('2,749 points', { selector: '.balance__value' })).toBeInTheDocument();
    await waitFor(() => expect(counts()).toEqual(Object.fromEntries(Object.entries(before).map(([path, n]) => [path, n + 1]))));

    fireEvent.click(within(done).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('"View voucher" opens the voucher page', async () => {
    stub = backend({
      'POST /api/profile/rewards/redeem': { status: 201, body: REDEEMED },
      'GET /api/profile/rewards/105': { body: { data: REDEEMED.data.reward } },
    });
    const { dialog } = await openRedeem();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    fireEvent.click(await screen.findByRole('link', { name: 'View voucher' }));
    expect(window.location.pathname).toBe('/rewards/item/105');
    expect(await screen.findByRole('heading', { level: 1, name: 'Free coffee' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('shows the server’s 409 in the dialog, which stays open, with nothing left to confirm', async () => {
    stub = backend({ 'POST /api/profile/rewards/redeem': failure(409, "You don't have enough points for this reward") });
    const { dialog } = await openRedeem();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent("You don't have enough points for this reward");
    expect(screen.getByRole('dialog')).toBe(dialog);
    expect(within(dialog).queryByRole('button', { name: 'Confirm' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Close' })).toBeInTheDocument();
    expect(toasts()).toEqual([]);
    // Its numbers were out of date: the balance and the catalogue are fetched again.
    await waitFor(() => expect(callsTo(stub, 'GET', '/api/profile/rewards/catalogue')).toHaveLength(2));
    expect(callsTo(stub, 'GET', '/api/profile/balances')).toHaveLength(2);
  });

  it('after another failure, Confirm retries with the same key', async () => {
    const keys: string[] = [];
    stub = backend({
      'POST /api/profile/rewards/redeem': redeemRoute((req, n) => {
        keys.push(req.headers['Idempotency-Key']);
        return n === 1 ? failure(503, 'upstream timeout') : { status: 201, body: REDEEMED };
      }),
    });
    const { button, dialog } = await openRedeem();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent("We couldn't redeem this reward. Please try again.");
    expect(alert).not.toHaveTextContent('upstream timeout');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await screen.findByRole('dialog', { name: 'Reward redeemed' });
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);

    // A new confirmation is a new key.
    fireEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(document.activeElement).toBe(button);
    fireEvent.click(button);
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Confirm' }));
    await screen.findByRole('dialog', { name: 'Reward redeemed' });
    expect(keys).toHaveLength(3);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('shows a 4xx message the server gave (an unknown item)', async () => {
    stub = backend({ 'POST /api/profile/rewards/redeem': failure(422, 'Unknown reward', { catalogue_id: 'Unknown reward' }) });
    const { dialog } = await openRedeem();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Unknown reward');
    expect(within(dialog).getByRole('button', { name: 'Confirm' })).toBeEnabled();
  });
});

describe('newIdempotencyKey', () => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const original = Object.getOwnPropertyDescriptor(globalThis, 'crypto');
  afterEach(() => {
    if (original) Object.defineProperty(globalThis, 'crypto', original);
  });

  it('uses crypto.randomUUID when there is one', () => {
    Object.defineProperty(globalThis, 'crypto', {
      configurable: true,
      value: { randomUUID: () => '11111111-2222-4333-8444-555555555555' },
    });
    expect(newIdempotencyKey()).toBe('11111111-2222-4333-8444-555555555555');
  });

  it('falls back to getRandomValues, then to Math.random: still a v4 UUID, and different each time', () => {
    Object.defineProperty(globalThis, 'crypto', {
      configurable: true,
      value: { getRandomValues: (a: Uint8Array) => a.map(() => Math.floor(Math.random() * 256)) },
    });
    const a = newIdempotencyKey();
    expect(a).toMatch(UUID);
    expect(newIdempotencyKey()).not.toBe(a);
    Object.defineProperty(globalThis, 'crypto', { configurable: true, value: undefined });
    const b = newIdempotencyKey();
    expect(b).toMatch(UUID);
    expect(newIdempotencyKey()).not.toBe(b);
  });
});
