import { useTranslation } from 'react-i18next';
import { StatusScreen } from './StatusScreen';
import { retryRemotes } from '../../../mfe/status';

export function RemoteFailed() {
  const { t } = useTranslation('shell');
  return (
    <StatusScreen title={t('remote.failed')}>
      <p>{t('remote.failedText')}</p>
      <button type="button" className="btn" onClick={retryRemotes}>
        {t('remote.retry')}
      </button>
    </StatusScreen>
  );
}
