import { timeZone, useConfig } from '@portal/runtime';
import { localeFor } from './number';

// Dates in the page's language; instants in the tenant's zone (config general.timeZone), whatever
// the device's zone is.

/** The tenant's time zone, following the config as it loads. */
export function useTimeZone(): string {
  return timeZone(useConfig().config);
}

const formats = new Map<string, Intl.DateTimeFormat>();
function format(key: string, lang: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(localeFor(lang), options);
    formats.set(key, f);
  }
  return f;
}

/** The date of an instant in `zone`, e.g. "18 Dec 2026"; null when there is none or it is not a date. */
export function formatInstant(iso: string | null | undefined, lang: string, zone: string): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  return format(`i:${lang}:${zone}`, lang, { timeZone: zone, dateStyle: 'medium' }).format(d);
}

/** A calendar date as the airline sends it (`YYYY-MM-DD`), e.g. "20 Nov 2026"; anything else as it is. */
export function formatDay(date: string, lang: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return date;
  const d = new Date(`${date}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return date;
  return format(`d:${lang}`, lang, { timeZone: 'UTC', dateStyle: 'medium' }).format(d);
}
