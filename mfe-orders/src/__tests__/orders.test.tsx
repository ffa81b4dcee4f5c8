import { render, screen, within } from '@testing-library/react';
import { initI18n } from '@portal/runtime';
import { stubFetch, type FetchStub } from '@portal/build/src/fetch-stub';
import { Root } from '../Root';
import { queryClient } from '../providers';

const TX = {
  data: [
    {
      id: 't1',
      transacted_at: '2026-11-02T03:15:00Z',
      store: 'Melbourne Central',
      total_cents: 12990,
      currency: 'AUD',
      items: [{ id: 'ti1', name: 'Linen shirt', quantity: 1, amount_cents: 8990, product: { id: 'pr1', name: 'Linen shirt' } }],
    },
    { id: 't2', transacted_at: '2026-11-02T01:00:00Z', store: 'Chadstone', total_cents: -2500, currency: 'AUD', items: [] },
    { id: 't3', transacted_at: '2026-10-20T05:00:00Z', store: null, total_cents: 4000, currency: 'AUD', items: [] },
  ],
  meta: { page: 1, per_page: 20, total: 3 },
};

let stub: FetchStub;
function renderAt(path: string) {
  window.history.replaceState(null, '', path);
  return render(<Root />);
}

beforeEach(() => {
  initI18n('?lang=en');
  stub = stubFetch({ 'GET /api/profile/transactions': { body: TX } });
});
afterEach(() => {
  stub.restore();
  queryClient.clear();
});

describe('mfe-orders', () => {
  it('lists transactions grouped by day with AUD totals', async () => {
    renderAt('/transactions');
    expect(screen.getByRole('heading', { level: 1, name: 'My Orders' })).toBeInTheDocument();
    const day = await screen.findByRole('heading', { level: 2, name: 'Monday, 2 November 2026' });
    const group = day.closest('section')!;
    expect(within(group).getByText('Melbourne Central')).toBeInTheDocument();
    expect(within(group).getByText('Chadstone')).toBeInTheDocument();
    expect(within(group).getByText('$129.90')).toBeInTheDocument();
    expect(within(group).getByText('-$25.00')).toBeInTheDocument();
    const item = within(group).getByText('Linen shirt');
    expect(item.tagName).toBe('BDI');
    expect(item.parentElement).toHaveTextContent('Linen shirt × 1 $89.90');
    expect(within(group).getByText('Melbourne Central').tagName).toBe('BDI');
    expect(within(group).getByText('$129.90').tagName).toBe('BDI');
    expect(screen.getByRole('heading', { level: 2, name: 'Tuesday, 20 October 2026' })).toBeInTheDocument();
    expect(screen.getByText('Online')).toBeInTheDocument();
  });

  it('shows an error state when the list fails', async () => {
    stub.restore();
    stub = stubFetch({ 'GET /api/profile/transactions': { status: 403 } });
    renderAt('/transactions');
    expect(await screen.findByRole('alert')).toHaveTextContent('Something went wrong');
  });

  it('explains that claims are coming', () => {
    renderAt('/claim-transaction');
    expect(screen.getByRole('heading', { level: 1, name: 'Claim Transaction' })).toBeInTheDocument();
    expect(screen.getByText(/Soon you'll be able to claim a purchase/)).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).toBeNull();
  });
});
