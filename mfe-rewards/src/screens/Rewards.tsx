import { useTranslation } from 'react-i18next';
import { Catalogue } from '../features/catalogue/components/Catalogue';
import { MyRewards } from '../features/rewards/components/MyRewards';
import { PointsHistory } from '../features/points/components/PointsHistory';
import { PointsSummary } from '../features/points/components/PointsSummary';
import { useBalances } from '../features/points/hooks/use-points';

/** /rewards: points, tier and expiry; the member's rewards; the catalogue; the points history. */
export function Rewards() {
  const { t } = useTranslation();
  const balance = useBalances().data?.data.points;
  return (
    <section className="page rewards-page" aria-labelledby="rewards-title">
      <h1 id="rewards-title" className="page-title">
        {t('rewards.title')}
      </h1>
      <PointsSummary />
      <MyRewards />
      <Catalogue balance={balance} />
      <PointsHistory />
    </section>
  );
}
