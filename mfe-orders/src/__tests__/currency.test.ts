import { formatCents, formatCurrency } from '../features/transactions/utils/currency';

describe('formatCurrency (AUD style)', () => {
  it.each([
    [0, '$0.00'],
    [5, '$5.00'],
    [129.9, '$129.90'],
    [1234.5, '$1,234.50'],
    [-12.5, '-$12.50'],
    [-0.001, '$0.00'],
    [0.005, '$0.01'],
    ['42.1', '$42.10'],
  ])('%p → %s', (value, expected) => {
    expect(formatCurrency(value)).toBe(expected);
  });

  it.each([[NaN], [Infinity], [undefined], [null], ['abc'], [''], [{}]])('%p fails to $0.00', (value) => {
    expect(formatCurrency(value)).toBe('$0.00');
  });

  it('formats integer cents', () => {
    expect(formatCents(12990)).toBe('$129.90');
    expect(formatCents(-500)).toBe('-$5.00');
    expect(formatCents(undefined)).toBe('$0.00');
  });
});
