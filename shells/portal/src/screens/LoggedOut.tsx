import { useTranslation } from 'react-i18next';
import { Link, logoutLogoUrl, useConfig } from '@portal/runtime';
import { StatusScreen } from './StatusScreen';

export function LoggedOut() {
  const { t } = useTranslation('shell');
  const { config } = useConfig();
  return (
    <StatusScreen title={t('loggedOut.title')}>
      <img className="status-screen__logo" src={logoutLogoUrl(config)} alt="" width="112" height="32" />
      <p>{t('loggedOut.text')}</p>
      <Link className="btn" href="/">
        {t('loggedOut.action')}
      </Link>
    </StatusScreen>
  );
}
