import { useTranslation } from 'react-i18next';
import { LANGUAGES, setLanguage, useLanguage } from '@portal/runtime';

/** /preference — language choice, switched live through the runtime. */
export function Preference() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  return (
    <section className="page" aria-labelledby="preference-title">
      <h1 id="preference-title" className="page-title">
        {t('preference.title')}
      </h1>
      <p className="lead">{t('preference.intro')}</p>
      <form className="card" onSubmit={(e) => e.preventDefault()}>
        <fieldset style={{ border: 0, margin: 0, padding: 0 }}>
          <legend className="field-legend">
            <strong>{t('preference.legend')}</strong>
          </legend>
          <ul className="list">
            {LANGUAGES.map((lang) => (
              <li key={lang}>
                <label lang={lang} style={{ display: 'flex', gap: 'var(--space-2)', alignItems: 'center', minHeight: 44 }}>
                  <input
                    type="radio"
                    name="language"
                    value={lang}
                    checked={language === lang}
                    onChange={() => setLanguage(lang)}
                  />
                  {t(`language.${lang}`, { ns: 'runtime' })}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      </form>
    </section>
  );
}
