import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation } from '@tanstack/react-query';
import { BdiTrans, addToast, isHttpError, logout, postNativeAction, track } from '@portal/runtime';
import { CODE_PATTERN, CodeField, SubmitButton } from '@portal/kit/fields';
import { WriteButton } from '@portal/kit/offline';
import { useServerErrors } from '../../../lib/form';
import { deleteAccount, sendDeleteCode } from '../api/privacy';

/**
 * Delete my account, confirmed with a fresh emailed code: POST /api/privacy/delete/code, then
 * POST /api/privacy/delete with it. A wrong code is shown on its field and nothing else happens.
 * Once the server has erased the account, `deleteMyAccount` goes to the native wrapper (when there
 * is one and it offers it) and the member is logged out to the Logged out screen.
 */
export function DeleteAccount() {
  const { t } = useTranslation();
  const id = useId();
  const codeId = `${id}-code`;
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [sends, setSends] = useState(0);
  const [code, setCode] = useState('');
  const [formatError, setFormatError] = useState<string | null>(null);
  const [formatRefusals, setFormatRefusals] = useState(0);
  const { ref, errors, fromError, clear } = useServerErrors<HTMLFormElement>();
  const done = useRef(false);

  const send = useMutation({
    mutationFn: () => sendDeleteCode(),
    onSuccess: (answer) => {
      setSentTo(answer.email);
      setSends((n) => n + 1);
      setCode('');
      setFormatError(null);
      clear();
    },
    onError: (err) => {
      if (isHttpError(err) && (err.status === 403 || err.status === 401)) return;
      const text = isHttpError(err) && err.status === 429 ? t('privacy.delete.tooMany') : t('privacy.delete.sendFailed');
      addToast({ type: 'error', text, timeout: 5000 });
    },
  });

  const remove = useMutation({
    mutationFn: (value: string) => deleteAccount(value),
    onSuccess: () => {
      done.current = true;
      track('my_details_delete_account');
      // The account is gone on the server whatever happens next; the app (if any) is told so.
      postNativeAction('deleteMyAccount');
      addToast({ type: 'success', text: t('privacy.delete.done') });
      void logout();
    },
    onError: (err) => {
      // A wrong or expired code: shown on the field (focused), nothing else.
      if (fromError(err)) return;
      if (isHttpError(err) && (err.status === 403 || err.status === 401)) return;
      const text = isHttpError(err) && err.status === 429 ? t('privacy.delete.tooMany') : t('privacy.delete.failed');
      addToast({ type: 'error', text, timeout: 5000 });
    },
  });

  // Once a code is on its way the focus goes to its field (also after "Send a new code").
  useEffect(() => {
    if (sends) document.getElementById(codeId)?.focus();
  }, [sends, codeId]);
  useEffect(() => {
    if (formatRefusals) document.getElementById(codeId)?.focus();
  }, [formatRefusals, codeId]);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (remove.isPending || done.current) return;
    clear();
    if (!CODE_PATTERN.test(code)) {
      setFormatError(t('privacy.delete.codeFormat'));
      setFormatRefusals((n) => n + 1);
      return;
    }
    setFormatError(null);
    remove.mutate(code);
  };

  return (
    <section className="card privacy-section privacy-delete" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t('privacy.delete.title')}</h2>
      <p>{t('privacy.delete.intro')}</p>
      <ul className="privacy-delete__what">
        <li>{t('privacy.delete.erased')}</li>
        <li>{t('privacy.delete.ledger')}</li>
        <li>{t('privacy.delete.lost')}</li>
        <li>
          <strong>{t('privacy.delete.final')}</strong>
        </li>
      </ul>
      <p>{t('privacy.delete.codeIntro')}</p>
      <p role="status" className="privacy-status">
        {sentTo && <BdiTrans k={sends > 1 ? 'privacy.delete.resent' : 'privacy.delete.sent'} values={{ email: sentTo }} />}
      </p>
      {sentTo === null ? (
        <WriteButton
          type="button"
          className="btn btn-secondary"
          aria-busy={send.isPending || undefined}
          onClick={() => !send.isPending && send.mutate()}
        >
          {send.isPending ? t('privacy.delete.sending') : t('privacy.delete.sendCode')}
        </WriteButton>
      ) : (
        <form ref={ref} onSubmit={submit} noValidate aria-labelledby={`${id}-title`} className="privacy-delete__form">
          <CodeField
            id={codeId}
            label={t('privacy.delete.codeLabel')}
            error={formatError ?? errors.code}
            value={code}
            onDigits={setCode}
            className="privacy-delete__code"
          />
          <div className="privacy-delete__actions">
            <SubmitButton
              busy={remove.isPending || done.current}
              label={t('privacy.delete.confirm')}
              busyLabel={t('privacy.delete.deleting')}
              className="btn btn-danger"
            />
            <WriteButton
              type="button"
              className="btn-link"
              aria-busy={send.isPending || undefined}
              onClick={() => !send.isPending && send.mutate()}
            >
              {t('privacy.delete.resend')}
            </WriteButton>
          </div>
        </form>
      )}
    </section>
  );
}
