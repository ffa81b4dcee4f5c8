import fs from 'node:fs';
import path from 'node:path';

// The catalogs agree with en, plural forms aside: a key with a count has, in each language,
// exactly the plural forms that language uses (Intl.PluralRules, as i18next does): Arabic six,
// French, Italian and Spanish three (many: "1 000 000 de points"), Thai one.
const DIR = path.join(__dirname, '..', 'i18n');
const LANGUAGES = ['en', 'it', 'es', 'fr', 'ar', 'de', 'el', 'th'];
const PLURAL = /_(zero|one|two|few|many|other)$/;

type Tree = { [key: string]: string | Tree };
const load = (lang: string): Tree => JSON.parse(fs.readFileSync(path.join(DIR, `${lang}.json`), 'utf8'));

function flatten(tree: Tree, prefix = ''): Record<string, string> {
  return Object.entries(tree).reduce<Record<string, string>>((all, [k, v]) => {
    if (typeof v === 'string') all[`${prefix}${k}`] = v;
    else Object.assign(all, flatten(v, `${prefix}${k}.`));
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

const en = flatten(load('en'));
const enShape = shape(en);

describe('mfe-rewards i18n catalogs', () => {
  it('en has keys, and its plural keys have the forms English uses', () => {
    expect(Object.keys(en).length).toBeGreaterThan(50);
    for (const forms of Object.values(enShape)) if (forms.length) expect(forms).toEqual(['one', 'other']);
  });

  it.each(LANGUAGES.filter((l) => l !== 'en'))('%s has the keys of en, the plural forms of its language, no empty text and the same placeholders', (lang) => {
    const flat = flatten(load(lang));
    const own = shape(flat);
    const categories = [...new Intl.PluralRules(lang).resolvedOptions().pluralCategories].sort();
    const expected = Object.fromEntries(Object.entries(enShape).map(([base, forms]) => [base, forms.length ? categories : []]));
    expect({ lang, keys: own }).toEqual({ lang, keys: expected });

    const empty = Object.entries(flat).filter(([, v]) => v.trim() === '').map(([k]) => k);
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
  });
});
