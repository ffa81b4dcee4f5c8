// The membership card shows the brand-issued member number (GET /api/profile's memberNumber) in
// groups of four and encodes its digits in the barcode; the internal profile id is never shown,
// not even from a record kept before member numbers.
import { act, fireEvent, screen, within } from '@testing-library/react';
import { LOYALTY_MEMBER_KEY, CARD_DISPLAY_KEY, configStore, initAuth, networkStore } from '@portal/runtime';
import { makeToken, stubFetch } from '@portal/kit/fetch-stub';
import { readMemberRecord } from '@portal/kit/member-record';
import { renderAt } from './setup';
import { barcodeFormat, cardNumber, groupDigits } from '../features/card/lib/number';

const PID = 'prf_0000000000000000000000d1';
const PROFILE = { id: PID, memberNumber: '1234567890', email: 'd@e.x', first_name: 'Dana', last_name: 'Demo', identities: [] };

afterEach(() => act(() => networkStore.set({ online: true })));

beforeEach(() => {
  localStorage.setItem('portal.auth', makeToken({ pid: PID, exp: Math.floor(Date.now() / 1000) + 600 }));
  initAuth();
  configStore.set({ config: { components: { profile: { identities: ['loyalty_card'] } } } as never, loaded: true });
});

describe('the card number', () => {
  it('reads in groups of four and encodes ten digits as CODE128 set C', () => {
    expect(groupDigits('1234567890')).toBe('1234 5678 90');
    expect(groupDigits('LC-1001')).toBe('LC-1001');
    expect(barcodeFormat('1234567890')).toBe('CODE128C');
    expect(barcodeFormat('123')).toBe('CODE128');
    expect(barcodeFormat('LC-1001')).toBe('CODE128');
  });

  it('is the member number, else the card identity, never the internal id', () => {
    expect(cardNumber({ memberNumber: '1234567890' }, 'LC-1')).toBe('1234567890');
    expect(cardNumber({ memberNumber: '' }, 'LC-1')).toBe('LC-1');
    expect(cardNumber({}, PID)).toBe('');
  });
});

describe("the member's card on Home", () => {
  it('shows the member number, not the id, and the barcode carries its digits', async () => {
    const stub = stubFetch({
      'GET /api/profile': { body: PROFILE },
      'GET /api/profile/balances': { body: { data: { points: 10, currency: 'AUD' } } },
    });
    const { container } = renderAt('/home');
    await screen.findByRole('heading', { name: 'Hello, Dana' });
    fireEvent.click(await screen.findByRole('button', { name: 'Show my membership card' }));
    const card = await screen.findByRole('region', { name: 'Membership card' });
    expect(await within(card).findByText('1234 5678 90')).toBeInTheDocument();
    expect(within(card).getByText('Member number')).toBeInTheDocument();
    const barcode = within(card).getByRole('img', { name: 'Barcode of member number 1234 5678 90' });
    expect(barcode).toHaveAttribute('data-value', '1234567890');
    expect(barcode.querySelectorAll('rect').length).toBeGreaterThan(10);
    expect(container.innerHTML).not.toContain('prf_');
    expect(readMemberRecord(PID)).toMatchObject({ number: '1234567890' });
    stub.restore();
  });

  it('shows no number, never the internal id, when the profile has neither a member number nor a card', async () => {
    const stub = stubFetch({
      'GET /api/profile': { body: { ...PROFILE, memberNumber: '' } },
      'GET /api/profile/balances': { body: { data: { points: 10, currency: 'AUD' } } },
    });
    const { container } = renderAt('/home');
    await screen.findByRole('heading', { name: 'Hello, Dana' });
    fireEvent.click(await screen.findByRole('button', { name: 'Show my membership card' }));
    const card = await screen.findByRole('region', { name: 'Membership card' });
    expect(await within(card).findByText('10 points')).toBeInTheDocument();
    expect(within(card).queryByText('Member number')).toBeNull();
    expect(within(card).queryByRole('img')).toBeNull();
    expect(container.innerHTML).not.toContain('prf_');
    expect(readMemberRecord(PID)?.number).toBeUndefined();
    stub.restore();
  });

  it('never shows an internal id kept before member numbers, offline', async () => {
    localStorage.setItem(CARD_DISPLAY_KEY, '1');
    localStorage.setItem(LOYALTY_MEMBER_KEY, JSON.stringify({ profile_id: PID, number: PID, points: 3 }));
    const stub = stubFetch({ 'GET /api/profile': { networkError: true }, 'GET /api/profile/balances': { networkError: true } });
    act(() => networkStore.set({ online: false }));
    const { container } = renderAt('/home');
    const card = await screen.findByRole('region', { name: 'Membership card' });
    expect(within(card).queryByRole('img')).toBeNull();
    expect(container.innerHTML).not.toContain('prf_');
    stub.restore();
  });
});
