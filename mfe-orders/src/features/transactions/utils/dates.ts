export const TIME_ZONE = 'Australia/Melbourne';

const dayKey = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' });

/** YYYY-MM-DD of the instant in the default time zone (Australia/Melbourne). */
export function dayOf(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? 'unknown' : dayKey.format(d);
}

/** Display locale: English uses Australian conventions (AUD retail). */
export const localeFor = (lang: string) => (lang === 'en' ? 'en-AU' : lang);

export function formatDay(iso: string, lang: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(localeFor(lang), { timeZone: TIME_ZONE, dateStyle: 'full' }).format(d);
}

export function formatTime(iso: string, lang: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Intl.DateTimeFormat(localeFor(lang), { timeZone: TIME_ZONE, timeStyle: 'short' }).format(d);
}

/** Groups items (already newest first) by calendar day, keeping order. */
export function groupByDay<T>(items: T[], dateOf: (item: T) => string): { day: string; first: string; items: T[] }[] {
  const groups: { day: string; first: string; items: T[] }[] = [];
  for (const item of items) {
    const iso = dateOf(item);
    const day = dayOf(iso);
    const last = groups[groups.length - 1];
    if (last && last.day === day) last.items.push(item);
    else groups.push({ day, first: iso, items: [item] });
  }
  return groups;
}
