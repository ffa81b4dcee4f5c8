import { formatNumber } from '@portal/kit/format';
import { dayIn, formatCalendarDate, formatDate as formatInstant, useTimeZone } from '@portal/kit/dates';

// Dates and times are shown in the member's zone as the kit has it (the tenant's: config
// general.timeZone, default Australia/Melbourne), whatever the device's zone is, in the kit's
// named styles; a claim's calendar date is formatted like any other.
export { dayIn, formatNumber, useTimeZone, formatCalendarDate as formatDate };

/** Today's date (`YYYY-MM-DD`) in `zone`. */
export const todayIn = (zone: string, now: Date = new Date()): string => dayIn(now, zone) ?? '';

/** `YYYY-MM-DD` `days` before `date` (a calendar date, no zone involved). */
export function daysBefore(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return '';
  d.setUTCDate(d.getUTCDate() - days);
  return d.toISOString().slice(0, 10);
}

/** A day heading: "Monday 2 Nov 2026" (in the page's language), in `zone`. */
export const formatDay = (iso: string, lang: string, zone: string): string => formatInstant(iso, lang, zone, 'weekdayDate') ?? iso;

/** An order's time under its day's heading: "1:30 am". */
export const formatTime = (iso: string, lang: string, zone: string): string => formatInstant(iso, lang, zone, 'time') ?? '';

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
