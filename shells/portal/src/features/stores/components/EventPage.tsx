import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  FieldError,
  Link,
  Loading,
  activityStore,
  http,
  screenView,
  useAuth,
  useConfig,
  useLanguage,
  useStore,
  type EventConfig,
  type EventSignUp,
  type EventField,
  type LocalText,
} from '@portal/runtime';
import { findStore, storePath, storesNear } from '@portal/runtime/geolocation';
import { formatDate, useTimeZone } from '@portal/kit/dates';
import { OneTapEventSignUp } from './OneTapEventSignUp';
import { ActivitySignIn, type ActivityFields } from './ActivitySignIn';

/** The event a page is for: `/event/{m}`, or `?mode=event&m=`. */
export function eventKey(path: string, search: string): string | null {
  const m = /^\/event\/([^/]+)$/.exec(path);
  if (m) return decodeURIComponent(m[1]);
  const q = new URLSearchParams(search);
  return q.get('mode') === 'event' ? q.get('m') : null;
}

/** A config text in the page's language (English, then any, as fallbacks). */
export function localText(v: LocalText | null | undefined, lang: string): string {
  if (!v) return '';
  if (typeof v === 'string') return v;
  return v[lang] ?? v.en ?? Object.values(v)[0] ?? '';
}

type EventOption = NonNullable<EventField['options']>[number];
const optionValue = (o: EventOption) => (typeof o === 'string' ? o : o.value);
const optionLabel = (o: EventOption, lang: string) => (typeof o === 'string' ? o : localText(o.label, lang) || o.value);

type Values = Record<string, string | boolean>;

/** One sign-up field as the event's configuration describes it. */
function Field({
  field,
  value,
  error,
  onChange,
}: {
  field: EventField;
  value: string | boolean | undefined;
  error?: string;
  onChange: (v: string | boolean) => void;
}) {
  const { t } = useTranslation('stores');
  const { language } = useLanguage();
  const id = `event-field-${field.name}`;
  const label = localText(field.label, language) || field.name;
  const suffix = field.required ? null : <span className="muted"> ({t('event.optional')})</span>;
  const common = {
    id,
    name: field.name,
    required: field.required || undefined,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': `${id}-error`,
  };
  if (field.type === 'checkbox') {
    return (
      <div className="field">
        <label className="choice" htmlFor={id}>
          <input type="checkbox" {...common} checked={value === true} onChange={(e) => onChange(e.target.checked)} />
          {label}
          {suffix}
        </label>
        <FieldError id={`${id}-error`} message={error} />
      </div>
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {suffix}
      </label>
      {field.type === 'select' ? (
        <select {...common} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value)}>
          <option value="">{t('event.choose')}</option>
          {(field.options ?? []).map((o) => (
            <option key={optionValue(o)} value={optionValue(o)}>
              {optionLabel(o, language)}
            </option>
          ))}
        </select>
      ) : (
        <input
          {...common}
          type={field.type === 'email' ? 'email' : field.type === 'date' ? 'date' : 'text'}
          dir={field.type === 'email' ? 'ltr' : 'auto'}
          inputMode={field.type === 'email' ? 'email' : undefined}
          maxLength={field.type === 'text' ? (field.maxLength ?? 500) : undefined}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      <FieldError id={`${id}-error`} message={error} />
    </div>
  );
}

/** "Where": the store the event takes place at, by its name, linked to its page. */
function Where({ handle }: { handle: string }) {
  const { t } = useTranslation('stores');
  const [name, setName] = useState<string | null>(null);
  useEffect(() => {
    const ctrl = new AbortController();
    storesNear(null, ctrl.signal)
      .then((all) => setName(findStore(all, { handle })?.name ?? null))
      .catch(() => undefined);
    return () => ctrl.abort();
  }, [handle]);
  if (!name) return null;
  return (
    <p>
      <strong>{t('event.where')}:</strong> <Link href={storePath(handle)}>{name}</Link>
    </p>
  );
}

/** A member signed in as themselves: their existing sign-up for event `key`, if any. */
function useMySignUp(key: string): EventSignUp | null {
  const auth = useAuth();
  const [mine, setMine] = useState<EventSignUp | null>(null);
  const own = auth.authenticated && !auth.impersonating && !auth.staff;
  useEffect(() => {
    if (!own || !key) return;
    const ctrl = new AbortController();
    http<EventSignUp>(`/api/activity/event/${encodeURIComponent(key)}`, { signal: ctrl.signal, quiet: true })
      .then(setMine)
      .catch(() => undefined);
    return () => ctrl.abort();
  }, [own, key]);
  return mine;
}

/** The answers a sign-up kept, labelled as the form asked for them. */
function Answers({ fields, answers }: { fields: EventField[]; answers: EventSignUp['custom_fields'] }) {
  const { t } = useTranslation('stores');
  const { language } = useLanguage();
  const shown = fields.filter((f) => answers[f.name] != null && answers[f.name] !== '');
  if (!shown.length) return null;
  const text = (f: EventField, v: unknown) => {
    if (typeof v === 'boolean') return v ? t('event.yes') : t('event.no');
    const o = (f.options as EventOption[] | undefined)?.find((x) => (typeof x === 'string' ? x : x.value) === String(v));
    return o ? optionLabel(o, language) : String(v);
  };
  return (
    <>
      <h3>{t('event.yourAnswers')}</h3>
      <dl className="dl">
        {shown.map((f) => (
          <div key={f.name}>
            <dt>{localText(f.label, language) || f.name}</dt>
            <dd>{text(f, answers[f.name])}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}

/** Event mode: the event's page and its sign-up, with the fields the tenant config asks for. */
export function EventPage({ path, search }: { path: string; search: string }) {
  const { t } = useTranslation('stores');
  const { language } = useLanguage();
  const { config, loaded } = useConfig();
  const zone = useTimeZone();
  const { activity } = useStore(activityStore);
  const key = eventKey(path, search) ?? '';
  const [values, setValues] = useState<Values>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => screenView('Event mode'), []);
  useEffect(() => () => activityStore.set({ activity: null }), []);
  const mine = useMySignUp(key);
  const auth = useAuth();
  // Signed in as themselves: one tap signs them up (a staff view or a staff user: the email path).
  const oneTap = auth.authenticated && !auth.impersonating && !auth.staff;

  if (!loaded && !config) return <Loading label={t('event.loading')} />;
  const event: EventConfig | undefined = config?.events?.[key];
  if (!event) {
    return (
      <section className="page" aria-labelledby="event-title">
        <h1 id="event-title" className="page-title">
          {t('event.notFoundTitle')}
        </h1>
        <p className="lead">{t('event.notFoundText')}</p>
      </section>
    );
  }
  const title = localText(event.title, language) || key;
  const description = localText(event.description, language);
  const ended = !!event.endsAt && Date.parse(event.endsAt) <= Date.now();
  const when = formatDate(event.startsAt, language, zone, 'weekdayDateTime');
  const done = activity?.kind === 'event' && activity.key === key ? activity : null;
  const fields = event.customFields ?? [];

  /** Client-side check of required fields (the server checks everything again). */
  const collect = (): ActivityFields | null => {
    const found: Record<string, string> = {};
    const out: Record<string, string | boolean> = {};
    for (const f of fields) {
      const v = values[f.name];
      const empty = v === undefined || v === '' || (f.type === 'checkbox' && v !== true);
      if (f.required && empty) found[`customFields.${f.name}`] = t('event.required');
      else if (!empty) out[f.name] = typeof v === 'string' ? v.trim() : v;
    }
    setErrors(found);
    if (Object.keys(found).length) {
      document.getElementById(`event-field-${Object.keys(found)[0].slice('customFields.'.length)}`)?.focus();
      return null;
    }
    return { mode: 'event', eventData: { m: key }, customFields: out };
  };

  const questions = fields.map((f) => (
    <Field
      key={f.name}
      field={f}
      value={values[f.name]}
      error={errors[`customFields.${f.name}`]}
      onChange={(v) => setValues((prev) => ({ ...prev, [f.name]: v }))}
    />
  ));

  return (
    <section className="page event-page" aria-labelledby="event-title">
      <h1 id="event-title" className="page-title">
        {ended ? t('event.finishedTitle') : title}
      </h1>
      {ended ? (
        <p className="lead">{t('event.finishedText', { event: title })}</p>
      ) : (
        <>
          {description && <p className="lead">{description}</p>}
          {when && (
            <p>
              <strong>{t('event.when')}:</strong> {when}
            </p>
          )}
          {event.location && <Where handle={event.location} />}
          {!done && mine?.signed_up ? (
            <div className="card notice" role="status">
              <h2>{t('event.signedUp', { event: title })}</h2>
              <Answers fields={fields} answers={mine.custom_fields} />
            </div>
          ) : done ? (
            <div className="card notice" role="status">
              <h2>{done.recorded ? t('event.signedUp', { event: title }) : t('event.alreadySignedUp', { event: title })}</h2>
              <p>{done.recorded ? t('event.signedUpText') : t('event.alreadySignedUpText')}</p>
            </div>
          ) : oneTap ? (
            <OneTapEventSignUp fields={collect} onFieldErrors={setErrors}>
              {questions}
            </OneTapEventSignUp>
          ) : (
            <ActivitySignIn
              id="event-sign-up"
              title={t('event.signUpTitle')}
              intro={t('event.signUpIntro')}
              submitLabel={t('event.signUpSubmit')}
              redirect={`/event/${encodeURIComponent(key)}`}
              fields={collect}
              onFieldErrors={setErrors}
            >
              {questions}
            </ActivitySignIn>
          )}
        </>
      )}
    </section>
  );
}
