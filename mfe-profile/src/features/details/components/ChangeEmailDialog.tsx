import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Bdi, BdiTrans, UNKNOWN_ERROR, addToast, isHttpError, signInAgain, useOnline } from '@portal/runtime';
import { Dialog } from '@portal/kit/dialog';
import { CODE_PATTERN, CodeField, SubmitButton, TextField } from '@portal/kit/fields';
import { WriteButton } from '@portal/kit/offline';
import type { EmailChanged } from '../api/email-change';
import { useConfirmEmailChange, useStartEmailChange } from '../hooks/use-email-change';

/** What an email address must look like before it is sent (the server has the last word). */
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Step = 'email' | 'code' | 'done';

/** A refusal that is not about one field, shown as an alert in the dialog. */
type Problem =
  /** 403 `errors.session: 'reauthenticate'`: the sign-in is too old; "Sign in again" comes back here. */
  | { kind: 'signIn'; message: string }
  /** 403 otherwise (changes locked after an undo): nothing to try here. */
  | { kind: 'final'; message: string }
  /** 429 on the code: too many wrong codes, a new code is needed. */
  | { kind: 'newCode'; message: string }
  /** 429 on sending, a server fault or no answer: the same step may be tried again. */
  | { kind: 'retry'; message: string };

/**
 * Changing the sign-in address, in steps: the new address (a code is sent to it), the 6-digit
 * code, then the change made (the other devices signed out). Nothing changes until the code is
 * confirmed. Field refusals are shown on their field, which takes the focus; the other refusals
 * are an alert in the dialog. The server's words are shown on an English page, this catalog's
 * otherwise.
 */
export function ChangeEmailDialog({ current, opener, onClose }: { current: string; opener: HTMLElement | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const start = useStartEmailChange();
  const confirm = useConfirmEmailChange();
  const [step, setStep] = useState<Step>('email');
  const [address, setAddress] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState('');
  const [sends, setSends] = useState(0);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [changed, setChanged] = useState<EmailChanged | null>(null);
  // Each refusal or new code moves the focus once (a counter: the same message twice still does).
  const [focusOn, setFocusOn] = useState<{ target: 'email' | 'code' | 'resend' | 'title' | 'signIn' | 'close'; n: number } | null>(null);
  const inFlight = useRef(false);
  // Offline nothing is sent, not even with Enter (the buttons say why they are off).
  const online = useOnline();
  const emailId = `${id}-email`;
  const codeId = `${id}-code`;
  const titleId = `${id}-title`;

  useEffect(() => {
    if (!focusOn) return;
    const target = { email: emailId, code: codeId, resend: `${id}-resend`, title: titleId, signIn: `${id}-sign-in`, close: `${id}-close` }[
      focusOn.target
    ];
    document.getElementById(target)?.focus();
  }, [focusOn, emailId, codeId, titleId, id]);
  const focus = (target: NonNullable<typeof focusOn>['target']) => setFocusOn((f) => ({ target, n: (f?.n ?? 0) + 1 }));

  /** The server's sentence on an English page, this catalog's `key` otherwise. */
  const say = (server: string | undefined, key: string) => (i18n.language === 'en' && server && server !== UNKNOWN_ERROR ? server : t(key));

  /** A refusal of either step (a 401 is the runtime's: the session is over). */
  const refused = (err: unknown, stage: 'send' | 'confirm'): void => {
    if (!isHttpError(err)) {
      setProblem({ kind: 'retry', message: t(stage === 'send' ? 'emailChange.sendFailed' : 'emailChange.confirmFailed') });
      return;
    }
    if (err.status === 401) return;
    if (err.status === 403 && err.errors.session === 'reauthenticate') {
      setProblem({ kind: 'signIn', message: say(err.message, 'emailChange.reauthenticate') });
      focus('signIn');
      return;
    }
    if (err.status === 403) {
      setProblem({ kind: 'final', message: say(err.message, 'emailChange.locked') });
      focus('close');
      return;
    }
    if (err.status === 422 && err.errors.code) {
      setCodeError(say(err.errors.code, 'errors.code'));
      focus('code');
      return;
    }
    if (err.status === 422 && err.errors.email) {
      // Before a code: not an address, or already theirs. After: taken meanwhile.
      setEmailError(say(err.errors.email, stage === 'send' ? 'errors.email' : 'errors.emailTaken'));
      setStep('email');
      focus('email');
      return;
    }
    if (err.status === 429 && stage === 'confirm') {
      setCode('');
      setProblem({ kind: 'newCode', message: t('emailChange.tooManyCodes') });
      focus('resend');
      return;
    }
    if (err.status === 429) {
      setProblem({ kind: 'retry', message: t('emailChange.tooMany') });
      return;
    }
    setProblem({ kind: 'retry', message: t(stage === 'send' ? 'emailChange.sendFailed' : 'emailChange.confirmFailed') });
  };

  const send = () => {
    if (inFlight.current || !online) return;
    const next = address.trim();
    setProblem(null);
    setEmailError(null);
    setCodeError(null);
    if (!EMAIL_SHAPE.test(next) || next.toLowerCase() === current.toLowerCase()) {
      setEmailError(t(EMAIL_SHAPE.test(next) ? 'emailChange.same' : 'errors.email'));
      setStep('email');
      focus('email');
      return;
    }
    inFlight.current = true;
    start.mutate(next, {
      onSuccess: (answer) => {
        setSentTo(answer.email);
        setSends((n) => n + 1);
        setCode('');
        setStep('code');
        focus('code');
      },
      onError: (err) => refused(err, 'send'),
      onSettled: () => {
        inFlight.current = false;
      },
    });
  };

  const submitEmail = (e: FormEvent) => {
    e.preventDefault();
    send();
  };

  const submitCode = (e: FormEvent) => {
    e.preventDefault();
    if (inFlight.current || !online || problem?.kind === 'newCode') return;
    setProblem(null);
    if (!CODE_PATTERN.test(code)) {
      setCodeError(t('emailChange.codeFormat'));
      focus('code');
      return;
    }
    setCodeError(null);
    inFlight.current = true;
    confirm.mutate(code, {
      onSuccess: (answer) => {
        setChanged(answer);
        setStep('done');
        focus('title');
        addToast({ type: 'success', text: t('emailChange.toast') });
      },
      onError: (err) => refused(err, 'confirm'),
      onSettled: () => {
        inFlight.current = false;
      },
    });
  };

  const final = problem?.kind === 'final';
  const alert = problem && (
    <div className="email-dialog__problem" role="alert">
      <p>{problem.message}</p>
    </div>
  );
  const closeButton = (label: string) => (
    <button type="button" id={`${id}-close`} className="btn btn-secondary" onClick={onClose}>
      {label}
    </button>
  );
  const primary = (submit: ReactNode) =>
    problem?.kind === 'signIn' ? (
      <button type="button" id={`${id}-sign-in`} className="btn" onClick={() => void signInAgain()}>
        {t('emailChange.signIn')}
      </button>
    ) : final ? null : (
      submit
    );

  if (step === 'done' && changed) {
    return (
      <Dialog labelledBy={titleId} describedBy={`${id}-text`} onClose={onClose} returnFocus={opener} className="email-dialog">
        <h2 id={titleId} tabIndex={-1}>
          {t('emailChange.doneTitle')}
        </h2>
        <div id={`${id}-text`}>
          <p>{t('emailChange.doneText')}</p>
          <p className="email-dialog__address">
            <Bdi>{changed.email}</Bdi>
          </p>
          <p>{t(changed.signed_out > 0 ? 'emailChange.othersSignedOut' : 'emailChange.noOthers')}</p>
        </div>
        <div className="dialog__actions">
          <button type="button" className="btn" onClick={onClose}>
            {t('emailChange.done')}
          </button>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog labelledBy={titleId} describedBy={`${id}-text`} onClose={onClose} returnFocus={opener} className="email-dialog">
      {step === 'email' ? (
        <form onSubmit={submitEmail} noValidate>
          <h2 id={titleId} tabIndex={-1}>
            {t('emailChange.title')}
          </h2>
          <p id={`${id}-text`}>{t('emailChange.intro')}</p>
          <p className="muted email-dialog__current">
            <BdiTrans k="emailChange.current" values={{ email: current }} />
          </p>
          <TextField
            id={emailId}
            label={t('emailChange.newLabel')}
            error={emailError ?? undefined}
            type="email"
            inputMode="email"
            autoComplete="email"
            dir="ltr"
            value={address}
            onChange={(e) => setAddress(e.target.value)}
            data-autofocus
          />
          {alert}
          <div className="dialog__actions">
            {closeButton(final || problem?.kind === 'signIn' ? t('emailChange.close') : t('emailChange.cancel'))}
            {primary(<SubmitButton busy={start.isPending} label={t('emailChange.send')} busyLabel={t('emailChange.sending')} />)}
          </div>
        </form>
      ) : (
        <form onSubmit={submitCode} noValidate>
          <h2 id={titleId} tabIndex={-1}>
            {t('emailChange.codeTitle')}
          </h2>
          <p id={`${id}-text`}>{t('emailChange.codeIntro')}</p>
          <CodeField
            id={codeId}
            label={t('emailChange.codeLabel')}
            hint={<BdiTrans k={sends > 1 ? 'emailChange.resent' : 'emailChange.sent'} values={{ email: sentTo }} />}
            error={codeError ?? undefined}
            value={code}
            onDigits={setCode}
            className="email-dialog__code"
          />
          {alert}
          <div className="dialog__actions">
            {closeButton(final || problem?.kind === 'signIn' ? t('emailChange.close') : t('emailChange.cancel'))}
            {problem?.kind !== 'newCode' &&
              primary(<SubmitButton busy={confirm.isPending} label={t('emailChange.confirm')} busyLabel={t('emailChange.confirming')} />)}
          </div>
          {!final && problem?.kind !== 'signIn' && (
            <p className="email-dialog__more">
              <WriteButton id={`${id}-resend`} className="btn-link" aria-busy={start.isPending || undefined} onClick={send}>
                {t('emailChange.resend')}
              </WriteButton>
              <button
                type="button"
                className="btn-link"
                onClick={() => {
                  setProblem(null);
                  setCodeError(null);
                  setStep('email');
                  focus('email');
                }}
              >
                {t('emailChange.otherAddress')}
              </button>
            </p>
          )}
        </form>
      )}
    </Dialog>
  );
}
