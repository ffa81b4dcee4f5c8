export const TIME_ZONE = 'Australia/Melbourne';
const localeFor = (lang: string) => (lang === 'en' ? 'en-AU' : lang);

export function formatDate(iso: string | null | undefined, lang: string): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  return new Intl.DateTimeFormat(localeFor(lang), { timeZone: TIME_ZONE, dateStyle: 'medium' }).format(d);
}

export function formatNumber(n: number, lang: string): string {
  return new Intl.NumberFormat(localeFor(lang)).format(n);
}
