// Numbers in the page's language, for every micro-frontend (English with Australian
// conventions). Dates are in ./dates, apart, so that a page that only formats numbers (the
// frequent-flyer summary on /home) does not carry them. Formatters are made once per key.

/** Display locale: English uses Australian conventions (AUD retail). */
export const localeFor = (lang: string) => (lang === 'en' ? 'en-AU' : lang);

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
