import { isHttpError, UNKNOWN_ERROR } from '@portal/runtime';
import { cachedFormat, formatNumber, localeFor } from '@portal/kit/format';
import { formatDate, useTimeZone } from '@portal/kit/dates';

// Numbers and dates in the page's language (the shared ones from @portal/build, and the
// rewards tab's own below).
export { formatDate, formatNumber, useTimeZone };

/** Points with their sign in text: "+130", "−300" (a real minus sign), "0". */
export function formatSigned(n: number, lang: string): string {
  const sign = n > 0 ? '+' : n < 0 ? '\u2212' : '';
  return `${sign}${formatNumber(Math.abs(n), lang)}`;
}

/** `YYYY-MM-DD` of an instant in `zone`. */
export function dayIn(value: Date, zone: string): string {
  return cachedFormat(
    `k:${zone}`,
    () => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }),
  ).format(value);
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
  return cachedFormat(`c:${lang}:${sameYear}`, () => new Intl.DateTimeFormat(localeFor(lang), options)).format(d);
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
