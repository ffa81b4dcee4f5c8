import { isHttpError, UNKNOWN_ERROR } from '@portal/runtime';
import { formatNumber } from '@portal/kit/format';
import { formatCalendarDate, formatDate, useTimeZone } from '@portal/kit/dates';

// Numbers and dates in the page's language, in the kit's named styles (@portal/kit/format and
// ./dates; signed points are the kit's <Signed>).
export { formatDate, formatNumber, useTimeZone };

/** A calendar date (`YYYY-MM-DD`, already the tenant's local date) in the kit's `date` style, as every date of the tab: "18 Dec 2026". */
export const formatDay = (date: string, lang: string): string => formatCalendarDate(date, lang);

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
