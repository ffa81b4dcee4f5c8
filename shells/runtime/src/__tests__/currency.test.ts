import { formatCents, formatCurrency } from '../currency';

describe('formatCurrency: AUD style (spec 5)', () => {
  it.each([
    [0, '$0.00'],
    [5, '$5.00'],
    [129.9, '$129.90'],
    [1234.5, '$1,234.50'],
    [1234567.891, '$1,234,567.89'],
    [0.005, '$0.01'],
    ['42.1', '$42.10'],
    [' 59.95 ', '$59.95'],
  ])('two decimals: %p → %s', (value, expected) => {
    expect(formatCurrency(value)).toBe(expected);
  });

  it.each([
    [-12.5, '-$12.50'],
    [-0.01, '-$0.01'],
    [-1234.5, '-$1,234.50'],
    ['-7', '-$7.00'],
    // Rounds to nothing: no minus sign on zero.
    [-0.001, '$0.00'],
    [-0, '$0.00'],
  ])('a leading -$ for negatives: %p → %s', (value, expected) => {
    expect(formatCurrency(value)).toBe(expected);
  });

  it.each([[NaN], [Infinity], [-Infinity], [undefined], [null], ['abc'], [''], ['  '], [{}], [[]], [true], ['12abc']])(
    '$0.00 when %p cannot be formatted',
    (value) => {
      expect(formatCurrency(value)).toBe('$0.00');
    },
  );
});

describe('formatCents: integer cents from the API', () => {
  it.each([
    [12990, '$129.90'],
    [5995, '$59.95'],
    [5, '$0.05'],
    [0, '$0.00'],
    [-500, '-$5.00'],
    [-6995, '-$69.95'],
    [123456789, '$1,234,567.89'],
    // Beyond double precision in dollars, still exact in cents.
    [900719925474099, '$9,007,199,254,740.99'],
  ])('%p → %s', (cents, expected) => {
    expect(formatCents(cents)).toBe(expected);
  });

  it.each([[undefined], [null], [NaN], [12.5], ['12990'], [Infinity]])('$0.00 for %p', (value) => {
    expect(formatCents(value)).toBe('$0.00');
  });
});
