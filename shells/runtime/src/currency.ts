// @portal/runtime/currency — the one currency formatter (spec 5 and 9): AUD style, a leading '-$'
// for negatives, two decimals, '$0.00' whenever the value cannot be formatted. A separate entry
// of the runtime that is bundled into each package that imports it (pure functions, no state):
// the shell's first load carries none of it.

const grouping = new Intl.NumberFormat('en-AU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const dollars = new Intl.NumberFormat('en-AU', { maximumFractionDigits: 0 });

/** Dollars (a number, or a numeric string) as `$1,234.50` / `-$12.50`; `$0.00` on anything else. */
export function formatCurrency(amount: unknown): string {
  const n = typeof amount === 'string' && amount.trim() !== '' ? Number(amount) : amount;
  if (typeof n !== 'number' || !Number.isFinite(n)) return '$0.00';
  // Rounded on the cents, so -0.001 is "$0.00", never "-$0.00".
  const cents = Math.round(Math.abs(n) * 100);
  const text = grouping.format(cents / 100);
  return n < 0 && cents !== 0 ? `-$${text}` : `$${text}`;
}

/** Money from the API is integer cents (`*_cents`); anything but an integer is `$0.00`. */
export function formatCents(cents: unknown): string {
  if (typeof cents !== 'number' || !Number.isSafeInteger(cents)) return '$0.00';
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  // Whole dollars and cents kept apart: no floating-point rounding of large amounts.
  return `${sign}$${dollars.format(Math.trunc(abs / 100))}.${String(abs % 100).padStart(2, '0')}`;
}
