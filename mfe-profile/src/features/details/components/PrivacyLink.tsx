import { useTranslation } from 'react-i18next';
import { Link } from '@portal/runtime';

/** My Details: the way to the privacy centre (/profile/privacy), which lives under it. */
export function PrivacyLink() {
  const { t } = useTranslation();
  return (
    <section className="card" aria-labelledby="privacy-link-title">
      <h2 id="privacy-link-title">{t('privacy.title')}</h2>
      <p>{t('privacy.linkIntro')}</p>
      <Link href="/profile/privacy" className="btn btn-secondary">
        {t('privacy.open')}
      </Link>
    </section>
  );
}
