import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { createStore } from './store';
import en from './i18n/en.json';
import it from './i18n/it.json';
import es from './i18n/es.json';
import fr from './i18n/fr.json';
import ar from './i18n/ar.json';
import de from './i18n/de.json';
import el from './i18n/el.json';
import th from './i18n/th.json';

export const LANGUAGES = ['en', 'it', 'es', 'fr', 'ar', 'de', 'el', 'th'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
export const RTL_LANGUAGES: readonly Language[] = ['ar'];
export const LANGUAGE_KEY = 'portal.language';

export type Catalog = { [key: string]: string | Catalog };
export type Catalogs = Record<Language, Catalog>;

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** The one i18next instance of the page, shared by the shell and every MFE. */
export const i18n = i18next.createInstance();

export const languageStore = createStore<{ language: Language; dir: 'ltr' | 'rtl' }>({
  language: DEFAULT_LANGUAGE,
  dir: 'ltr',
});

/** `?lang=` or `?language=` when it is one of the supported languages; otherwise null. */
export function languageFromUrl(search: string = typeof location !== 'undefined' ? location.search : ''): Language | null {
  const params = new URLSearchParams(search);
  for (const key of ['lang', 'language']) {
    const value = params.get(key);
    if (isLanguage(value)) return value;
  }
  return null;
}

function storedLanguage(): Language | null {
  try {
    const v = localStorage.getItem(LANGUAGE_KEY);
    return isLanguage(v) ? v : null;
  } catch {
    return null;
  }
}

function applyDocumentLanguage(lang: Language): void {
  if (typeof document === 'undefined') return;
  const dir = RTL_LANGUAGES.includes(lang) ? 'rtl' : 'ltr';
  document.documentElement.lang = lang;
  document.documentElement.dir = dir;
  languageStore.set({ language: lang, dir });
}

/** The single language switch; unsupported codes are ignored (returns false). */
export function setLanguage(lang: string): boolean {
  if (!isLanguage(lang)) return false;
  void i18n.changeLanguage(lang);
  applyDocumentLanguage(lang);
  try {
    localStorage.setItem(LANGUAGE_KEY, lang);
  } catch {
    /* ignore */
  }
  return true;
}

let initialised = false;

/** Adds a package's namespace in all eight languages. */
export function registerCatalogs(ns: string, catalogs: Catalogs): void {
  if (!initialised) initI18n();
  for (const lang of LANGUAGES) {
    i18n.addResourceBundle(lang, ns, catalogs[lang] ?? {}, true, true);
  }
}

/** Initialises i18n synchronously; URL language wins over the stored one, default en. */
export function initI18n(search?: string): Language {
  const lang = languageFromUrl(search) ?? storedLanguage() ?? DEFAULT_LANGUAGE;
  if (!initialised) {
    initialised = true;
    void i18n.use(initReactI18next).init({
      lng: lang,
      fallbackLng: DEFAULT_LANGUAGE,
      supportedLngs: [...LANGUAGES],
      ns: ['runtime'],
      defaultNS: 'runtime',
      initAsync: false,
      interpolation: { escapeValue: false },
      react: { bindI18nStore: 'added', useSuspense: false },
      returnNull: false,
    });
    registerCatalogs('runtime', { en, it, es, fr, ar, de, el, th });
  }
  setLanguage(lang);
  return lang;
}

export const runtimeCatalogs: Catalogs = { en, it, es, fr, ar, de, el, th };
