import { useTranslation } from 'react-i18next';
import { Bdi, ErrorState, Link, Loading } from '@portal/runtime';
import { useRewards } from '../hooks/use-rewards';
import { formatDate, formatNumber } from '../../../utils/format';

/** /rewards/item/{numeric id} — one reward from the rewards list. */
export function RewardDetail({ params }: { params: Record<string, string> }) {
  const { t, i18n } = useTranslation();
  const query = useRewards();
  const id = /^\d+$/.test(params.id ?? '') ? Number(params.id) : NaN;
  const reward = query.data?.data.find((r) => r.id === id);
  const back = (
    <p>
      <Link href="/rewards">{t('rewards.back')}</Link>
    </p>
  );
  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  if (!reward) {
    return (
      <section className="page" aria-labelledby="reward-title">
        <h1 id="reward-title" className="page-title">
          {t('rewards.notFound')}
        </h1>
        {back}
      </section>
    );
  }
  const issued = formatDate(reward.issued_at, i18n.language);
  const expires = formatDate(reward.expires_at, i18n.language);
  return (
    <section className="page" aria-labelledby="reward-title">
      {back}
      <h1 id="reward-title" className="page-title">
        <Bdi>{reward.name}</Bdi>
      </h1>
      <div className="card">
        {reward.description && (
          <p>
            <Bdi>{reward.description}</Bdi>
          </p>
        )}
        <dl className="dl">
          <dt>{t('rewards.cost')}</dt>
          <dd>{t('rewards.points', { points: formatNumber(reward.points_cost, i18n.language) })}</dd>
          {issued && (
            <>
              <dt>{t('rewards.issued')}</dt>
              <dd>{issued}</dd>
            </>
          )}
          {expires && (
            <>
              <dt>{t('rewards.expiry')}</dt>
              <dd>{expires}</dd>
            </>
          )}
        </dl>
      </div>
    </section>
  );
}
