// Dates and signed quantities on My Orders in Arabic (issue 24): one date style, and a return's
// quantity that keeps its sign before the digits.
import { act, fireEvent, screen, within } from '@testing-library/react';
import { setLanguage, languageReady } from '@portal/runtime';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { backend, page, renderAt, resetAll, tx } from './fixtures';

let stub: FetchStub;

const RETURN = tx('t9', '2026-11-24T07:17:00Z', {
  store: 'Chadstone',
  receipt_number: 'CH02-200999',
  total_cents: -4995,
  points: 0,
  items: [
    {
      id: 't9_item0',
      name: 'Return: Chino shorts',
      quantity: -1,
      amount_cents: -4995,
      product: { id: 'prd_chino_shorts', name: 'Chino shorts', variant_id: 'var_chino_32' },
      list_item: null,
    },
  ],
});

/** The demo's online order: two pairs bought, one returned (line totals, as the contract says). */
const MIXED = tx('t5', '2026-10-20T05:00:00Z', {
  store: '',
  receipt_number: 'WEB-300917',
  total_cents: 6995,
  items: [
    { id: 't5_item0', name: 'Chino shorts', quantity: 2, amount_cents: 13990, product: null, list_item: null },
    { id: 't5_item1', name: 'Return: Chino shorts, 32', quantity: -1, amount_cents: -6995, product: null, list_item: null },
  ],
});

beforeEach(async () => {
  resetAll();
  stub = backend({
    'GET /api/profile/transactions': {
      body: page([RETURN, tx('t8', '2026-11-02T03:15:00Z'), tx('t7', '2025-12-21T00:00:00Z'), tx('t6', '2027-01-05T03:00:00Z'), MIXED]),
    },
  });
  setLanguage('ar');
  await act(() => languageReady());
});
afterEach(() => {
  stub.restore();
  setLanguage('en');
});

describe('My Orders in Arabic', () => {
  it('heads every day in one style and gives every order its time in another', async () => {
    await renderAt('/transactions');
    await screen.findByRole('heading', { level: 2, name: 'الثلاثاء، 24 نوفمبر 2026' });
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    // Weekday, day, month, year, with Western digits: never "2027/07/29" beside "21 ديسمبر".
    expect(headings).toHaveLength(5);
    headings.forEach((h) => expect(h).toMatch(/^[\u0600-\u06ff]+، \d{1,2} [\u0600-\u06ff]+ \d{4}$/));
    expect(headings).toContain('الأحد، 21 ديسمبر 2025');
    // 07:17 UTC is 6:17 pm in Melbourne.
    expect(screen.getByText('6:17 م')).toBeInTheDocument();
  });

  it('writes a return’s quantity with its sign before the digits, isolated left-to-right', async () => {
    await renderAt('/transactions');
    fireEvent.click((await screen.findByText('CH02-200999')).closest('button')!);
    // The till's English "Return: …" line is named in Arabic, with the product's name.
    const line = screen.getByText('إرجاع: Chino shorts').closest('li')!;
    const quantity = within(line).getByText('\u22121');
    expect(quantity.tagName).toBe('BDI');
    expect(quantity).toHaveAttribute('dir', 'ltr');
    // In the DOM (logical) order the name, "×", then the whole "−1": the isolation shows it so.
    expect(line.querySelector('.order-item__name')!.textContent).toBe('إرجاع: Chino shorts × \u22121');
  });

  it('gives each line its total, a return’s negative, and they add up to the order’s total', async () => {
    await renderAt('/transactions');
    fireEvent.click((await screen.findByText('WEB-300917')).closest('button')!);
    const panel = screen.getByRole('list', { name: 'المنتجات' }).parentElement!;
    const amounts = within(panel)
      .getAllByRole('listitem')
      .map((li) => li.querySelector('.amount')!.textContent);
    expect(amounts).toEqual(['$139.90', '-$69.95']);
    // Two of them: the unit price too.
    expect(panel.querySelector('.order-item__unit')!.textContent).toBe('$69.95 للقطعة');
    expect(panel.querySelector('.order__sum')!.textContent).toBe('الإجمالي$69.95');
  });
});
