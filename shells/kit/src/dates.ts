import { timeZone, useConfig } from '@portal/runtime';
import { cachedFormat, localeFor } from './format';

// Dates in the page's language, for every micro-frontend; instants in the tenant's zone (config
// general.timeZone, default Australia/Melbourne), whatever the device's zone is.

/** The tenant's time zone, following the config as it loads. */
export function useTimeZone(): string {
  return timeZone(useConfig().config);
}

/** The date of an instant in `zone`, e.g. "18 Dec 2026"; null when there is none or it is not a date. */
export function formatDate(iso: string | null | undefined, lang: string, zone: string): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  return cachedFormat(`d:${lang}:${zone}`, () => new Intl.DateTimeFormat(localeFor(lang), { timeZone: zone, dateStyle: 'medium' })).format(
    d,
  );
}

/** A calendar date (`YYYY-MM-DD`, already the local date: a claim's, the airline's), e.g. "20 Nov 2026"; anything else as it is. */
export function formatCalendarDate(date: string, lang: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return date;
  const d = new Date(`${date}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return date;
  return cachedFormat(`c:${lang}`, () => new Intl.DateTimeFormat(localeFor(lang), { timeZone: 'UTC', dateStyle: 'medium' })).format(d);
}
