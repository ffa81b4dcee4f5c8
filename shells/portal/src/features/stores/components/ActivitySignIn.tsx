import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import {
  BdiTrans,
  FieldError,
  http,
  isHttpError,
  useAuth,
  verifyCode,
  type AuthRequest,
  type CodeRequest,
  type MessageResponse,
  type Profile,
} from '@portal/runtime';
import { CODE_PATTERN, CodeField } from '@portal/kit/fields';
import { EMAIL, embedFields } from '../../../lib/sign-in';

/**
 * What a check-in or event sign-up adds to the sign-in request (spec 7, POST /api/auth): the
 * generated `eventData` and `customFields`, so the body is a plain `AuthRequest`/`CodeRequest`.
 */
export interface ActivityFields {
  mode: 'visit' | 'event';
  location?: string;
  eventData?: NonNullable<AuthRequest['eventData']>;
  customFields?: NonNullable<AuthRequest['customFields']>;
}

interface Props {
  id: string;
  title: string;
  intro: ReactNode;
  submitLabel: string;
  /** Where the emailed link brings the member back to. */
  redirect: string;
  /** The request's check-in or event part; `null` while the page's own fields are not valid. */
  fields: () => ActivityFields | null;
  /** The server's problems with fields other than the address (`customFields.<name>`, …). */
  onFieldErrors?: (errors: Record<string, string>) => void;
  /** The page's own fields, above the address. */
  children?: ReactNode;
}

/**
 * Signing in to record a check-in or an event sign-up: the address (the member's own when
 * already signed in), then an emailed link — or a 6-digit code typed on this device. The server
 * checks the store or event and its fields before anything is sent; nothing is recorded until
 * the member proves the address is theirs.
 */
export function ActivitySignIn({ id, title, intro, submitLabel, redirect, fields, onFieldErrors, children }: Props) {
  const { t } = useTranslation('stores');
  const auth = useAuth();
  const [email, setEmail] = useState('');
  const [phase, setPhase] = useState<'idle' | 'sending' | 'sent' | 'code'>('idle');
  const [error, setError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [verifying, setVerifying] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  const emailField = useRef<HTMLInputElement>(null);

  // A signed-in member checks in as themselves: their address is filled in.
  useEffect(() => {
    if (!auth.authenticated || auth.impersonating) return;
    const ctrl = new AbortController();
    http<Profile>('/api/profile', { signal: ctrl.signal, quiet: true })
      .then((p) => setEmail((e) => e || p.email || ''))
      .catch(() => undefined);
    return () => ctrl.abort();
  }, [auth.authenticated, auth.impersonating]);

  useEffect(() => {
    if (phase === 'sent' || phase === 'code') heading.current?.focus();
  }, [phase]);

  const problems = (err: unknown): boolean => {
    if (!isHttpError(err)) {
      setFormError(t('error.unknown', { ns: 'runtime' }));
      return true;
    }
    if (err.status === 429) {
      setFormError(t('signIn.tooMany'));
      return true;
    }
    const { email: emailProblem, ...rest } = err.errors ?? {};
    if (emailProblem) setError(t('signIn.invalidEmail'));
    if (Object.keys(rest).length) {
      onFieldErrors?.(rest);
      // The store or event itself refused (gone, finished): the server's own words.
      setFormError(rest.location ?? rest['eventData.m'] ?? t('signIn.fixFields'));
    } else if (!emailProblem) setFormError(err.message);
    return true;
  };

  const send = async (channel: 'link' | 'code') => {
    setError(null);
    setFormError(null);
    onFieldErrors?.({});
    const extra = fields();
    const address = email.trim();
    if (!EMAIL.test(address)) {
      setError(t('signIn.invalidEmail'));
      emailField.current?.focus();
      if (!extra) setFormError(t('signIn.fixFields'));
      return;
    }
    if (!extra) {
      setFormError(t('signIn.fixFields'));
      return;
    }
    setPhase('sending');
    try {
      if (channel === 'link') {
        const body: AuthRequest = { email: address, redirect, ...extra, ...embedFields() };
        await http<MessageResponse>('/api/auth', { method: 'POST', body });
        setPhase('sent');
      } else {
        const body: CodeRequest = { email: address, redirect, ...extra };
        await http<MessageResponse>('/api/auth/email', { method: 'POST', body });
        setCode('');
        setPhase('code');
      }
    } catch (err) {
      setPhase('idle');
      problems(err);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    void send('link');
  };

  const submitCode = async (e: FormEvent) => {
    e.preventDefault();
    setCodeError(null);
    if (!CODE_PATTERN.test(code)) {
      setCodeError(t('signIn.codeFormat'));
      return;
    }
    setVerifying(true);
    try {
      // Signed in; the page shows what was recorded (the runtime's activity store).
      await verifyCode(email.trim(), code);
    } catch (err) {
      setCodeError(isHttpError(err) && err.status === 401 ? t('signIn.codeWrong') : t('error.unknown', { ns: 'runtime' }));
    } finally {
      setVerifying(false);
    }
  };

  const startOver = () => {
    setPhase('idle');
    setCode('');
    setCodeError(null);
  };

  if (phase === 'sent') {
    return (
      <section className="card" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
          {t('signIn.checkInbox')}
        </h2>
        <p role="status">{t('signIn.sent')}</p>
        <button type="button" className="btn-link" onClick={startOver}>
          {t('signIn.another')}
        </button>
      </section>
    );
  }

  if (phase === 'code') {
    return (
      <section className="card" aria-labelledby={`${id}-title`}>
        <h2 id={`${id}-title`} ref={heading} tabIndex={-1}>
          {t('signIn.codeTitle')}
        </h2>
        <p role="status">
          <BdiTrans ns="stores" k="signIn.codeSent" values={{ email: email.trim() }} />
        </p>
        <form onSubmit={submitCode} noValidate>
          <CodeField id={`${id}-code`} label={t('signIn.codeLabel')} error={codeError ?? undefined} value={code} onDigits={setCode} />
          <button type="submit" className="btn" disabled={verifying}>
            {verifying ? t('signIn.verifying') : t('signIn.codeSubmit')}
          </button>
        </form>
        <p>
          <button type="button" className="btn-link" onClick={startOver}>
            {t('signIn.another')}
          </button>
        </p>
      </section>
    );
  }

  return (
    <section className="card" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p className="muted">{intro}</p>
      <form onSubmit={submit} noValidate>
        {children}
        <div className="field">
          <label htmlFor={`${id}-email`}>{t('signIn.email')}</label>
          <input
            ref={emailField}
            id={`${id}-email`}
            name="email"
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            dir="ltr"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-email-error`}
          />
          <FieldError id={`${id}-email-error`} message={error} />
        </div>
        <FieldError id={`${id}-form-error`} message={formError} />
        <button type="submit" className="btn" disabled={phase === 'sending'}>
          {phase === 'sending' ? t('signIn.sending') : submitLabel}
        </button>
      </form>
      <p>
        <button type="button" className="btn-link" onClick={() => void send('code')} disabled={phase === 'sending'}>
          {t('signIn.codeInstead')}
        </button>
      </p>
    </section>
  );
}
