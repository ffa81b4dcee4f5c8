import { holdLanguage, i18n, initI18n, languageReady, setLanguage, LANGUAGES } from '../index';
import { languageFromUrl } from '../i18n';

describe('language', () => {
  it('supports exactly the eight spec languages', () => {
    expect([...LANGUAGES]).toEqual(['en', 'it', 'es', 'fr', 'ar', 'de', 'el', 'th']);
  });

  it('accepts ?lang= and ?language= only for listed languages', () => {
    expect(languageFromUrl('?lang=fr')).toBe('fr');
    expect(languageFromUrl('?language=th')).toBe('th');
    expect(languageFromUrl('?lang=xx')).toBeNull();
    expect(languageFromUrl('?lang=EN')).toBeNull();
    expect(languageFromUrl('?lang=pt&language=de')).toBe('de');
    expect(languageFromUrl('')).toBeNull();
  });

  it('defaults to en and ignores an unknown URL language', () => {
    expect(initI18n('?lang=klingon')).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(document.documentElement.dir).toBe('ltr');
  });

  it('switches to Arabic right-to-left and back, fetching each catalog when chosen', async () => {
    expect(i18n.hasResourceBundle('de', 'runtime')).toBe(false);
    initI18n('?lang=ar');
    expect(document.documentElement.dir).toBe('rtl');
    await languageReady();
    expect(i18n.language).toBe('ar');
    expect(document.documentElement.dir).toBe('rtl');
    expect(document.documentElement.lang).toBe('ar');
    expect(setLanguage('de')).toBe(true);
    expect(document.documentElement.dir).toBe('ltr');
    await languageReady();
    expect(i18n.hasResourceBundle('de', 'runtime')).toBe(true);
    expect(i18n.t('error.retry', { ns: 'runtime' })).toBe('Erneut versuchen');
    expect(setLanguage('zz')).toBe(false);
    expect(i18n.language).toBe('de');
  });
});

describe('holding the language while a page drawn in English hydrates', () => {
  beforeEach(async () => {
    initI18n('?lang=en');
    await languageReady();
  });

  it('remembers the language chosen meanwhile and applies it, with its direction, once released and its strings are in', async () => {
    const release = holdLanguage();
    initI18n('?lang=ar');
    expect(setLanguage('fr')).toBe(true);
    expect(setLanguage('ar')).toBe(true);
    // Nothing changes while held: the text and the page stay English, left to right.
    expect(i18n.language).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(document.documentElement.dir).toBe('ltr');
    expect(localStorage.getItem('portal.language')).toBe('ar');
    const released = release();
    // Not before the Arabic strings are in.
    expect(document.documentElement.dir).toBe('ltr');
    await released;
    expect(i18n.language).toBe('ar');
    expect(i18n.hasResourceBundle('ar', 'runtime')).toBe(true);
    expect(document.documentElement.lang).toBe('ar');
    expect(document.documentElement.dir).toBe('rtl');
  });

  it('leaves the language alone when none was chosen, and lets a later choice win', async () => {
    await holdLanguage()();
    expect(i18n.language).toBe('en');
    const release = holdLanguage();
    setLanguage('th');
    const released = release();
    // Chosen after the release, while the Thai strings load: it wins.
    setLanguage('de');
    await released;
    await languageReady();
    expect(i18n.language).toBe('de');
    expect(document.documentElement.lang).toBe('de');
  });
});
