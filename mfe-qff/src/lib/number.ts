// Numbers in the page's language (English with Australian conventions). Apart from the dates
// (lib/dates.ts) so the summary on /home carries only this.
export const localeFor = (lang: string) => (lang === 'en' ? 'en-AU' : lang);

const formats = new Map<string, Intl.NumberFormat>();

/** A whole number in the page's language, e.g. 48,250 (en) or 48.250 (de). */
export function formatNumber(n: number, lang: string): string {
  let format = formats.get(lang);
  if (!format) {
    format = new Intl.NumberFormat(localeFor(lang));
    formats.set(lang, format);
  }
  return format.format(n);
}
