import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { http, isHttpError, navigate, screenView, useAuth, useSearch, type MessageResponse } from '@portal/runtime';
import { safeRedirect } from '../mfe/routes';

type Phase = 'idle' | 'sending' | 'sent';

export function Login() {
  const { t } = useTranslation('shell');
  const auth = useAuth();
  const search = useSearch();
  const redirect = safeRedirect(new URLSearchParams(search).get('redirect'));
  const [email, setEmail] = useState('');
  const [phase, setPhase] = useState<Phase>('idle');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => screenView('Login page'), []);
  useEffect(() => {
    if (auth.authenticated) navigate(redirect, { replace: true });
  }, [auth.authenticated, redirect]);

  if (auth.loading) {
    return (
      <p role="status" className="status-screen">
        {t('login.signingIn')}
      </p>
    );
  }

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setPhase('sending');
    try {
      await http<MessageResponse>('/api/auth', { method: 'POST', body: { email: email.trim(), redirect } });
      setPhase('sent');
    } catch (err) {
      setPhase('idle');
      if (isHttpError(err) && err.errors.email) setError(t('login.invalidEmail'));
      else setError(isHttpError(err) ? err.message : t('error.unknown', { ns: 'runtime' }));
    }
  };

  if (phase === 'sent') {
    return (
      <section className="status-screen" aria-labelledby="login-title">
        <div className="card">
          <h1 id="login-title">{t('login.checkInbox')}</h1>
          <p role="status">{t('login.sent')}</p>
          <p className="muted">{t('login.sentHint')}</p>
          <button type="button" className="btn-link" onClick={() => setPhase('idle')}>
            {t('login.another')}
          </button>
        </div>
      </section>
    );
  }

  return (
    <section className="status-screen" aria-labelledby="login-title">
      <div className="card">
        <h1 id="login-title">{t('login.title')}</h1>
        <p className="lead">{t('login.intro')}</p>
        <form onSubmit={submit} noValidate>
          <div className="field" style={{ textAlign: 'start' }}>
            <label htmlFor="login-email">{t('login.email')}</label>
            <input
              id="login-email"
              name="email"
              type="email"
              autoComplete="email"
              inputMode="email"
              required
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'login-error' : undefined}
            />
            {error && (
              <span id="login-error" className="field-error" role="alert">
                {error}
              </span>
            )}
          </div>
          <button type="submit" className="btn" disabled={phase === 'sending'}>
            {phase === 'sending' ? t('login.sending') : t('login.submit')}
          </button>
        </form>
      </div>
    </section>
  );
}
