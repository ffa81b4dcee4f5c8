import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { configStore, setLanguage, languageReady } from '@portal/runtime';
import { onAnalytics, type AnalyticsEvent } from '@portal/runtime/testing';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { CONFIG, ORDERS, backend, page, renderAt, resetAll, signIn, tx } from './fixtures';
import { groupByDay } from '../lib/dates';

let stub: FetchStub;

beforeEach(() => {
  resetAll();
  stub = backend();
});
afterEach(() => {
  stub.restore();
  setLanguage('en');
});

const dayHeadings = () => screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
const toggle = (name: RegExp) => screen.getByRole('button', { name });

describe('My Orders', () => {
  it('asks for the purchases newest first with products and list items, and shows them by day with AUD totals', async () => {
    await renderAt('/transactions');
    expect(screen.getByRole('heading', { level: 1, name: 'My Orders' })).toBeInTheDocument();
    const day = await screen.findByRole('heading', { level: 2, name: 'Monday 2 Nov 2026' });
    const group = day.closest('section')!;
    expect(group).toHaveAccessibleName('Monday 2 Nov 2026');
    expect(within(group).getByText('Melbourne Central')).toBeInTheDocument();
    expect(within(group).getByText('Chadstone')).toBeInTheDocument();
    expect(within(group).getAllByText('$129.90')[0]).toBeInTheDocument();
    expect(within(group).getByText('-$25.00')).toBeInTheDocument();
    expect(within(group).getByText('MC01-100200').tagName).toBe('BDI');
    expect(within(group).getAllByText('$129.90')[0].tagName).toBe('BDI');
    expect(dayHeadings()).toEqual(['Monday 2 Nov 2026', 'Tuesday 20 Oct 2026']);
    // An order without a store name is an online one.
    expect(screen.getByText('Online')).toBeInTheDocument();
    const [call] = stub.calls.filter((c) => c.path === '/api/profile/transactions');
    const query = new URL(call.url, 'http://x').searchParams;
    expect(Object.fromEntries(query)).toEqual({
      page: '1',
      per_page: '20',
      sort: '-transacted_at',
      include: 'product',
      include_list_item: '1',
    });
    expect(screen.getByRole('status')).toHaveTextContent('Showing 3 of 3 orders');
    expect(screen.queryByRole('button', { name: 'Load more orders' })).toBeNull();
  });

  it('groups by the calendar day in the tenant’s zone, not the device’s or UTC', async () => {
    // 14:30Z is 01:30 the next day in Melbourne but 22:30 the same day in Perth; 12:00Z is 23:00 / 20:00.
    const two = [tx('late', '2026-11-02T14:30:00Z'), tx('early', '2026-11-02T12:00:00Z')];
    stub.restore();
    stub = backend({ 'GET /api/profile/transactions': { body: page(two) } });
    await renderAt('/transactions');
    await screen.findByRole('heading', { level: 2, name: 'Tuesday 3 Nov 2026' });
    expect(dayHeadings()).toEqual(['Tuesday 3 Nov 2026', 'Monday 2 Nov 2026']);
    expect(screen.getByText('1:30 am')).toBeInTheDocument();

    act(() => configStore.set({ config: { ...CONFIG, general: { ...CONFIG.general, timeZone: 'Australia/Perth' } }, loaded: true }));
    expect(dayHeadings()).toEqual(['Monday 2 Nov 2026']);
    expect(screen.getByText('10:30 pm')).toBeInTheDocument();

    // No zone in the config: Australia/Melbourne (spec 9).
    act(() => configStore.set({ config: { ...CONFIG, general: { tenant: 'demo' } }, loaded: true }));
    expect(dayHeadings()).toEqual(['Tuesday 3 Nov 2026', 'Monday 2 Nov 2026']);
  });

  it('groupByDay keeps the order and splits at midnight in the given zone', () => {
    const items = ['2026-11-02T14:30:00Z', '2026-11-02T12:00:00Z', '2026-11-01T13:59:00Z'];
    expect(groupByDay(items, (x) => x, 'Australia/Melbourne').map((g) => [g.day, g.items.length])).toEqual([
      ['2026-11-03', 1],
      // 13:59Z on 1 Nov is 00:59 on 2 Nov in Melbourne (UTC+11 in November).
      ['2026-11-02', 2],
    ]);
    expect(groupByDay(items, (x) => x, 'UTC').map((g) => [g.day, g.items.length])).toEqual([
      ['2026-11-02', 2],
      ['2026-11-01', 1],
    ]);
  });

  it('expands an order to its items and collapses it again (a disclosure button)', async () => {
    await renderAt('/transactions');
    const button = await screen.findByRole('button', { name: /Melbourne Central.*\$129\.90/ });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    const panel = document.getElementById(button.getAttribute('aria-controls')!)!;
    expect(panel).not.toBeVisible();
    expect(button).toHaveAccessibleName(/Total \$129\.90/);

    fireEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(panel).toBeVisible();
    const items = within(panel).getByRole('list', { name: 'Items' });
    expect(
      within(items)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([expect.stringContaining('Linen shirt × 1$89.90'), expect.stringContaining('Canvas belt × 1$40.00')]);
    // The lines' totals, then the total they add up to.
    expect(panel.querySelector('.order__sum')).toHaveTextContent('Total$129.90');
    expect(within(panel).getByText('Points earned: 130')).toBeInTheDocument();
    // The other orders stay closed.
    expect(toggle(/Chadstone/)).toHaveAttribute('aria-expanded', 'false');

    fireEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'false');
    expect(panel).not.toBeVisible();
  });

  it('loads the next page on request and keeps the days in order', async () => {
    const first = [tx('a', '2026-11-10T02:00:00Z'), tx('b', '2026-11-09T02:00:00Z')];
    const second = [tx('b', '2026-11-09T02:00:00Z'), tx('c', '2026-11-09T01:00:00Z'), tx('d', '2026-11-01T01:00:00Z')];
    stub.restore();
    stub = backend({
      'GET /api/profile/transactions': (req) => {
        const n = Number(new URL(req.url, 'http://x').searchParams.get('page'));
        return { body: n === 1 ? page(first, { page: 1, per_page: 2, total: 5 }) : page(second, { page: 2, per_page: 2, total: 5 }) };
      },
    });
    await renderAt('/transactions');
    await screen.findByText('Showing 2 of 5 orders');
    fireEvent.click(screen.getByRole('button', { name: 'Load more orders' }));
    // 'b' came again (a purchase added meanwhile shifts the pages): shown once.
    await screen.findByText('Showing 4 of 5 orders');
    // The focus is on the first order just loaded.
    await waitFor(() => expect(document.activeElement).toBe(screen.getAllByRole('button', { expanded: false })[2]));
    expect(document.activeElement).toHaveAccessibleName(/R-c/);
    expect(dayHeadings()).toEqual(['Tuesday 10 Nov 2026', 'Monday 9 Nov 2026', 'Sunday 1 Nov 2026']);
    expect(within(screen.getByRole('heading', { name: 'Monday 9 Nov 2026' }).closest('section')!).getAllByRole('button')).toHaveLength(2);
    expect(
      stub.calls.filter((c) => c.path === '/api/profile/transactions').map((c) => new URL(c.url, 'http://x').searchParams.get('page')),
    ).toEqual(['1', '2']);
  });

  it('says so when there are no orders, and links to claims', async () => {
    stub.restore();
    stub = backend({ 'GET /api/profile/transactions': { body: page([]) } });
    await renderAt('/transactions');
    expect(await screen.findByText("You haven't placed any orders yet.")).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Claim a transaction' })).toHaveAttribute('href', '/claim-transaction');
  });

  it('shows a friendly error without the server’s message, and tries again', async () => {
    let fail = true;
    stub.restore();
    stub = backend({
      'GET /api/profile/transactions': () =>
        fail ? { status: 500, body: { status: 500, message: 'database exploded', errors: {}, error: true } } : { body: page(ORDERS) },
    });
    await renderAt('/transactions');
    const alert = await screen.findByRole('alert', {}, { timeout: 4000 });
    expect(alert).toHaveTextContent('Something went wrong');
    expect(alert).not.toHaveTextContent('database exploded');
    fail = false;
    fireEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Monday 2 Nov 2026' })).toBeInTheDocument();
  });

  it('reports one screen view, and the sub-navigation’s click events', async () => {
    const events: AnalyticsEvent[] = [];
    const off = onAnalytics((e) => events.push(e));
    await renderAt('/transactions');
    await screen.findByRole('heading', { level: 2, name: 'Monday 2 Nov 2026' });
    const nav = screen.getByRole('navigation', { name: 'My orders sections' });
    expect(within(nav).getByRole('link', { name: 'My Orders' })).toHaveAttribute('aria-current', 'page');
    fireEvent.click(within(nav).getByRole('link', { name: 'Claim Transaction' }));
    await screen.findByRole('heading', { level: 1, name: 'Claim Transaction' });
    fireEvent.click(within(nav).getByRole('link', { name: 'My Orders' }));
    await screen.findByRole('heading', { level: 1, name: 'My Orders' });
    off();
    expect(events.map((e) => `${e.type}:${e.name}`)).toEqual([
      'screen_view:My Orders',
      'event:claim_transaction_click',
      'screen_view:Claim Transaction',
      'event:my_orders_click',
      'screen_view:My Orders',
    ]);
  });

  it('keeps amounts, receipts and store names in their own direction in Arabic', async () => {
    setLanguage('ar');
    await act(() => languageReady());
    await renderAt('/transactions');
    expect(await screen.findByRole('heading', { level: 1, name: 'طلباتي' })).toBeInTheDocument();
    const button = (await screen.findAllByText('$129.90'))[0].closest('button')!;
    expect(within(button).getByText('$129.90').tagName).toBe('BDI');
    expect(within(button).getByText('MC01-100200').tagName).toBe('BDI');
    expect(within(button).getByText('Melbourne Central').tagName).toBe('BDI');
    expect(screen.getByText('-$25.00').tagName).toBe('BDI');
    fireEvent.click(button);
    // In the line and in the add button's name.
    expect(screen.getAllByText('Linen shirt').map((el) => el.tagName)).toEqual(['BDI', 'BDI']);
    expect(screen.getByText('$89.90').tagName).toBe('BDI');
    expect(screen.getByRole('button', { name: /^أضف إلى قائمة الأمنيات ?: Linen shirt$/ })).toBeInTheDocument();
  });

  it('a staff member viewing the account sees the orders without wish-list buttons', async () => {
    signIn({ impersonating: true });
    await renderAt('/transactions');
    fireEvent.click(await screen.findByRole('button', { name: /Melbourne Central/ }));
    expect(screen.getByText('Linen shirt')).toBeVisible();
    expect(screen.queryByRole('button', { name: /Add to wish list/ })).toBeNull();
    await waitFor(() => expect(stub.calls.filter((c) => c.method !== 'GET')).toEqual([]));
  });
});
