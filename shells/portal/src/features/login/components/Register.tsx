import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldError, http, isHttpError, type MessageResponse } from '@portal/runtime';

const FIELDS = ['first_name', 'last_name', 'email', 'phone', 'birth_date'] as const;
type Field = (typeof FIELDS)[number];
type Values = Record<Field, string>;

const TYPES: Record<Field, { type: string; autoComplete: string; required: boolean; dir?: 'ltr' }> = {
  first_name: { type: 'text', autoComplete: 'given-name', required: true },
  last_name: { type: 'text', autoComplete: 'family-name', required: true },
  email: { type: 'email', autoComplete: 'email', required: true, dir: 'ltr' },
  phone: { type: 'tel', autoComplete: 'tel', required: false, dir: 'ltr' },
  birth_date: { type: 'date', autoComplete: 'bday', required: false },
};

/**
 * "Create an account" (spec 7, POST /api/auth/create): name, email, and optionally a phone and a
 * birthday; the server checks every field (its problems land on the fields) and emails a sign-in
 * link — also to an address that already has an account, so nobody learns who is a member.
 */
export function Register({
  email,
  redirect,
  onSent,
  onCancel,
}: {
  email: string;
  redirect: string;
  onSent: (email: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('shell');
  const [values, setValues] = useState<Values>({ first_name: '', last_name: '', email, phone: '', birth_date: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => title.current?.focus(), []);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    const missing: Partial<Record<Field, string>> = {};
    for (const f of FIELDS) if (TYPES[f].required && !values[f].trim()) missing[f] = t('register.required');
    setErrors(missing);
    const first = FIELDS.find((f) => missing[f]);
    if (first) {
      document.getElementById(`register-${first}`)?.focus();
      return;
    }
    setSending(true);
    try {
      const body = {
        email: values.email.trim(),
        first_name: values.first_name.trim(),
        last_name: values.last_name.trim(),
        phone: values.phone.trim() || undefined,
        birth_date: values.birth_date || undefined,
        redirect,
      };
      await http<MessageResponse>('/api/auth/create', { method: 'POST', body });
      onSent(body.email);
    } catch (err) {
      setSending(false);
      if (!isHttpError(err)) return setFormError(t('error.unknown', { ns: 'runtime' }));
      if (err.status === 429) return setFormError(t('login.tooMany'));
      const found: Partial<Record<Field, string>> = {};
      for (const f of FIELDS) if (err.errors?.[f]) found[f] = err.errors[f];
      setErrors(found);
      const bad = FIELDS.find((f) => found[f]);
      if (bad) document.getElementById(`register-${bad}`)?.focus();
      else setFormError(err.message);
    }
  };

  return (
    <section className="status-screen" aria-labelledby="register-title">
      <div className="card">
        <h1 id="register-title" ref={title} tabIndex={-1}>
          {t('register.title')}
        </h1>
        <p className="lead">{t('register.intro')}</p>
        <form onSubmit={(e) => void submit(e)} noValidate>
          {FIELDS.map((f) => (
            <div key={f} className="field" style={{ textAlign: 'start' }}>
              <label htmlFor={`register-${f}`}>
                {t(`register.${f}`)}
                {!TYPES[f].required && ` (${t('register.optional')})`}
              </label>
              <input
                id={`register-${f}`}
                name={f}
                type={TYPES[f].type}
                autoComplete={TYPES[f].autoComplete}
                required={TYPES[f].required}
                dir={TYPES[f].dir}
                value={values[f]}
                onChange={(e) => setValues((v) => ({ ...v, [f]: e.target.value }))}
                aria-invalid={errors[f] ? true : undefined}
                aria-describedby={`register-${f}-error`}
              />
              <FieldError id={`register-${f}-error`} message={errors[f] ?? null} />
            </div>
          ))}
          {formError && (
            <p className="field-error" role="alert">
              {formError}
            </p>
          )}
          <button type="submit" className="btn" disabled={sending}>
            {sending ? t('login.sending') : t('register.submit')}
          </button>
        </form>
        <p>
          <button type="button" className="btn-link" onClick={onCancel}>
            {t('register.haveAccount')}
          </button>
        </p>
      </div>
    </section>
  );
}
