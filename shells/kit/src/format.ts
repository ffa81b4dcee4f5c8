// Numbers in the page's language, for every micro-frontend (English with Australian
// conventions). Dates are in ./dates, apart, so that a page that only formats numbers (the
// frequent-flyer summary on /home) does not carry them. Formatters are made once per key.

/**
 * The locale each language formats with: English uses Australian conventions (AUD retail);
 * Arabic keeps Western digits (what the app has always shown: `ar` in current engines, pinned so
 * an engine whose default is Arabic-Indic digits shows the same); Thai keeps its Buddhist-era
 * years (the default Thai members read everywhere, pinned for the same reason).
 */
export function localeFor(lang: string): string {
  switch (lang) {
    case 'en':
      return 'en-AU';
    case 'ar':
      return 'ar-u-nu-latn';
    case 'th':
      return 'th-u-ca-buddhist-nu-latn';
    default:
      return lang;
  }
}

const formats = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

/** The formatter made for `key` the first time it was asked for. */
export function cachedFormat<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  let format = formats.get(key) as T | undefined;
  if (!format) {
    format = make();
    formats.set(key, format);
  }
  return format;
}

/** A whole number in the page's language (points), e.g. 48,250 (en) or 48.250 (de). */
export function formatNumber(n: number, lang: string): string {
  return cachedFormat(`n:${lang}`, () => new Intl.NumberFormat(localeFor(lang))).format(n);
}

/** Bidi marks some locales put around a sign (Arabic: U+200E); the isolation does their work. */
const BIDI_MARK = /^[\u200e\u200f\u061c]+$/;

/**
 * A signed quantity in the page's language: "+500", "−250" (a real minus sign, read as "minus"),
 * "0"; with `plus: false` only a negative shows its sign ("2", "−1"). Show it with `<Signed>` (./signed):
 * isolated left-to-right, so that a right-to-left page keeps the sign before the digits.
 */
export function formatSigned(n: number, lang: string, { plus = true }: { plus?: boolean } = {}): string {
  const format = cachedFormat(
    `s:${lang}:${plus}`,
    () => new Intl.NumberFormat(localeFor(lang), { signDisplay: plus ? 'exceptZero' : 'auto' }),
  );
  return format
    .formatToParts(n)
    .filter((part) => !(part.type === 'literal' && BIDI_MARK.test(part.value)))
    .map((part) => (part.type === 'minusSign' ? '\u2212' : part.value))
    .join('');
}
