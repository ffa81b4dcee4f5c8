import { useTranslation } from 'react-i18next';
import { Link } from '@portal/runtime';
import { StatusScreen } from './StatusScreen';

export function LoggedOut() {
  const { t } = useTranslation('shell');
  return (
    <StatusScreen title={t('loggedOut.title')}>
      <p>{t('loggedOut.text')}</p>
      <Link className="btn" href="/">
        {t('loggedOut.action')}
      </Link>
    </StatusScreen>
  );
}
