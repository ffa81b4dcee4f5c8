import { timeZone, useConfig } from '@portal/runtime';
import { cachedFormat, localeFor } from './format';

// The one set of date formats of the portal, for every micro-frontend and the shell: a date is
// always shown in one of the named styles below, in the page's language (./format's locale:
// Australian English, Arabic with Western digits, Thai with Buddhist-era years). Nothing else in
// the front end calls toLocale*String or Intl.DateTimeFormat (eslint.config.mjs refuses it).
//
// Instants (`…_at`, RFC 3339 in UTC) are shown in the member's zone, which the app knows as the
// tenant's (config general.timeZone, default Australia/Melbourne): the profile carries none, and
// the server reckons every day in it (points expiry, a claim's date, an order's day), so a date
// reads the same on any device whatever its own zone. Calendar dates (`YYYY-MM-DD`: a claim's,
// the airline's activity) are already that local date and are shown as they are, never shifted.

/** The named styles, e.g. in English: */
export const DATE_STYLES = {
  /** "24 Nov 2026" */
  date: { day: 'numeric', month: 'short', year: 'numeric' },
  /** "24 Nov 2026, 6:17 pm" */
  dateTime: { day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit' },
  /** "Tuesday 24 Nov 2026" (a day's heading) */
  weekdayDate: { weekday: 'long', day: 'numeric', month: 'short', year: 'numeric' },
  /** "Tuesday 24 Nov 2026, 6:17 pm" (an event's start) */
  weekdayDateTime: { weekday: 'long', day: 'numeric', month: 'short', year: 'numeric', hour: 'numeric', minute: '2-digit' },
  /** "6:17 pm" (under a day's heading) */
  time: { hour: 'numeric', minute: '2-digit' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

export type DateStyle = keyof typeof DATE_STYLES;
/** The styles of a calendar date: it has no time of day. */
export type CalendarDateStyle = 'date' | 'weekdayDate';

/** The member's time zone (the tenant's, above), following the config as it loads. */
export function useTimeZone(): string {
  return timeZone(useConfig().config);
}

function formatter(style: DateStyle, lang: string, zone: string): Intl.DateTimeFormat {
  return cachedFormat(
    `d:${style}:${lang}:${zone}`,
    () => new Intl.DateTimeFormat(localeFor(lang), { ...DATE_STYLES[style], timeZone: zone }),
  );
}

/**
 * An instant (RFC 3339, a Date or epoch milliseconds) in `zone`, in `style` (default `date`):
 * "24 Nov 2026"; null when there is none or it is not a date.
 */
export function formatDate(
  value: string | number | Date | null | undefined,
  lang: string,
  zone: string,
  style: DateStyle = 'date',
): string | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return null;
  return formatter(style, lang, zone).format(d);
}

/** A calendar date (`YYYY-MM-DD`, already the local date), e.g. "20 Nov 2026"; anything else as it is. */
export function formatCalendarDate(date: string, lang: string, style: CalendarDateStyle = 'date'): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return date;
  const d = new Date(`${date}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return date;
  return formatter(style, lang, 'UTC').format(d);
}

/** The calendar date (`YYYY-MM-DD`) of an instant in `zone`, to group or compare days; null when it is not a date. */
export function dayIn(value: string | number | Date, zone: string): string | null {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return null;
  // en-CA writes dates as YYYY-MM-DD.
  return cachedFormat(
    `k:${zone}`,
    () => new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }),
  ).format(d);
}
