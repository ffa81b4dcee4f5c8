import { useTranslation } from 'react-i18next';
import { Bdi, type Claim } from '@portal/runtime';
import { NoData } from '@portal/kit/offline-data';
import { formatCents } from '@portal/runtime/currency';
import { Icon, type IconName } from '../../../components/Icon';
import { formatDate, formatNumber } from '../../../lib/dates';
import { useClaims } from '../hooks/use-claims';

const STATUS_ICONS: Record<string, IconName> = { credited: 'check', pending: 'clock', rejected: 'cross' };

/** A claim's status in words, with an icon and a shape of its own (never colour alone). */
export function ClaimStatus({ status }: { status: string }) {
  const { t } = useTranslation();
  const known = STATUS_ICONS[status] ? status : 'pending';
  return (
    <span className={`status status--${known}`}>
      <Icon name={STATUS_ICONS[known]} />
      {t(`claims.status.${known}`)}
    </span>
  );
}

function ClaimRow({ claim }: { claim: Claim }) {
  const { t, i18n } = useTranslation();
  const points =
    claim.status === 'credited'
      ? formatNumber(claim.points, i18n.language)
      : claim.status === 'rejected'
        ? t('claims.pointsNone')
        : t('claims.pointsPending');
  return (
    <li className="claim">
      <div className="row claim__head">
        <strong>
          <Bdi>{claim.store_name || claim.store}</Bdi>
        </strong>
        <span>
          <span className="visually-hidden">{t('claims.status.label')}: </span>
          <ClaimStatus status={claim.status} />
        </span>
      </div>
      <dl className="claim__details">
        <div>
          <dt>{t('claims.date')}</dt>
          <dd>{formatDate(claim.date, i18n.language)}</dd>
        </div>
        <div>
          <dt>{t('claims.receipt')}</dt>
          <dd>
            <Bdi>{claim.receipt_number}</Bdi>
          </dd>
        </div>
        <div>
          <dt>{t('claims.amount')}</dt>
          <dd className="amount">
            <Bdi>{formatCents(claim.amount_cents)}</Bdi>
          </dd>
        </div>
        <div>
          <dt>{t('claims.points')}</dt>
          <dd>{points}</dd>
        </div>
      </dl>
      {claim.status === 'rejected' && (
        <p className="muted claim__message">{i18n.language === 'en' && claim.message ? claim.message : t('claims.rejectedText')}</p>
      )}
    </li>
  );
}

/** The member's claims (GET /api/profile/claims), newest first. */
export function ClaimsList() {
  const { t } = useTranslation();
  const query = useClaims();
  return (
    <section className="card" aria-labelledby="claims-title">
      <h2 id="claims-title">{t('claims.title')}</h2>
      {!query.data ? (
        <NoData query={query} />
      ) : query.data.data.length === 0 ? (
        <p className="muted">{t('claims.empty')}</p>
      ) : (
        <ul className="list claims">
          {query.data.data.map((claim) => (
            <ClaimRow key={claim.id} claim={claim} />
          ))}
        </ul>
      )}
    </section>
  );
}
