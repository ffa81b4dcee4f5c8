import { useTranslation } from 'react-i18next';
import { Link, logoutLogoUrl, useAuth, useConfig } from '@portal/runtime';
import { StatusScreen } from './StatusScreen';

/** The spec's words for the member's own sign-out; its own words when another device ended the
 * session, and when its time ran out, what was not saved is said to be lost. */
const TEXTS = {
  own: ['loggedOut.title', 'loggedOut.text'],
  elsewhere: ['loggedOut.elsewhereTitle', 'loggedOut.elsewhereText'],
  expired: ['loggedOut.title', 'loggedOut.expiredText'],
} as const;

export function LoggedOut() {
  const { t } = useTranslation('shell');
  const { config } = useConfig();
  const { ended } = useAuth();
  const [title, text] = TEXTS[ended ?? 'own'];
  return (
    <StatusScreen title={t(title)}>
      <img className="status-screen__logo" src={logoutLogoUrl(config)} alt="" width="32" height="32" />
      <p>{t(text)}</p>
      <Link className="btn" href="/">
        {t('loggedOut.action')}
      </Link>
    </StatusScreen>
  );
}
