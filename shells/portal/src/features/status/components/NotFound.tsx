import { useTranslation } from 'react-i18next';
import { Link } from '@portal/runtime';
import { StatusScreen } from './StatusScreen';

export function NotFound() {
  const { t } = useTranslation('shell');
  return (
    <StatusScreen title={t('notFound.title')}>
      <p>{t('notFound.text')}</p>
      <Link className="btn" href="/home">
        {t('notFound.home')}
      </Link>
    </StatusScreen>
  );
}
