import { useTranslation } from 'react-i18next';
import { Link } from '@portal/runtime';

/** /claim-transaction — claims arrive in a later release; this page explains that. */
export function ClaimTransaction() {
  const { t } = useTranslation();
  return (
    <section className="page" aria-labelledby="claim-title">
      <h1 id="claim-title" className="page-title">
        {t('claim.title')}
      </h1>
      <div className="card">
        <p>{t('claim.text')}</p>
        <p className="muted">{t('claim.keepReceipt')}</p>
        <Link className="btn btn-secondary" href="/transactions">
          {t('claim.back')}
        </Link>
      </div>
    </section>
  );
}
