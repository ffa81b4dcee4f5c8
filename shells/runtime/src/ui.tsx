import { useTranslation } from 'react-i18next';
import { isHttpError } from './http';

/** Loading placeholder announced to screen readers. */
export function Loading({ label }: { label?: string }) {
  const { t } = useTranslation('runtime');
  return (
    <p className="skeleton" role="status" aria-live="polite">
      {label ?? t('loading')}
    </p>
  );
}

/**
 * A field's error, announced as it appears: the live region stays in the page (so screen
 * readers notice the message arriving) and the field points at it with `aria-describedby={id}`.
 */
export function FieldError({ id, message }: { id: string; message?: string | null }) {
  return (
    <div id={id} aria-live="assertive">
      {message && (
        <span className="field-error" role="alert">
          {message}
        </span>
      )}
    </div>
  );
}

/** Friendly error state with a retry button. */
export function ErrorState({ error, onRetry }: { error?: unknown; onRetry?: () => void }) {
  const { t } = useTranslation('runtime');
  const status = isHttpError(error) ? error.status : undefined;
  return (
    <div className="card error-state" role="alert">
      <h2>{t('error.title')}</h2>
      <p data-status={status}>{t('error.unknown')}</p>
      {onRetry && (
        <button type="button" className="btn btn-secondary" onClick={onRetry}>
          {t('error.retry')}
        </button>
      )}
    </div>
  );
}
