import { useTranslation } from 'react-i18next';
import { LANGUAGES, chooseLanguageBeforeSignIn, useConfig, useLanguage, type Language } from '@portal/runtime';

/** The tenant's languages (config `languages`), in the spec's order; all of them when unset. */
function offered(languages: readonly string[] | undefined): Language[] {
  const listed = (LANGUAGES as readonly string[]).filter((l) => !languages?.length || languages.includes(l));
  return listed as Language[];
}

/**
 * The sign-in page's language choice: each language in its own name, with its `lang`. Choosing
 * one goes through the runtime's single switch (text, `lang` and `dir` together, remembered for
 * the next visit) and, once the member signs in, becomes their saved language (it wins over the
 * one on their profile); a `?lang=` in the address is updated too, since it wins over what is stored.
 */
export function LanguageChooser({ disabled }: { disabled?: boolean }) {
  const { t } = useTranslation('runtime');
  const { config } = useConfig();
  const languages = offered(config?.languages);
  const { language } = useLanguage();
  if (languages.length < 2) return null;
  const choose = (lang: string) => {
    if (!chooseLanguageBeforeSignIn(lang)) return;
    const url = new URL(window.location.href);
    for (const key of ['lang', 'language']) {
      if (url.searchParams.has(key)) url.searchParams.set(key, lang);
    }
    if (url.href !== window.location.href) window.history.replaceState(window.history.state, '', url.href);
  };
  return (
    <div className="field login-language" style={{ textAlign: 'start' }}>
      <label htmlFor="login-language">{t('language.label')}</label>
      <select id="login-language" value={language} disabled={disabled} onChange={(e) => choose(e.target.value)}>
        {languages.map((lang) => (
          <option key={lang} value={lang} lang={lang}>
            {t(`language.${lang}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
