import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, forgetSession, http, isHttpError, screenView, useSearch, type MessageResponse } from '@portal/runtime';
import { WriteButton } from '@portal/kit/offline';
import { EmailChangeStrings, EMAIL_CHANGE_NS } from '../i18n/strings';

type State =
  | { phase: 'ready' | 'undoing' }
  /** Undone: the server's sentence (it names the address, masked). */
  | { phase: 'done'; message: string }
  /** 401, or no key in the address: the link can't be used. */
  | { phase: 'unusable' }
  /** 429, 5xx or no answer: nothing happened; the member may try again. */
  | { phase: 'failed'; reason: 'tooMany' | 'failed' };

/** POST /api/auth/email-change/undo (no session: the key is the credential). */
const undo = (key: string) => http<MessageResponse>('/api/auth/email-change/undo', { method: 'POST', body: { key }, token: null });

/**
 * /email-change/undo?key=… — from the notice a changed sign-in address sends to the old one. It
 * says what undoing does and waits for the member's tap (mail scanners open links). Once undone
 * the server has ended every session of the account: the one this browser holds (if any) is
 * forgotten without another call, and the member signs in again with the old address.
 */
function UndoEmailChange() {
  const { t, i18n } = useTranslation(EMAIL_CHANGE_NS);
  const key = new URLSearchParams(useSearch()).get('key')?.trim() ?? '';
  const [state, setState] = useState<State>(key ? { phase: 'ready' } : { phase: 'unusable' });
  const running = useRef(false);
  const title = useRef<HTMLHeadingElement>(null);
  const previous = useRef(state.phase);
  useEffect(() => screenView('Undo email change'), []);
  // Done or unusable: the button pressed is gone, and the focus goes to the heading that says
  // what happened. A failure keeps the button (and the focus) for another try; its alert is read.
  useEffect(() => {
    if (previous.current === 'undoing' && (state.phase === 'done' || state.phase === 'unusable')) title.current?.focus();
    previous.current = state.phase;
  }, [state.phase]);

  const send = async () => {
    if (running.current) return;
    running.current = true;
    setState({ phase: 'undoing' });
    try {
      const answer = await undo(key);
      forgetSession();
      setState({ phase: 'done', message: i18n.language === 'en' && answer?.message ? answer.message : t('done.text') });
    } catch (err) {
      if (isHttpError(err) && err.status === 401) setState({ phase: 'unusable' });
      else setState({ phase: 'failed', reason: isHttpError(err) && err.status === 429 ? 'tooMany' : 'failed' });
    } finally {
      running.current = false;
    }
  };

  const heading = (text: string) => (
    <h1 id="undo-title" ref={title} tabIndex={-1}>
      {text}
    </h1>
  );

  if (state.phase === 'done') {
    return (
      <>
        {heading(t('done.title'))}
        <p className="lead">{state.message}</p>
        <p>{t('done.next')}</p>
        <Link className="btn" href="/">
          {t('signIn')}
        </Link>
      </>
    );
  }
  if (state.phase === 'unusable') {
    return (
      <>
        {heading(t('unusable.title'))}
        <p className="lead">{t('unusable.text')}</p>
        <p>{t('unusable.next')}</p>
        <Link className="btn" href="/">
          {t('signIn')}
        </Link>
      </>
    );
  }
  const busy = state.phase === 'undoing';
  return (
    <>
      {heading(t('ready.title'))}
      <p className="lead">{t('ready.text')}</p>
      <ul className="undo-email__what">
        <li>{t('ready.address')}</li>
        <li>{t('ready.signedOut')}</li>
        <li>{t('ready.locked')}</li>
      </ul>
      {state.phase === 'failed' && (
        <p className="undo-email__problem" role="alert">
          {t(state.reason === 'tooMany' ? 'failed.tooMany' : 'failed.text')}
        </p>
      )}
      <WriteButton className="btn" aria-busy={busy || undefined} onClick={() => void send()}>
        {busy ? t('ready.undoing') : t('ready.undo')}
      </WriteButton>
      <p className="muted undo-email__ignore">{t('ready.ignore')}</p>
    </>
  );
}

/** The screen with its strings (their own namespace, in this chunk). */
export function EmailChangeUndo() {
  return (
    <EmailChangeStrings>
      <section className="status-screen undo-email" aria-labelledby="undo-title">
        <div className="card">
          <UndoEmailChange />
        </div>
      </section>
    </EmailChangeStrings>
  );
}
