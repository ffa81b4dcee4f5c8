import { i18n, initI18n, languageFromUrl, languageReady, setLanguage, LANGUAGES } from '../index';

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
