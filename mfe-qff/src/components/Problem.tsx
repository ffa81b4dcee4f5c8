import { useTranslation } from 'react-i18next';
import { serverSentence } from '../lib/errors';

/**
 * A failed read or write, said in words: the server's sentence when it has one for the member
 * (e.g. the partner is down: "Nothing was changed; please try again in a few minutes"), else
 * `fallback` or a general one; with a retry button when given one.
 */
export function Problem({ error, onRetry, fallback }: { error: unknown; onRetry?: () => void; fallback?: string }) {
  const { t } = useTranslation();
  return (
    <div className="qff-problem" role="alert">
      <p>{serverSentence(error) ?? fallback ?? t('problem.general')}</p>
      {onRetry && (
        <button type="button" className="btn btn-secondary" onClick={onRetry}>
          {t('problem.retry')}
        </button>
      )}
    </div>
  );
}
