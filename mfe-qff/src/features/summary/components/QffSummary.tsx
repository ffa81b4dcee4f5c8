import { useTranslation } from 'react-i18next';
import { Bdi, ErrorState, Link, Loading, TAB_CLICK_EVENTS, track } from '@portal/runtime';
import { useCachedQffStatus } from '../../shared/hooks/use-cached-qff-status';
import { formatNumber } from '@portal/kit/format';

const toRewards = () => track(TAB_CLICK_EVENTS['/rewards']);

/**
 * /home's frequent-flyer card: the number and the airline balance when linked (or why the balance
 * can't be read just now); otherwise a link to Rewards, where the account is linked.
 */
export function QffSummary() {
  const { t, i18n } = useTranslation();
  const query = useCachedQffStatus();
  let body;
  if (query.status === 'pending') body = <Loading />;
  else if (query.status === 'error') body = <ErrorState error={query.error} onRetry={query.refetch} />;
  else if (query.data.linked) {
    const { qff_number, points, partner_error } = query.data;
    body = (
      <>
        <dl className="dl">
          <dt>{t('qff.number')}</dt>
          <dd>
            <span dir="ltr" translate="no">
              {qff_number}
            </span>
          </dd>
          <dt>{t('qff.points')}</dt>
          <dd>
            {points === null || points === undefined ? (
              <Bdi>{partner_error ?? t('qff.unknown')}</Bdi>
            ) : (
              <strong className="amount">{formatNumber(points, i18n.language)}</strong>
            )}
          </dd>
        </dl>
        <p className="qff-summary__more">
          <Link href="/rewards" onClick={toRewards}>
            {t('qff.manage')}
          </Link>
        </p>
      </>
    );
  } else {
    body = (
      <p>
        <Link href="/rewards" onClick={toRewards}>
          {t('qff.link')}
        </Link>
      </p>
    );
  }
  return (
    <section className="card qff-summary" aria-labelledby="qff-summary-title">
      <h2 id="qff-summary-title">{t('qff.title')}</h2>
      {body}
    </section>
  );
}
