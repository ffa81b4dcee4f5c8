import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { track, nativeActionAvailable, postNativeAction } from '@portal/runtime';
import { Dialog } from '@portal/build/src/dialog';

/**
 * "Delete my account", only inside a native wrapper that offers deleteMyAccount: after the member
 * confirms, the app runs its own deletion flow (the portal deletes nothing itself). Staff viewing
 * an account never see it.
 */
export function DeleteAccount({ readOnly }: { readOnly: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  const [asking, setAsking] = useState(false);
  const opener = useRef<HTMLButtonElement>(null);
  if (readOnly || !nativeActionAvailable('deleteMyAccount')) return null;

  const confirm = () => {
    setAsking(false);
    track('my_details_delete_account');
    postNativeAction('deleteMyAccount');
  };

  return (
    <section className="card" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{t('deleteAccount.title')}</h2>
      <p>{t('deleteAccount.intro')}</p>
      <button ref={opener} type="button" className="btn btn-secondary" onClick={() => setAsking(true)}>
        {t('deleteAccount.button')}
      </button>
      {asking && (
        <Dialog labelledBy={`${id}-title`} describedBy={`${id}-text`} onClose={() => setAsking(false)} returnFocus={opener.current}>
          <h2 id={`${id}-title`}>{t('deleteAccount.confirmTitle')}</h2>
          <p id={`${id}-text`}>{t('deleteAccount.confirmText')}</p>
          <div className="dialog__actions">
            <button type="button" className="btn btn-secondary" onClick={() => setAsking(false)} data-autofocus>
              {t('deleteAccount.cancel')}
            </button>
            <button type="button" className="btn" onClick={confirm}>
              {t('deleteAccount.confirm')}
            </button>
          </div>
        </Dialog>
      )}
    </section>
  );
}
