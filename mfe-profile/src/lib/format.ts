import { localeFor } from '@portal/kit/format';

/** A date and time in the tenant's zone (config general.timeZone), in the page's language. */
export function formatDateTime(iso: string, lang: string, zone: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(localeFor(lang), { timeZone: zone, dateStyle: 'medium', timeStyle: 'short' }).format(d);
}
