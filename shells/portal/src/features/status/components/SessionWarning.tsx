import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sessionWarningStore, staySignedIn, useStore } from '@portal/runtime';

/** At the top, where a phone's keyboard does not hide it. */
const AT_TOP = { top: 'var(--space-3)', bottom: 'auto' } as const;

/**
 * Two minutes before the session ends (the runtime's `sessionWarningStore`): a note that says so
 * without taking the focus from what the member is typing (a polite live region, not a dialog).
 * When the idle limit ends it, "Stay signed in" renews it; the absolute end cannot be renewed, so
 * the note asks to save what is being written.
 */
export function SessionWarning() {
  const { t } = useTranslation('runtime');
  const { warning } = useStore(sessionWarningStore);
  const [busy, setBusy] = useState(false);
  const id = useId();
  if (!warning) return null;
  const stay = () => {
    setBusy(true);
    staySignedIn()
      .catch(() => undefined)
      .finally(() => setBusy(false));
  };
  return (
    <section className="toasts session-warning" style={AT_TOP} aria-labelledby={`${id}-title`}>
      <div className="toast toast--warning">
        <div className="toast__body" role="status">
          <strong id={`${id}-title`}>{t('session.endsSoon')}</strong>
          <div>{t(warning.renewable ? 'session.endsSoonIdle' : 'session.endsSoonFinal')}</div>
        </div>
        {warning.renewable && (
          <button type="button" className="btn btn-small" onClick={stay} aria-busy={busy || undefined} disabled={busy}>
            {t('session.staySignedIn')}
          </button>
        )}
      </div>
    </section>
  );
}
