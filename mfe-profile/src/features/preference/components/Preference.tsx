import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ErrorState,
  LANGUAGES,
  Loading,
  addToast,
  i18n,
  setLanguage,
  useAuth,
  useLanguage,
  type Language,
  type Profile,
} from '@portal/runtime';
import { formatDistance } from '@portal/runtime/geolocation';
import { useProfile } from '../../shared/hooks/use-profile';
import { SelectField, SubmitButton } from '@portal/kit/fields';
import { toastSaved, toastWriteError, useDraft, useServerErrors } from '../../../lib/form';
import { useLocations, useSaveAttribute } from '../hooks/use-preference';
import { WriteFieldset } from '@portal/kit/offline';
import { GeoCredit } from '@portal/kit/geo-credit';

/** Display language: switches the page at once (no reload) and is saved as locale:language. */
function LanguagePicker({ readOnly }: { readOnly: boolean }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const save = useSaveAttribute('locale:language');
  const choose = (lang: Language) => {
    setLanguage(lang);
    if (readOnly) return;
    save.mutate(lang, {
      // Told in the language just chosen (its strings are in by the time the server answers).
      onSuccess: () => toastSaved(i18n.getFixedT(lang, 'mfe-profile'), 'preference.languageSaved'),
      onError: (err) => toastWriteError(err, i18n.getFixedT(lang, 'mfe-profile'), false),
    });
  };
  return (
    <form className="card" onSubmit={(e) => e.preventDefault()}>
      <WriteFieldset className="fieldset">
        <legend className="field-legend">
          <h2>{t('preference.legend')}</h2>
        </legend>
        <ul className="choices">
          {LANGUAGES.map((lang) => (
            <li key={lang}>
              <label lang={lang} className="choice">
                <input type="radio" name="language" value={lang} checked={language === lang} onChange={() => choose(lang)} />
                {t(`language.${lang}`, { ns: 'runtime' })}
              </label>
            </li>
          ))}
        </ul>
      </WriteFieldset>
    </form>
  );
}

/** Preferred store: one of the locations of GET /api/geolocation, saved as preference:store. */
function StorePicker({ profile, readOnly }: { profile: Profile; readOnly: boolean }) {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const locations = useLocations();
  const here = locations.data?.here ?? null;
  const current = profile.custom_attributes?.preference?.store ?? '';
  const { saved, draft, setDraft, reset } = useDraft(current, (a, b) => a !== b);
  const { ref, errors, fromError, clear } = useServerErrors<HTMLFormElement>();
  const save = useSaveAttribute('preference:store');
  const list = locations.data?.stores ?? [];

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (save.isPending || readOnly) return;
    if (draft === saved) {
      addToast({ type: 'info', text: t('form.nothingChanged') });
      return;
    }
    clear();
    save.mutate(draft, {
      onSuccess: () => {
        reset(draft);
        toastSaved(t, 'preference.storeSaved');
      },
      onError: (err) =>
        toastWriteError(
          err,
          t,
          fromError(err, (field) => (field === 'value' ? 'store' : field)),
        ),
    });
  };

  return (
    <form ref={ref} className="card" onSubmit={submit} noValidate aria-labelledby="store-title">
      <h2 id="store-title">{t('preference.store.title')}</h2>
      <p className="muted">{t('preference.store.intro')}</p>
      {locations.isError ? (
        <ErrorState error={locations.error} onRetry={() => void locations.refetch()} />
      ) : (
        <fieldset className="fieldset" disabled={readOnly}>
          <SelectField
            id="preference-store"
            label={t('preference.store.label')}
            error={errors.store}
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            aria-busy={locations.isPending || undefined}
          >
            <option value="">{locations.isPending ? t('preference.store.loading') : t('preference.store.none')}</option>
            {draft && !list.some((l) => l.handle === draft) && <option value={draft}>{draft}</option>}
            {list.map((l) => (
              <option key={l.handle} value={l.handle}>
                {l.distance != null
                  ? t('preference.store.option', { name: l.name, distance: formatDistance(l.distance, language) })
                  : l.name}
              </option>
            ))}
          </SelectField>
          {here && (
            <p className="muted store-position">
              {t(`preference.store.from.${here.source}`)}
              <GeoCredit here={here} />
            </p>
          )}
          {!readOnly && <SubmitButton busy={save.isPending} label={t('form.save')} busyLabel={t('form.saving')} />}
        </fieldset>
      )}
    </form>
  );
}

/** /preference — display language and preferred store. */
export function Preference() {
  const { t } = useTranslation();
  const { impersonating } = useAuth();
  const query = useProfile();
  return (
    <section className="page" aria-labelledby="preference-title">
      <h1 id="preference-title" className="page-title">
        {t('preference.title')}
      </h1>
      <p className="lead">{t('preference.intro')}</p>
      <LanguagePicker readOnly={impersonating} />
      {query.data ? (
        <StorePicker profile={query.data} readOnly={impersonating} />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <Loading />
      )}
    </section>
  );
}
