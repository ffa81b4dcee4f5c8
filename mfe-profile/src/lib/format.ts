import { formatDate } from '@portal/kit/dates';

/** A date and time in the member's zone (the kit's), in the kit's `dateTime` style: "23 Nov 2026, 12:05 pm". */
export function formatDateTime(iso: string, lang: string, zone: string): string {
  return formatDate(iso, lang, zone, 'dateTime') ?? iso;
}
