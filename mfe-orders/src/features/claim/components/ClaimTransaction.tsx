import { useTranslation } from 'react-i18next';
import { useConfig } from '@portal/runtime';
import { claimWindowDays } from '../api/claims';
import { ClaimForm } from './ClaimForm';
import { ClaimsList } from './ClaimsList';

/** /claim-transaction — claim a purchase missing from My Orders; the member's claims below. */
export function ClaimTransaction() {
  const { t } = useTranslation();
  const { config } = useConfig();
  return (
    <section className="page" aria-labelledby="claim-title">
      <h1 id="claim-title" className="page-title">
        {t('claim.title')}
      </h1>
      <p className="lead">{t('claim.intro', { days: claimWindowDays(config) })}</p>
      <ClaimForm />
      <ClaimsList />
    </section>
  );
}
