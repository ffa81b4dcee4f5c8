import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { correction, generate } from 'lean-qr';
import { toSvgPath } from 'lean-qr/extras/svg';
import { onAnalytics, type AnalyticsEvent } from '@portal/runtime/testing';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { REWARDS, backend, callsTo, failure, renderAt, resetAll, toasts } from './fixtures';

let stub: FetchStub;

beforeEach(() => {
  resetAll();
  stub = backend({
    'GET /api/profile/rewards/101': { body: { data: REWARDS[0] } },
    'GET /api/profile/rewards/103': { body: { data: REWARDS[2] } },
    'GET /api/profile/rewards/104': { body: { data: REWARDS[3] } },
    // Answered available, but its expiry has passed (a copy kept from before): expired now.
    'GET /api/profile/rewards/105': {
      body: { data: { ...REWARDS[0], id: 105, code: 'PAST-0000-0005', expires_at: '2020-01-01T00:00:00Z' } },
    },
    'GET /api/profile/rewards/999': failure(404, 'Not found'),
  });
});
afterEach(() => {
  stub.restore();
  delete window.ReactNativeWebView;
});

const rewardCalls = () => stub.calls.filter((c) => c.path.startsWith('/api/profile/rewards'));

describe('Rewards Item Detail', () => {
  it('shows the voucher: a QR code drawn from its code, the code in text, its status, dates and terms', async () => {
    const views: string[] = [];
    const off = onAnalytics((e: AnalyticsEvent) => views.push(`${e.type}:${e.name}`));
    await renderAt('/rewards/item/101');
    expect(await screen.findByRole('heading', { level: 1, name: '$10 voucher' })).toBeInTheDocument();
    const qr = await screen.findByRole('img', { name: 'QR code of voucher K7QM-4TXA-9PWD' });
    expect(qr.tagName.toLowerCase()).toBe('svg');
    // The very modules lean-qr makes of the code (not a picture of something else).
    expect(qr.querySelector('path')).toHaveAttribute('d', toSvgPath(generate('K7QM-4TXA-9PWD', { minCorrectionLevel: correction.M })));
    const size = generate('K7QM-4TXA-9PWD', { minCorrectionLevel: correction.M }).size;
    expect(qr).toHaveAttribute('viewBox', `-4 -4 ${size + 8} ${size + 8}`);

    const code = screen.getByText('K7QM-4TXA-9PWD');
    expect(code).toHaveClass('voucher__code');
    expect(code).toHaveAttribute('dir', 'ltr');
    expect(screen.getByRole('heading', { name: 'Voucher code' })).toBeInTheDocument();
    // The status in words, once (a person looking for "Available" finds one).
    expect(screen.getAllByText('Available')).toEqual([screen.getByText('Available', { selector: '.status' })]);
    expect(screen.getByText('Ten dollars off your next shop')).toBeInTheDocument();
    const dates = screen.getByText('Issued', { selector: 'dt' }).closest('dl')!;
    expect(dates).toHaveTextContent(/^Issued1 Oct 2026Expires31 Dec 2026$/);
    expect(screen.getByRole('heading', { level: 2, name: 'Terms' })).toBeInTheDocument();
    expect(screen.getByText('One per visit. Not redeemable for cash.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Rewards' })).toHaveAttribute('href', '/rewards');
    expect(callsTo(stub, 'GET', '/api/profile/rewards/101')).toHaveLength(1);
    off();
    expect(views).toEqual(['screen_view:Rewards Item Detail']);
  });

  it('copies the code', async () => {
    const copied: string[] = [];
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText: async (s: string) => void copied.push(s) } });
    await renderAt('/rewards/item/101');
    fireEvent.click(await screen.findByRole('button', { name: 'Copy code' }));
    await waitFor(() => expect(toasts()).toEqual(['success: Code copied']));
    expect(copied).toEqual(['K7QM-4TXA-9PWD']);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: undefined });
  });

  it('a used reward says so in words, without a QR code to scan, and keeps its code and dates', async () => {
    await renderAt('/rewards/item/103');
    expect(await screen.findByRole('heading', { level: 1, name: 'Free coffee' })).toBeInTheDocument();
    expect(screen.getByText('This reward has been used.')).toBeInTheDocument();
    expect(screen.getByText('Used', { selector: '.status' })).toBeInTheDocument();
    expect(screen.queryByRole('img')).toBeNull();
    expect(screen.getByText('USED-0000-0001')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Voucher code, no longer valid' })).toBeInTheDocument();
    expect(screen.getByText('Used', { selector: 'dt' }).nextElementSibling).toHaveTextContent('20 Sept 2026');
    // Nothing offers the code for use: no copying, no "show this at the till".
    expect(screen.queryByRole('button', { name: 'Copy code' })).toBeNull();
    expect(screen.queryByText('Show the QR code or this code at the till.')).toBeNull();
  });

  it('an expired reward says so, without a code to copy or scan', async () => {
    await renderAt('/rewards/item/104');
    expect(await screen.findByText('This reward has expired.')).toBeInTheDocument();
    expect(screen.getByText('Expired', { selector: '.status' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Voucher code, no longer valid' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy code' })).toBeNull();
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('a voucher that expired since the list was read shows expired, with nothing to copy', async () => {
    await renderAt('/rewards/item/105');
    expect(await screen.findByText('This reward has expired.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy code' })).toBeNull();
    expect(screen.queryByRole('img')).toBeNull();
  });

  it('has no wallet buttons outside the native wrapper, nor in one that does not declare them', async () => {
    await renderAt('/rewards/item/101');
    await screen.findByRole('img', { name: /QR code/ });
    expect(screen.queryByRole('button', { name: /Wallet|Google Pay/ })).toBeNull();
  });

  it('in a wrapper that declares nothing, the wallet buttons stay away (no wrapper offers both)', async () => {
    window.ReactNativeWebView = { postMessage: () => undefined };
    await renderAt('/rewards/item/101');
    await screen.findByRole('img', { name: /QR code/ });
    expect(screen.queryByRole('button', { name: /Wallet|Google Pay/ })).toBeNull();
  });

  it('offers "Add to Apple Wallet" only when the wrapper declares it, and posts the reward’s id and code', async () => {
    const posted: string[] = [];
    window.ReactNativeWebView = { postMessage: (m: string) => posted.push(m), actions: ['addAppleWallet', 'loadOfferList'] };
    await renderAt('/rewards/item/101');
    const apple = await screen.findByRole('button', { name: 'Add to Apple Wallet' });
    expect(screen.queryByRole('button', { name: 'Add to Google Pay' })).toBeNull();
    fireEvent.click(apple);
    expect(posted.map((m) => JSON.parse(m)).filter((m) => m.action !== 'firebaseAnalytics')).toEqual([
      { action: 'addAppleWallet', id: 101, code: 'K7QM-4TXA-9PWD' },
    ]);
  });

  it('offers "Add to Google Pay" in a wrapper that declares it', async () => {
    const posted: string[] = [];
    window.ReactNativeWebView = { postMessage: (m: string) => posted.push(m), actions: ['addGooglePay'] };
    await renderAt('/rewards/item/101');
    fireEvent.click(await screen.findByRole('button', { name: 'Add to Google Pay' }));
    expect(screen.queryByRole('button', { name: 'Add to Apple Wallet' })).toBeNull();
    expect(posted.map((m) => JSON.parse(m)).filter((m) => m.action === 'addGooglePay')).toEqual([
      { action: 'addGooglePay', id: 101, code: 'K7QM-4TXA-9PWD' },
    ]);
  });

  it('no wallet buttons for a used reward, even when the wrapper offers them', async () => {
    window.ReactNativeWebView = { postMessage: () => undefined, actions: ['addAppleWallet', 'addGooglePay'] };
    await renderAt('/rewards/item/103');
    await screen.findByText('This reward has been used.');
    expect(screen.queryByRole('button', { name: /Wallet|Google Pay/ })).toBeNull();
  });

  it.each(['abc', '12abc', '-5', '0', '1.5', '99999999999999999999'])(
    '/rewards/item/%s is not found, without asking the API',
    async (id) => {
      await renderAt(`/rewards/item/${id}`);
      expect(await screen.findByRole('heading', { level: 1, name: "We couldn't find that reward" })).toBeInTheDocument();
      expect(screen.getByRole('link', { name: 'Back to Rewards' })).toHaveAttribute('href', '/rewards');
      expect(rewardCalls()).toEqual([]);
    },
  );

  it('an unknown id (404) is not found, with a way back', async () => {
    await renderAt('/rewards/item/999');
    expect(await screen.findByRole('heading', { level: 1, name: "We couldn't find that reward" })).toBeInTheDocument();
    expect(screen.getByText("The link may be wrong, or the reward isn't on your account.")).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: 'Back to Rewards' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Rewards' })).toBeInTheDocument();
    // A 404 is an answer: asked once, not retried.
    expect(callsTo(stub, 'GET', '/api/profile/rewards/999')).toHaveLength(1);
  });

  it('another error shows the error state, and tries again', async () => {
    let fail = true;
    stub.restore();
    stub = backend({ 'GET /api/profile/rewards/101': () => (fail ? failure(500, 'database exploded') : { body: { data: REWARDS[0] } }) });
    await renderAt('/rewards/item/101');
    const alert = await screen.findByRole('alert', {}, { timeout: 4000 });
    expect(alert).toHaveTextContent('Something went wrong');
    expect(alert).not.toHaveTextContent('database exploded');
    expect(screen.getByRole('link', { name: 'Back to Rewards' })).toBeInTheDocument();
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: '$10 voucher' })).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: 'QR code of voucher K7QM-4TXA-9PWD' })).toBeInTheDocument();
  });

  it('opens from the list: the reward shows at once from the list, then its own answer', async () => {
    await renderAt('/rewards');
    fireEvent.click(await screen.findByRole('link', { name: '$10 voucher' }));
    expect(await screen.findByRole('heading', { level: 1, name: '$10 voucher' })).toBeInTheDocument();
    expect(await screen.findByRole('img', { name: /QR code/ })).toBeInTheDocument();
    await waitFor(() => expect(callsTo(stub, 'GET', '/api/profile/rewards/101')).toHaveLength(1));
  });
});
