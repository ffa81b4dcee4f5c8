import { useTranslation } from 'react-i18next';
import { Bdi, ErrorState, Link, Loading } from '@portal/runtime';
import { useBalances, useRewards } from '../hooks/use-rewards';
import { formatDate, formatNumber } from '../../../utils/format';

function Balance() {
  const { t, i18n } = useTranslation();
  const query = useBalances();
  if (query.isPending) return <Loading />;
  if (query.isError) return <ErrorState error={query.error} onRetry={() => void query.refetch()} />;
  return (
    <div className="card">
      <h2>{t('rewards.balance')}</h2>
      <p style={{ fontSize: 'var(--font-size-xl)', margin: 0 }}>
        <strong>{t('rewards.points', { points: formatNumber(query.data.data.points, i18n.language) })}</strong>
      </p>
    </div>
  );
}

/** /rewards — points balance and the member's rewards. */
export function Rewards() {
  const { t, i18n } = useTranslation();
  const query = useRewards();
  return (
    <section className="page" aria-labelledby="rewards-title">
      <h1 id="rewards-title" className="page-title">
        {t('rewards.title')}
      </h1>
      <Balance />
      <section className="card" aria-labelledby="rewards-list-title">
        <h2 id="rewards-list-title">{t('rewards.yourRewards')}</h2>
        {query.isPending ? (
          <Loading />
        ) : query.isError ? (
          <ErrorState error={query.error} onRetry={() => void query.refetch()} />
        ) : query.data.data.length === 0 ? (
          <p className="muted">{t('rewards.empty')}</p>
        ) : (
          <ul className="list">
            {query.data.data.map((reward) => {
              const expires = formatDate(reward.expires_at, i18n.language);
              return (
                <li key={reward.id}>
                  <div className="row">
                    <Link href={`/rewards/item/${reward.id}`}>
                      <strong>
                        <Bdi>{reward.name}</Bdi>
                      </strong>
                    </Link>
                    <span className="amount">
                      {t('rewards.points', { points: formatNumber(reward.points_cost, i18n.language) })}
                    </span>
                  </div>
                  {expires && <span className="muted">{t('rewards.expires', { date: expires })}</span>}
                </li>
              );
            })}
          </ul>
        )}
      </section>
    </section>
  );
}
