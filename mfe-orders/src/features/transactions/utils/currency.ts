// Currency formatting per spec: AUD style, leading '-$' for negatives, two decimals,
// '$0.00' when the value cannot be formatted.

const grouping = new Intl.NumberFormat('en-AU', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export function formatCurrency(amount: unknown): string {
  const n = typeof amount === 'string' && amount.trim() !== '' ? Number(amount) : amount;
  if (typeof n !== 'number' || !Number.isFinite(n)) return '$0.00';
  const rounded = Math.round(Math.abs(n) * 100) / 100;
  const text = grouping.format(rounded);
  return n < 0 && rounded !== 0 ? `-$${text}` : `$${text}`;
}

/** Amounts from the API are integer cents. */
export function formatCents(cents: unknown): string {
  return typeof cents === 'number' && Number.isFinite(cents) ? formatCurrency(cents / 100) : '$0.00';
}
