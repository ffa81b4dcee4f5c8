import { useTranslation } from 'react-i18next';
import { useAuth } from '@portal/runtime';
import { DeleteAccount } from './DeleteAccount';
import { DownloadData } from './DownloadData';
import { Sessions } from './Sessions';

/**
 * /profile/privacy — the privacy centre, under My Details: signed-in devices, a copy of the
 * member's data, deleting the account. Staff viewing an account see none of it (the API refuses
 * them too), and nothing is asked of the server for them.
 */
export function Privacy() {
  const { t } = useTranslation();
  const { impersonating } = useAuth();
  return (
    <section className="page privacy" aria-labelledby="privacy-title">
      <h1 id="privacy-title" className="page-title">
        {t('privacy.title')}
      </h1>
      <p className="lead">{t('privacy.intro')}</p>
      {impersonating ? (
        <p className="card notice">{t('privacy.staff')}</p>
      ) : (
        <>
          <Sessions />
          <DownloadData />
          <DeleteAccount />
        </>
      )}
    </section>
  );
}
