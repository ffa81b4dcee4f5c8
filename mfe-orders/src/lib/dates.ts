import { formatNumber, localeFor } from '@portal/kit/format';
import { formatCalendarDate, useTimeZone } from '@portal/kit/dates';

// Dates and times are shown in the tenant's zone (config general.timeZone, default
// Australia/Melbourne), whatever the device's zone is. The shared formatters come from
// @portal/build; a claim's calendar date is formatted like any other.
export { formatNumber, useTimeZone, formatCalendarDate as formatDate };

const dayKeys = new Map<string, Intl.DateTimeFormat>();

/** `YYYY-MM-DD` of an instant in `zone`; null when it is not a date. */
export function dayIn(value: string | Date, zone: string): string | null {
  const d = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(d.getTime())) return null;
  let format = dayKeys.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayKeys.set(zone, format);
  }
  return format.format(d);
}

/** Today's date (`YYYY-MM-DD`) in `zone`. */
export const todayIn = (zone: string, now: Date = new Date()): string => dayIn(now, zone) ?? '';

/** `YYYY-MM-DD` `days` before `date` (a calendar date, no zone involved). */
export function daysBefore(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return '';
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

/** A day heading: "Monday, 2 November 2026" (in the page's language), in `zone`. */
export function formatDay(iso: string, lang: string, zone: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(localeFor(lang), { timeZone: zone, dateStyle: 'full' }).format(d);
}

export function formatTime(iso: string, lang: string, zone: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat(localeFor(lang), { timeZone: zone, timeStyle: 'short' }).format(d);
}

export interface DayGroup<T> {
  /** `YYYY-MM-DD` in the zone. */
  day: string;
  /** The first item's instant, for the heading. */
  first: string;
  items: T[];
}

/** Groups items (already newest first) by their calendar day in `zone`, keeping their order. */
export function groupByDay<T>(items: T[], dateOf: (item: T) => string, zone: string): DayGroup<T>[] {
  const groups: DayGroup<T>[] = [];
  for (const item of items) {
    const iso = dateOf(item);
    const day = dayIn(iso, zone) ?? 'unknown';
    const last = groups[groups.length - 1];
    if (last && last.day === day) last.items.push(item);
    else groups.push({ day, first: iso, items: [item] });
  }
  return groups;
}
