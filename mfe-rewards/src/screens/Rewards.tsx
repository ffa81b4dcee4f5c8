import { useTranslation } from 'react-i18next';
import { RemoteParcel } from '@portal/runtime';
import { OfflineNote } from '@portal/kit/offline-data';
import { Catalogue } from '../features/catalogue/components/Catalogue';
import { MyRewards } from '../features/rewards/components/MyRewards';
import { PointsHistory } from '../features/points/components/PointsHistory';
import { PointsSummary } from '../features/points/components/PointsSummary';
import { useBalances } from '../features/points/hooks/use-points';

// The frequent-flyer section is mfe-qff's, mounted by the shell through the runtime (never imported).
const QFF_REMOTE = 'mfe_qff';
const QFF_PROPS = { view: 'full' };

/**
 * /rewards: points, tier and expiry; the member's rewards; the catalogue; Qantas Frequent Flyer
 * (link, convert points; mfe-qff); the points history.
 */
export function Rewards() {
  const { t } = useTranslation();
  const balances = useBalances();
  const balance = balances.data?.data.points;
  return (
    <section className="page rewards-page" aria-labelledby="rewards-title">
      <h1 id="rewards-title" className="page-title">
        {t('rewards.title')}
      </h1>
      <OfflineNote updatedAt={balances.dataUpdatedAt} />
      <PointsSummary />
      <MyRewards />
      <Catalogue balance={balance} />
      <RemoteParcel remote={QFF_REMOTE} props={QFF_PROPS} label={t('qff.title')} className="rewards-qff" />
      <PointsHistory />
    </section>
  );
}
