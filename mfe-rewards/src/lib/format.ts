import { isHttpError, timeZone, useConfig, UNKNOWN_ERROR } from '@portal/runtime';

// Numbers and dates in the page's language; instants shown in the tenant's zone (config
// general.timeZone, default Australia/Melbourne), whatever the device's zone is.

/** The tenant's time zone, following the config as it loads. */
export function useTimeZone(): string {
  return timeZone(useConfig().config);
}

/** Display locale: English uses Australian conventions (AUD retail). */
export const localeFor = (lang: string) => (lang === 'en' ? 'en-AU' : lang);

const formats = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();
function cached<T extends Intl.DateTimeFormat | Intl.NumberFormat>(key: string, make: () => T): T {
  let format = formats.get(key) as T | undefined;
  if (!format) {
    format = make();
    formats.set(key, format);
  }
  return format;
}

/** A whole number in the page's language (points). */
export function formatNumber(n: number, lang: string): string {
  return cached(`n:${lang}`, () => new Intl.NumberFormat(localeFor(lang))).format(n);
}

/** Points with their sign in text: "+130", "−300" (a real minus sign), "0". */
export function formatSigned(n: number, lang: string): string {
  const sign = n > 0 ? '+' : n < 0 ? '\u2212' : '';
  return `${sign}${formatNumber(Math.abs(n), lang)}`;
}

/** The date of an instant in `zone`, e.g. "18 Dec 2026"; null when there is none. */
export function formatDate(iso: string | null | undefined, lang: string, zone: string): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  return cached(`d:${lang}:${zone}`, () => new Intl.DateTimeFormat(localeFor(lang), { timeZone: zone, dateStyle: 'medium' })).format(d);
}

/** `YYYY-MM-DD` of an instant in `zone`. */
export function dayIn(value: Date, zone: string): string {
  return cached(`k:${zone}`, () => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' })).format(value);
}

/**
 * A calendar date (`YYYY-MM-DD`, already the tenant's local date) without its year when it is in
 * the current year there: "18 Dec", else "5 Jan 2028".
 */
export function formatDay(date: string, lang: string, zone: string, now: Date = new Date()): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return date;
  const d = new Date(`${date}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return date;
  const sameYear = dayIn(now, zone).slice(0, 4) === date.slice(0, 4);
  const options: Intl.DateTimeFormatOptions = sameYear
    ? { timeZone: 'UTC', day: 'numeric', month: 'short' }
    : { timeZone: 'UTC', dateStyle: 'medium' };
  return cached(`c:${lang}:${sameYear}`, () => new Intl.DateTimeFormat(localeFor(lang), options)).format(d);
}

/**
 * What to tell the member about a refused write. The server's sentences are English: an English
 * page shows them; another language gets the catalog's sentence for a known one, else `fallback`.
 * Server faults (5xx, no answer) never show their message.
 */
export function refusalMessage(err: unknown, lang: string, known: Record<string, string>, fallback: string): string {
  if (!isHttpError(err) || err.status >= 500 || !err.message || err.message === UNKNOWN_ERROR) return fallback;
  if (lang === 'en') return err.message;
  return known[err.message] ?? fallback;
}
