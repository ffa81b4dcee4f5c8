import { useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  FieldError,
  BdiTrans,
  coverHeader,
  http,
  isHttpError,
  navigate,
  screenView,
  useAuth,
  useSearch,
  useConfig,
  useDrawn,
  useStore,
  verifyCode,
  type AuthRequest,
  type CodeRequest,
  type MessageResponse,
} from '@portal/runtime';
import { safeRedirect } from '../../../mfe/routes';
import { clearLinkFailure, linkStore } from '../../../auth-link';
import { LanguageChooser } from './LanguageChooser';
import { Register } from './Register';
import { useCooldown } from '../hooks/useCooldown';
import { EMAIL, embedFields } from '../../../lib/sign-in';

type Phase = 'idle' | 'sending' | 'sent' | 'code' | 'register';
type Channel = 'email' | 'sms';

const CODE = /^\d{6}$/;

export function Login() {
  const { t } = useTranslation('shell');
  const auth = useAuth();
  const link = useStore(linkStore);
  const search = useSearch();
  const redirect = safeRedirect(new URLSearchParams(search).get('redirect'));
  const [email, setEmail] = useState('');
  const [phase, setPhase] = useState<Phase>('idle');
  const [error, setError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const { config } = useConfig();
  const cover = coverHeader(config);
  // The tenant offers codes by text message (components.login.sms): sent to the account's phone.
  const smsOffered = (config?.components as { login?: { sms?: boolean } | null } | undefined)?.login?.sms === true;
  const [channel, setChannel] = useState<Channel>('email');
  const [registered, setRegistered] = useState(false);
  const [codeError, setCodeError] = useState<string | null>(null);
  const [verifying, setVerifying] = useState(false);
  const [resent, setResent] = useState(false);
  // After a link or code is sent, "Resend" waits (longer after the server's 429).
  const cooldown = useCooldown();
  const [resending, setResending] = useState(false);
  const [resendError, setResendError] = useState<string | null>(null);
  // Each step replaces the card, and the button that led to it: the focus goes to the new step's
  // heading (or back to the address on the first step), else a keyboard user starts over at the
  // top of the page. A refused code puts the focus back on the code field with its message.
  const title = useRef<HTMLHeadingElement>(null);
  const emailField = useRef<HTMLInputElement>(null);
  const codeField = useRef<HTMLInputElement>(null);
  const lastPhase = useRef<Phase>(phase);
  useEffect(() => {
    const from = lastPhase.current;
    lastPhase.current = phase;
    if (from === phase || phase === 'sending' || phase === 'register') return;
    if (phase === 'idle') emailField.current?.focus();
    else title.current?.focus();
  }, [phase]);
  useEffect(() => {
    if (codeError) codeField.current?.focus();
  }, [codeError]);

  // Not while drawn ahead of time: the HTML of another page may start as the login page.
  const drawn = useDrawn();
  useEffect(() => {
    if (!drawn) screenView('Login page');
  }, [drawn]);
  // The page drawn at build time shows the form before its script runs: an address typed by then
  // is taken over once hydrated (before React draws the field again from its state). Its buttons
  // wait for the script (a submit by the browser alone would only reload the page).
  useLayoutEffect(() => {
    const typed = emailField.current?.value;
    if (typed) setEmail(typed);
  }, []);
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

  /** Server answers → the message shown under the field. */
  const messageFor = (err: unknown): string => {
    if (isHttpError(err)) {
      if (err.status === 429) return t('login.tooMany');
      if (err.errors.email) return t('login.invalidEmail');
      return err.message;
    }
    return t('error.unknown', { ns: 'runtime' });
  };

  const submitLink = async (e: FormEvent) => {
    e.preventDefault();
    clearLinkFailure();
    setError(null);
    setPhase('sending');
    try {
      const body: AuthRequest = { email: email.trim(), redirect, ...embedFields() };
      await http<MessageResponse>('/api/auth', { method: 'POST', body });
      setResent(false);
      setResendError(null);
      cooldown.start();
      setPhase('sent');
    } catch (err) {
      setPhase('idle');
      setError(messageFor(err));
    }
  };

  /** After a 429 the resend waits longer; its message is shown. */
  const resendFailed = (err: unknown) => {
    if (isHttpError(err) && err.status === 429) cooldown.start(60);
    return messageFor(err);
  };

  const resendLink = async () => {
    setResendError(null);
    setResending(true);
    try {
      const body: AuthRequest = { email: email.trim(), redirect, ...embedFields() };
      await http<MessageResponse>('/api/auth', { method: 'POST', body });
      setResent(true);
      cooldown.start();
    } catch (err) {
      setResendError(resendFailed(err));
    } finally {
      setResending(false);
    }
  };

  const requestCode = async (again = false, via: Channel = channel) => {
    clearLinkFailure();
    setError(null);
    setCodeError(null);
    const address = email.trim();
    if (!EMAIL.test(address)) {
      setError(t('login.invalidEmail'));
      return;
    }
    if (!again) setPhase('sending');
    setChannel(via);
    try {
      const body: CodeRequest = { email: address, redirect };
      await http<MessageResponse>(via === 'sms' ? '/api/auth/sms' : '/api/auth/email', { method: 'POST', body });
      setCode('');
      setResent(again);
      cooldown.start();
      setPhase('code');
    } catch (err) {
      if (again) setCodeError(resendFailed(err));
      else {
        setPhase('idle');
        setError(messageFor(err));
      }
    }
  };

  const submitCode = async (e: FormEvent) => {
    e.preventDefault();
    setCodeError(null);
    if (!CODE.test(code)) {
      setCodeError(t('login.codeFormat'));
      return;
    }
    setVerifying(true);
    try {
      await verifyCode(email.trim(), code);
      // Signed in: the effect above goes to `redirect`.
    } catch (err) {
      setVerifying(false);
      if (isHttpError(err) && err.status === 401) setCodeError(t('login.codeWrong'));
      else setCodeError(messageFor(err));
    }
  };

  const startOver = () => {
    setPhase('idle');
    setCode('');
    setCodeError(null);
    setResent(false);
    setResendError(null);
    setRegistered(false);
  };

  const resendLabel = (label: string) => (cooldown.left > 0 ? t('login.resendIn', { seconds: cooldown.left }) : label);

  if (phase === 'sent') {
    return (
      <section className="status-screen" aria-labelledby="login-title">
        <div className="card">
          <h1 id="login-title" ref={title} tabIndex={-1}>
            {t('login.checkInbox')}
          </h1>
          <p role="status">{resent ? t('login.linkResent') : registered ? t('login.registered') : t('login.sent')}</p>
          <p>
            <BdiTrans ns="shell" k="login.sentTo" values={{ email: email.trim() }} />
          </p>
          <p className="muted">{t('login.sentHint')}</p>
          {resendError && (
            <p className="field-error" role="alert">
              {resendError}
            </p>
          )}
          <p>
            <button type="button" className="btn" onClick={() => void resendLink()} disabled={resending || cooldown.left > 0}>
              {resending ? t('login.sending') : resendLabel(t('login.resend'))}
            </button>
          </p>
          <button type="button" className="btn-link" onClick={startOver}>
            {t('login.another')}
          </button>
        </div>
      </section>
    );
  }

  if (phase === 'register') {
    return (
      <Register
        email={email.trim()}
        redirect={redirect}
        onCancel={startOver}
        onSent={(address) => {
          setEmail(address);
          setResent(false);
          setResendError(null);
          setRegistered(true);
          cooldown.start();
          setPhase('sent');
        }}
      />
    );
  }

  if (phase === 'code') {
    return (
      <section className="status-screen" aria-labelledby="login-title">
        <div className="card">
          <h1 id="login-title" ref={title} tabIndex={-1}>
            {t('login.codeTitle')}
          </h1>
          <p role="status">
            {resent ? (
              t('login.codeResent')
            ) : (
              <BdiTrans ns="shell" k={channel === 'sms' ? 'login.smsSent' : 'login.codeSent'} values={{ email: email.trim() }} />
            )}
          </p>
          <form onSubmit={submitCode} noValidate>
            <div className="field" style={{ textAlign: 'start' }}>
              <label htmlFor="login-code">{t('login.codeLabel')}</label>
              <input
                ref={codeField}
                id="login-code"
                name="code"
                type="text"
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9]*"
                maxLength={6}
                required
                dir="ltr"
                value={code}
                onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, 6))}
                aria-invalid={codeError ? true : undefined}
                aria-describedby="login-code-error"
              />
              <FieldError id="login-code-error" message={codeError} />
            </div>
            <button type="submit" className="btn" disabled={verifying}>
              {verifying ? t('login.verifying') : t('login.codeSubmit')}
            </button>
          </form>
          <p>
            <button type="button" className="btn-link" onClick={() => void requestCode(true)} disabled={cooldown.left > 0}>
              {resendLabel(t('login.codeResend'))}
            </button>{' '}
            <button type="button" className="btn-link" onClick={startOver}>
              {t('login.another')}
            </button>
          </p>
        </div>
      </section>
    );
  }

  return (
    <section className="status-screen" aria-labelledby="login-title">
      {cover && <img className="login-cover" src={cover.url} alt={cover.alt} />}
      <div className="card">
        <h1 id="login-title">{t('login.title')}</h1>
        {link.phase === 'failed' && (
          <p className="field-error" role="alert">
            {t('login.linkFailed')}
          </p>
        )}
        <p className="lead">{t('login.intro')}</p>
        <form onSubmit={submitLink} noValidate>
          <div className="field" style={{ textAlign: 'start' }}>
            <label htmlFor="login-email">{t('login.email')}</label>
            <input
              ref={emailField}
              id="login-email"
              name="email"
              type="email"
              autoComplete="email"
              inputMode="email"
              required
              dir="ltr"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby="login-error"
            />
            <FieldError id="login-error" message={error} />
          </div>
          <button type="submit" className="btn" disabled={drawn || phase === 'sending'}>
            {phase === 'sending' ? t('login.sending') : t('login.submit')}
          </button>
        </form>
        <p>
          <button
            type="button"
            className="btn-link"
            onClick={() => void requestCode(false, 'email')}
            disabled={drawn || phase === 'sending'}
          >
            {t('login.codeInstead')}
          </button>
          {smsOffered && (
            <>
              {' '}
              <button
                type="button"
                className="btn-link"
                onClick={() => void requestCode(false, 'sms')}
                disabled={drawn || phase === 'sending'}
              >
                {t('login.smsInstead')}
              </button>
            </>
          )}
        </p>
        <p>
          {t('login.noAccount')}{' '}
          <button type="button" className="btn-link" onClick={() => setPhase('register')} disabled={drawn || phase === 'sending'}>
            {t('login.register')}
          </button>
        </p>
        {/* After the form, so the address stays the first field a keyboard reaches. */}
        <LanguageChooser disabled={drawn} />
      </div>
    </section>
  );
}
