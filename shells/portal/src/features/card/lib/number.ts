// How the card shows and encodes the member number (the API's `memberNumber`: digits, the last a
// check digit). Kept apart from the component so tests and the card read the same rules.

const DIGITS = /^[0-9]+$/;

/** The internal profile id (`prf_…`), which a member never sees: a record kept before member numbers may hold it. */
export function isInternalId(value: string): boolean {
  return /^(prf|anon)_/.test(value);
}

/**
 * The number on the card: the brand-issued member number; while a profile has none (an answer
 * from before member numbers), `fallback` (the tenant's own card identity) unless that is the
 * internal id; else nothing.
 */
export function cardNumber(profile: { memberNumber?: string }, fallback: string): string {
  if (profile.memberNumber) return profile.memberNumber;
  return isInternalId(fallback) ? '' : fallback;
}

/** A number of digits in groups of four for reading (`1234 5678 90`); anything else as it is. */
export function groupDigits(number: string): string {
  return DIGITS.test(number) ? number.replace(/(\d{4})(?=\d)/g, '$1 ') : number;
}

/**
 * An even run of digits goes as CODE128 set C (two digits a symbol: half as wide, so bars twice
 * as thick at the card's width); anything else as CODE128 with the sets chosen by the library.
 */
export function barcodeFormat(value: string): 'CODE128C' | 'CODE128' {
  return DIGITS.test(value) && value.length % 2 === 0 ? 'CODE128C' : 'CODE128';
}
