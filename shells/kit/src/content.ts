// The tenant's content in the page's language (issue 24). The API answers each text the tenant
// writes (a reward's name, an offer's banner, a tier, a ledger entry's reason) in its default
// language, with the item's `translations` beside it: language → field → text. The language is
// chosen here, in the browser, so an answer is the same whatever the language: the copies kept for
// offline use hold every language, and switching language redraws at once, online or off, without
// a fetch and never with the previous language's text (services/tenant/src/content.rs).
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** An item's texts in other languages, as the API sends them: language → field → text. */
export type Translations = Record<string, Record<string, string> | undefined>;

/** An item as the API answers it (a copy kept before translations existed may lack them). */
type Translatable = { translations?: Translations | null };

/** Keys of `T` whose value is a text (what `translations` can translate). */
type TextField<T> = { [K in keyof T]-?: T[K] extends string | null | undefined ? K : never }[keyof T] & string;

/** `item[field]` in `lang`: its translation, else (no such language or field) the default text. */
export function contentText<T extends object>(item: T, field: TextField<T>, lang: string): string {
  const translations = (item as Translatable).translations;
  const own = translations?.[lang]?.[field] ?? translations?.[lang.split('-')[0]]?.[field];
  if (own) return own;
  const value = item[field] as unknown;
  return typeof value === 'string' ? value : '';
}

/** `contentText` in the page's language, redrawn when it changes. */
export function useContentText(): <T extends object>(item: T, field: TextField<T>) => string {
  const { i18n } = useTranslation();
  const lang = i18n.language;
  return useCallback(<T extends object>(item: T, field: TextField<T>) => contentText(item, field, lang), [lang]);
}

/** A text of the tenant file (`"…"`, or `{"en": "…", "ar": "…"}`). */
export type ConfigText = string | Record<string, string | undefined>;

/** A tenant-file text in `lang`: its own, else the default (`en`), else nothing. */
export function configText(value: ConfigText | null | undefined, lang: string): string {
  if (!value) return '';
  if (typeof value === 'string') return value;
  return value[lang] ?? value[lang.split('-')[0]] ?? value.en ?? '';
}
