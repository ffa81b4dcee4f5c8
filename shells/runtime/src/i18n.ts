import i18next, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { createStore } from './store';
import en from './i18n/en.json';

export const LANGUAGES = ['en', 'it', 'es', 'fr', 'ar', 'de', 'el', 'th'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
export const RTL_LANGUAGES: readonly Language[] = ['ar'];
export const LANGUAGE_KEY = 'portal.language';

export type Catalog = { [key: string]: string | Catalog };
/** A catalog, or a loader for it (`() => import('./fr.json')`): fetched only when that language is chosen. */
export type CatalogSource = Catalog | (() => Promise<Catalog | { default: Catalog }>);
/** Every language of a namespace. `en` (the fallback) is bundled; the others may be loaders. */
export type Catalogs = { en: Catalog } & Record<Exclude<Language, 'en'>, CatalogSource>;

/**
 * A namespace's catalogs from its bundled `en` and one loader for the other languages, e.g.
 * `catalogsFrom(en, (lang) => import(\`./${lang}.json\`))`: webpack gives each language its own
 * chunk, fetched only when that language is chosen.
 */
export function catalogsFrom(en: Catalog, load: (lang: Exclude<Language, 'en'>) => Promise<Catalog | { default: Catalog }>): Catalogs {
  const catalogs = { en } as Catalogs;
  for (const lang of LANGUAGES) {
    if (lang !== 'en') catalogs[lang] = () => load(lang);
  }
  return catalogs;
}

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

// Catalog sources by namespace. i18next asks this backend for a (language, namespace) it does not
// hold yet, i.e. when a language is chosen or a namespace is first used in the current language;
// so a page only downloads the strings of the language it shows.
const sources = new Map<string, Catalogs>();

const lazyCatalogs: BackendModule = {
  type: 'backend',
  init() {},
  read(language, namespace, callback) {
    const source = isLanguage(language) ? sources.get(namespace)?.[language] : undefined;
    if (!source) return callback(null, {});
    if (typeof source !== 'function') return callback(null, source as ResourceKey);
    source().then(
      (mod) => callback(null, ((mod as { default?: Catalog }).default ?? mod) as ResourceKey),
      (err: Error) => callback(err, null),
    );
  },
};

let initialised = false;
let pending: Promise<void> = Promise.resolve();
// While a page drawn ahead of time hydrates (holdLanguage): the language chosen meanwhile.
let holding = false;
let held: Language | null = null;

/** The single language switch; unsupported codes are ignored (returns false). */
export function setLanguage(lang: string): boolean {
  if (!isLanguage(lang)) return false;
  if (holding) {
    held = lang;
    try {
      localStorage.setItem(LANGUAGE_KEY, lang);
    } catch {
      /* ignore */
    }
    return true;
  }
  held = null;
  // i18next switches once that language's catalogs are in (see languageReady()).
  pending = i18n.changeLanguage(lang).then(
    () => undefined,
    () => undefined,
  );
  applyDocumentLanguage(lang);
  try {
    localStorage.setItem(LANGUAGE_KEY, lang);
  } catch {
    /* ignore */
  }
  return true;
}

// A language picked on the sign-in page in this tab, before signing in: at sign-in it wins over
// the one saved on the member's profile and becomes the saved one (see auth.ts). Kept for the tab
// (sessionStorage), so a reload between choosing and signing in keeps it.
const CHOSEN_KEY = 'portal.language.chosen';

/** The sign-in page's language choice: switches the page (as setLanguage) and marks it as chosen. */
export function chooseLanguageBeforeSignIn(lang: string): boolean {
  if (!setLanguage(lang)) return false;
  try {
    sessionStorage.setItem(CHOSEN_KEY, lang);
  } catch {
    /* ignore */
  }
  return true;
}

/** The language chosen on the sign-in page in this tab, if any; reading it clears it. */
export function takeLanguageChosenBeforeSignIn(): Language | null {
  try {
    const lang = sessionStorage.getItem(CHOSEN_KEY);
    sessionStorage.removeItem(CHOSEN_KEY);
    return isLanguage(lang) ? lang : null;
  } catch {
    return null;
  }
}

/**
 * Keeps the page in its first language (English: the shell's build draws its pages in it) until
 * the returned function is called, so that React hydrates that HTML with the same text. Meanwhile
 * setLanguage (and initI18n) only remember the choice. Releasing applies the last one once its
 * catalogs are in, so the text and the page's direction (`lang`, `dir`) change together; the
 * promise settles when it has.
 */
export function holdLanguage(): () => Promise<void> {
  holding = true;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    holding = false;
    const lang = held;
    if (!lang) return;
    if (lang !== i18n.language) {
      await new Promise<void>((resolve) => void i18n.loadLanguages(lang, () => resolve()));
    }
    // Unless another language was chosen while the catalogs came.
    if (held === lang) setLanguage(lang);
  };
}

/** Resolves when the catalogs of the current language for every registered namespace are in. */
export function languageReady(): Promise<void> {
  const namespaces = [...sources.keys()];
  return pending.then(() => new Promise<void>((resolve) => void i18n.loadNamespaces(namespaces, () => resolve())));
}

/** Adds a package's namespace: `en` now, the current language now or soon, others on demand. */
export function registerCatalogs(ns: string, catalogs: Catalogs): void {
  if (!initialised) initI18n();
  sources.set(ns, catalogs);
  i18n.addResourceBundle(DEFAULT_LANGUAGE, ns, catalogs.en ?? {}, true, true);
  for (const lang of LANGUAGES) {
    const source = catalogs[lang];
    if (lang !== DEFAULT_LANGUAGE && source && typeof source !== 'function') {
      i18n.addResourceBundle(lang, ns, source, true, true);
    }
  }
  void i18n.loadNamespaces(ns);
}

/** Initialises i18n; URL language wins over the stored one, default en. */
export function initI18n(search?: string): Language {
  const lang = languageFromUrl(search) ?? storedLanguage() ?? DEFAULT_LANGUAGE;
  if (!initialised) {
    initialised = true;
    sources.set('runtime', runtimeCatalogs);
    void i18n
      .use(lazyCatalogs)
      .use(initReactI18next)
      .init({
        lng: DEFAULT_LANGUAGE,
        fallbackLng: DEFAULT_LANGUAGE,
        supportedLngs: [...LANGUAGES],
        ns: ['runtime'],
        defaultNS: 'runtime',
        resources: { en: { runtime: en } },
        partialBundledLanguages: true,
        initAsync: false,
        interpolation: { escapeValue: false },
        react: { bindI18nStore: 'added', useSuspense: false },
        returnNull: false,
      });
  }
  setLanguage(lang);
  return lang;
}

export const runtimeCatalogs: Catalogs = catalogsFrom(en, (lang) => import(/* webpackChunkName: "i18n-[request]" */ `./i18n/${lang}.json`));
