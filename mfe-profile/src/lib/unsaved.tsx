import { useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addLeaveGuard } from '@portal/runtime';
import { Dialog } from '@portal/kit/dialog';

interface Asking {
  resolve: (go: boolean) => void;
  /** The link the member followed: the focus goes back to it when they stay. */
  opener: HTMLElement | null;
}

/**
 * While a form holds unsaved edits (`dirty`), leaving asks first: a link in the portal (the tab
 * bar, the sub-navigation, the header) or the browser's Back or Forward (held by the runtime's
 * router) opens "Leave without saving?" (focus on "Stay and keep editing", Escape stays, the focus
 * back where it was), and a reload or closing the tab gets the browser's own question
 * (`beforeunload`). Nothing is asked once the edits are saved or undone. `onLeave`: called when
 * the member chooses to leave without saving.
 */
export function UnsavedChangesGuard({ dirty, onLeave }: { dirty: boolean; onLeave?: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const [asking, setAsking] = useState<Asking | null>(null);

  useEffect(() => {
    if (!dirty) return undefined;
    const off = addLeaveGuard(
      () =>
        new Promise<boolean>((resolve) => {
          const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          setAsking({ resolve, opener });
        }),
    );
    const onUnload = (e: BeforeUnloadEvent) => {
      e.preventDefault();
      // Older browsers ask only when returnValue is set.
      e.returnValue = '';
    };
    window.addEventListener('beforeunload', onUnload);
    return () => {
      off();
      window.removeEventListener('beforeunload', onUnload);
    };
  }, [dirty]);

  // Gone while asking (the session ended, say): the link does not go.
  useEffect(() => () => asking?.resolve(false), [asking]);

  if (!asking) return null;
  const answer = (go: boolean) => {
    if (go) onLeave?.();
    asking.resolve(go);
    setAsking(null);
  };
  return (
    <Dialog labelledBy={`${id}-title`} describedBy={`${id}-text`} onClose={() => answer(false)} returnFocus={asking.opener}>
      <h2 id={`${id}-title`}>{t('unsaved.title')}</h2>
      <p id={`${id}-text`}>{t('unsaved.text')}</p>
      <div className="dialog__actions">
        <button type="button" className="btn btn-secondary" onClick={() => answer(false)} data-autofocus>
          {t('unsaved.stay')}
        </button>
        <button type="button" className="btn" onClick={() => answer(true)}>
          {t('unsaved.leave')}
        </button>
      </div>
    </Dialog>
  );
}
