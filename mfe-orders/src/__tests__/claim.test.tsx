import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { invalidateOnDataChanged } from '@portal/kit/mfe-providers';
import { languageReady, setLanguage, type ClaimRequest } from '@portal/runtime';
import { onAnalytics, type AnalyticsEvent } from '@portal/runtime/testing';
import type { FetchStub, StubRoute } from '@portal/kit/fetch-stub';
import { ORDERS, backend, claim, page, refused, renderAt, resetAll, signIn, toasts } from './fixtures';
import { queryClient } from '../providers';
import { daysBefore, todayIn } from '../lib/dates';
import { normaliseAmount } from '../features/claim/api/claims';

let stub: FetchStub;
beforeEach(() => resetAll());
afterEach(() => {
  stub.restore();
  setLanguage('en');
});

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const posts = () => stub.calls.filter((c) => c.method === 'POST');

async function openClaim(routes: Record<string, StubRoute> = {}) {
  stub = backend(routes);
  await renderAt('/claim-transaction');
  await screen.findByRole('option', { name: 'Melbourne Central' });
}

function fill(values: Partial<ClaimRequest>) {
  const labels: Record<keyof ClaimRequest, string> = {
    store: 'Store',
    date: 'Date of purchase',
    receipt_number: 'Receipt number',
    amount: 'Amount paid',
  };
  for (const [key, value] of Object.entries(values)) fireEvent.change(field(labels[key as keyof ClaimRequest]), { target: { value } });
}

const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Submit claim' }));
const YESTERDAY = daysBefore(todayIn('Australia/Melbourne'), 1);
const MATCHING = { store: 'melbourne-central', date: YESTERDAY, receipt_number: 'MC01-100234', amount: '59.95' };

describe('Claim Transaction: the form', () => {
  it('has labelled fields: stores from GET /api/geolocation, a date up to today in the tenant’s zone, a decimal amount', async () => {
    const events: AnalyticsEvent[] = [];
    const off = onAnalytics((e) => events.push(e));
    await openClaim();
    off();
    expect(screen.getByRole('heading', { level: 1, name: 'Claim Transaction' })).toBeInTheDocument();
    expect(events.map((e) => `${e.type}:${e.name}`)).toEqual(['screen_view:Claim Transaction']);
    const store = screen.getByRole('combobox', { name: 'Store' });
    expect(
      within(store)
        .getAllByRole('option')
        .map((o) => [o.getAttribute('value'), o.textContent]),
    ).toEqual([
      ['', 'Choose a store'],
      ['chadstone', 'Chadstone'],
      ['melbourne-central', 'Melbourne Central'],
    ]);
    const date = field('Date of purchase');
    expect(date.type).toBe('date');
    expect(date.max).toBe(todayIn('Australia/Melbourne'));
    expect(date.min).toBe(daysBefore(todayIn('Australia/Melbourne'), 30));
    expect(date).toHaveAccessibleDescription(/^Within the last 30 days\s*$/);
    expect(field('Receipt number')).toHaveAttribute('dir', 'ltr');
    expect(field('Amount paid')).toHaveAttribute('inputmode', 'decimal');
    expect(field('Amount paid')).toHaveAttribute('dir', 'ltr');
  });

  it('today is the tenant’s date, not the device’s', () => {
    // 14:30Z on 2 Nov: already 3 Nov in Melbourne, still 2 Nov in UTC and in Perth.
    const now = new Date('2026-11-02T14:30:00Z');
    expect(todayIn('Australia/Melbourne', now)).toBe('2026-11-03');
    expect(todayIn('Australia/Perth', now)).toBe('2026-11-02');
    expect(daysBefore('2026-03-01', 1)).toBe('2026-02-28');
  });

  it('files a matching claim: credited with its points, the form cleared, the claim listed, orders and points stale everywhere', async () => {
    // Another micro-frontend's cache (the points on Rewards) and this one's orders.
    const other = new QueryClient();
    const stop = invalidateOnDataChanged(other);
    other.setQueryData(['balances', 'p_demo'], { data: { points: 100 } });
    queryClient.setQueryData(['transactions', 'p_demo'], { pages: [page(ORDERS)], pageParams: [1] });
    let claims = [claim({ id: 'clm_old', status: 'pending', points: 0, receipt_number: 'OLD-1', transaction_id: null })];
    await openClaim({
      'GET /api/profile/claims': () => ({ body: { data: claims } }),
      'POST /api/profile/claims': () => {
        claims = [claim(), ...claims];
        return { status: 201, body: { data: claim() } };
      },
    });
    fill(MATCHING);
    submit();
    const result = await screen.findByText('Credited: 60 points added');
    expect(result.closest('[role=status]')).not.toBeNull();
    expect(screen.getByText(/The purchase is now in My Orders/)).toBeInTheDocument();
    expect(posts().map((c) => [c.path, c.body])).toEqual([['/api/profile/claims', MATCHING]]);
    expect(field('Receipt number').value).toBe('');
    expect(field('Amount paid').value).toBe('');
    const list = screen.getByRole('list');
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(2));
    expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent('MC01-100234');
    expect(other.getQueryState(['balances', 'p_demo'])?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(['transactions', 'p_demo'])?.isInvalidated).toBe(true);
    stop();
  });

  it('files a claim that does not match yet: pending, nothing else goes stale', async () => {
    const other = new QueryClient();
    const stop = invalidateOnDataChanged(other);
    other.setQueryData(['balances', 'p_demo'], { data: { points: 100 } });
    await openClaim({
      'POST /api/profile/claims': { status: 201, body: { data: claim({ status: 'pending', points: 0, transaction_id: null }) } },
    });
    fill({ ...MATCHING, amount: '12' });
    submit();
    expect(await screen.findByText('Claim received: pending')).toBeInTheDocument();
    expect(screen.queryByText(/Credited/)).toBeNull();
    expect(other.getQueryState(['balances', 'p_demo'])?.isInvalidated).toBe(false);
    stop();
  });

  it('shows the refused fields under each, announced, focuses the first in the form and keeps what was typed', async () => {
    await openClaim({
      'POST /api/profile/claims': refused({
        amount: 'Enter an amount like 59.95',
        date: "The date can't be in the future",
        other: 'not a field of this form',
      }),
    });
    fill({ store: 'chadstone', date: '2030-01-01', receipt_number: 'CH02-1', amount: '1.234' });
    submit();
    const date = field('Date of purchase');
    await waitFor(() => expect(date).toHaveAttribute('aria-invalid', 'true'));
    expect(date).toHaveAccessibleDescription("Within the last 30 days The date can't be in the future");
    expect(field('Amount paid')).toHaveAccessibleDescription('In dollars, e.g. 59.95 Enter an amount like 59.95');
    expect(field('Receipt number')).not.toHaveAttribute('aria-invalid');
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
      "The date can't be in the future",
      'Enter an amount like 59.95',
    ]);
    // The date comes before the amount in the form.
    expect(document.activeElement).toBe(date);
    expect(date.value).toBe('2030-01-01');
    expect(field('Receipt number').value).toBe('CH02-1');
    expect(field('Amount paid').value).toBe('1.234');
    expect((screen.getByLabelText('Store') as HTMLSelectElement).value).toBe('chadstone');
    expect(toasts()).toEqual(['error: Please check the highlighted fields']);
    expect(screen.queryByText('not a field of this form')).toBeNull();
  });

  it('a receipt already the member’s own (409) is told on the receipt field', async () => {
    await openClaim({
      'POST /api/profile/claims': refused(
        { receipt_number: 'This receipt is already on your account' },
        409,
        'This receipt is already on your account',
      ),
    });
    fill(MATCHING);
    submit();
    const receipt = field('Receipt number');
    await waitFor(() => expect(receipt).toHaveAttribute('aria-invalid', 'true'));
    expect(receipt).toHaveAccessibleDescription(/This receipt is already on your account$/);
    expect(document.activeElement).toBe(receipt);
    expect(receipt.value).toBe('MC01-100234');
    expect(screen.queryByRole('status', { name: /Credited/ })).toBeNull();
  });

  it('tells refused fields in the page’s language', async () => {
    setLanguage('de');
    await act(() => languageReady());
    stub = backend({
      'POST /api/profile/claims': refused({ receipt_number: 'You have already claimed this receipt' }, 409),
    });
    await renderAt('/claim-transaction');
    await screen.findByRole('option', { name: 'Melbourne Central' });
    fireEvent.change(screen.getByLabelText('Belegnummer'), { target: { value: 'MC01-100234' } });
    fireEvent.click(screen.getByRole('button', { name: 'Nachtrag senden' }));
    expect(await screen.findByText('Dieser Beleg ist bereits in deinen Nachträgen oder in deinem Konto')).toBeInTheDocument();
  });

  it('sends the amount with a dot for the cents, as typed in any language', async () => {
    expect(normaliseAmount(' 59,95 ')).toBe('59.95');
    expect(normaliseAmount('$ 120')).toBe('120');
    expect(normaliseAmount('1,234.50')).toBe('1,234.50');
    await openClaim({ 'POST /api/profile/claims': { status: 201, body: { data: claim() } } });
    fill({ ...MATCHING, amount: '59,95' });
    submit();
    await screen.findByText('Credited: 60 points added');
    expect((posts()[0].body as ClaimRequest).amount).toBe('59.95');
  });

  it('keeps what was typed when the claim cannot be sent', async () => {
    await openClaim({ 'POST /api/profile/claims': { networkError: true } });
    fill(MATCHING);
    submit();
    await waitFor(() => expect(toasts()).toEqual(["error: We couldn't submit your claim. Please try again."]));
    expect(field('Receipt number').value).toBe('MC01-100234');
  });

  it('tells a member over their claim quotas why nothing was filed', async () => {
    await openClaim({
      'POST /api/profile/claims': refused({}, 429, 'You have made 10 claims in the last 24 hours. Please try again later'),
    });
    fill(MATCHING);
    submit();
    await waitFor(() => expect(toasts()).toEqual(['error: You have made 10 claims in the last 24 hours. Please try again later']));
    expect(field('Receipt number').value).toBe('MC01-100234');
  });

  it('is read-only for a staff member viewing the account', async () => {
    signIn({ impersonating: true });
    await openClaim();
    expect(screen.getByText(/viewing this account as staff/)).toBeInTheDocument();
    expect(field('Receipt number')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Submit claim' })).toBeNull();
  });
});

describe('Claim Transaction: the member’s claims', () => {
  const CLAIMS = [
    claim({
      id: 'c1',
      status: 'pending',
      points: 0,
      receipt_number: 'CH02-9',
      store: 'chadstone',
      store_name: 'Chadstone',
      amount_cents: 1200,
      transaction_id: null,
    }),
    claim({ id: 'c2' }),
    claim({
      id: 'c3',
      status: 'rejected',
      points: 0,
      receipt_number: 'X-1',
      message: 'We could not find this purchase',
      transaction_id: null,
    }),
  ];

  it('lists each claim with its status in words and an icon (never colour alone), store, date, receipt, amount and points', async () => {
    await openClaim({ 'GET /api/profile/claims': { body: { data: CLAIMS } } });
    const rows = within(await screen.findByRole('list')).getAllByRole('listitem');
    expect(rows.map((r) => within(r).getByText(/^(Credited|Pending|Rejected)$/).textContent)).toEqual(['Pending', 'Credited', 'Rejected']);
    for (const row of rows) {
      const status = within(row).getByText(/^(Credited|Pending|Rejected)$/);
      expect(status.querySelector('svg[aria-hidden="true"]')).not.toBeNull();
    }
    const [pending, credited, rejected] = rows;
    expect(credited).toHaveTextContent('Melbourne Central');
    expect(credited).toHaveTextContent('Date20 Nov 2026');
    expect(credited).toHaveTextContent('ReceiptMC01-100234');
    expect(credited).toHaveTextContent('Amount$59.95');
    expect(credited).toHaveTextContent('Points60');
    expect(pending).toHaveTextContent('PointsOnce credited');
    expect(pending).toHaveTextContent('Amount$12.00');
    expect(rejected).toHaveTextContent('PointsNone');
    expect(rejected).toHaveTextContent('We could not find this purchase');
    expect(within(credited).getByText('MC01-100234').tagName).toBe('BDI');
    expect(within(credited).getByText('$59.95').tagName).toBe('BDI');
  });

  it('says when there are none, and offers a retry when they cannot be loaded', async () => {
    let fail = true;
    await openClaim({ 'GET /api/profile/claims': () => (fail ? { status: 500 } : { body: { data: [] } }) });
    const alert = await screen.findByRole('alert', {}, { timeout: 4000 });
    expect(alert).toHaveTextContent('Something went wrong');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText("You haven't made any claims yet.")).toBeInTheDocument();
  });

  it('keeps receipts and amounts in their own direction in Arabic', async () => {
    setLanguage('ar');
    await act(() => languageReady());
    stub = backend({ 'GET /api/profile/claims': { body: { data: CLAIMS } } });
    await renderAt('/claim-transaction');
    expect(await screen.findByRole('heading', { level: 1, name: 'المطالبة بمعاملة' })).toBeInTheDocument();
    const row = within(await screen.findByRole('list')).getAllByRole('listitem')[1];
    expect(within(row).getByText('MC01-100234').tagName).toBe('BDI');
    expect(within(row).getByText('$59.95').tagName).toBe('BDI');
    expect(within(row).getByText('تمت الإضافة')).toBeInTheDocument();
    expect(screen.getByLabelText('رقم الإيصال')).toHaveAttribute('dir', 'ltr');
    expect(screen.getByLabelText('المبلغ المدفوع')).toHaveAttribute('dir', 'ltr');
  });
});
