import fs from 'node:fs';
import path from 'node:path';

export const CATALOG_LANGUAGES = ['en', 'it', 'es', 'fr', 'ar', 'de', 'el', 'th'];

function flatten(obj: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) =>
    v && typeof v === 'object' ? flatten(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

/**
 * Registers a jest suite that fails when a key of `en` is missing from another
 * catalog, when a catalog has a key `en` lacks, or when a value is empty.
 */
export function describeCatalogs(dir: string): void {
  describe(`i18n catalogs in ${path.basename(path.dirname(dir))}`, () => {
    const load = (lang: string) => JSON.parse(fs.readFileSync(path.join(dir, `${lang}.json`), 'utf8'));
    const enKeys = flatten(load('en')).sort();

    it('has an en catalog with keys', () => {
      expect(enKeys.length).toBeGreaterThan(0);
    });

    it.each(CATALOG_LANGUAGES.filter((l) => l !== 'en'))('%s has exactly the keys of en', (lang) => {
      const catalog = load(lang);
      const keys = flatten(catalog).sort();
      const missing = enKeys.filter((k) => !keys.includes(k));
      const extra = keys.filter((k) => !enKeys.includes(k));
      expect({ lang, missing, extra }).toEqual({ lang, missing: [], extra: [] });
      const empty = keys.filter((k) => {
        const v = k.split('.').reduce<unknown>((o, p) => (o as Record<string, unknown>)[p], catalog);
        return typeof v !== 'string' || v.trim() === '';
      });
      expect({ lang, empty }).toEqual({ lang, empty: [] });
    });
  });
}
