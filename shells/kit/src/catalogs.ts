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

const PLURAL = /_(zero|one|two|few|many|other)$/;
type Tree = { [key: string]: string | Tree };

function flattenTexts(tree: Tree, prefix = ''): Record<string, string> {
  return Object.entries(tree).reduce<Record<string, string>>((all, [k, v]) => {
    if (typeof v === 'string') all[`${prefix}${k}`] = v;
    else Object.assign(all, flattenTexts(v, `${prefix}${k}.`));
    return all;
  }, {});
}

/** Base keys, each with its plural forms (none for a plain key). */
function shape(flat: Record<string, string>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const key of Object.keys(flat)) {
    const m = PLURAL.exec(key);
    const base = m ? key.slice(0, m.index) : key;
    out[base] ??= [];
    if (m) out[base].push(m[1]);
  }
  for (const forms of Object.values(out)) forms.sort();
  return out;
}

const placeholders = (text: string) => [...text.matchAll(/{{\s*(\w+)\s*}}/g)].map((m) => m[1]).sort();

/**
 * Like describeCatalogs, for catalogs with counted texts: they agree with en, plural forms aside.
 * A key with a count has, in each language, exactly the plural forms that language uses
 * (Intl.PluralRules, as i18next does): Arabic six, French, Italian and Spanish three (many:
 * "1 000 000 de points"), Thai one. Every text uses the placeholders its en text uses.
 */
export function describePluralCatalogs(dir: string, { name, minKeys = 1 }: { name: string; minKeys?: number }): void {
  const load = (lang: string): Tree => JSON.parse(fs.readFileSync(path.join(dir, `${lang}.json`), 'utf8'));
  const en = flattenTexts(load('en'));
  const enShape = shape(en);

  describe(`${name} i18n catalogs`, () => {
    it('en has keys, and its plural keys have the forms English uses', () => {
      expect(Object.keys(en).length).toBeGreaterThanOrEqual(minKeys);
      for (const forms of Object.values(enShape)) if (forms.length) expect(forms).toEqual(['one', 'other']);
    });

    it.each(CATALOG_LANGUAGES.filter((l) => l !== 'en'))(
      '%s has the keys of en, the plural forms of its language, no empty text and the same placeholders',
      (lang) => {
        const flat = flattenTexts(load(lang));
        const own = shape(flat);
        const categories = [...new Intl.PluralRules(lang).resolvedOptions().pluralCategories].sort();
        const expected = Object.fromEntries(Object.entries(enShape).map(([base, forms]) => [base, forms.length ? categories : []]));
        expect({ lang, keys: own }).toEqual({ lang, keys: expected });

        const empty = Object.entries(flat)
          .filter(([, v]) => v.trim() === '')
          .map(([k]) => k);
        expect({ lang, empty }).toEqual({ lang, empty: [] });

        // Every form of a key uses what its en text uses ({{count}} may stand for a formatted number).
        const wrong: string[] = [];
        for (const [key, text] of Object.entries(flat)) {
          const m = PLURAL.exec(key);
          const base = m ? key.slice(0, m.index) : key;
          const source = m ? en[`${base}_other`] : en[key];
          const want = placeholders(source).filter((p) => p !== 'count');
          const got = placeholders(text).filter((p) => p !== 'count');
          if (got.some((p) => !want.includes(p)) || (!m && want.some((p) => !got.includes(p)))) wrong.push(key);
        }
        expect({ lang, wrong }).toEqual({ lang, wrong: [] });
      },
    );
  });
}
