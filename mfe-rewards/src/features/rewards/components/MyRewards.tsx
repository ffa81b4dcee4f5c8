import { useTranslation } from 'react-i18next';
import { Bdi, Link, type Reward } from '@portal/runtime';
import { NoData } from '@portal/kit/offline-data';
import { asOfNow } from '../../../lib/vouchers';
import { formatDate, useTimeZone } from '../../../lib/format';
import { useRewards } from '../hooks/use-rewards';
import { RewardStatus } from './RewardStatus';
import { useContentText } from '@portal/kit/content';

function RewardLine({ reward, zone }: { reward: Reward; zone: string }) {
  const { t, i18n } = useTranslation();
  const text = useContentText();
  const lang = i18n.language;
  let when: string;
  if (reward.status === 'used') when = t('rewards.usedOn', { date: formatDate(reward.used_at, lang, zone) ?? '' });
  else if (reward.status === 'expired') when = t('rewards.expiredOn', { date: formatDate(reward.expires_at, lang, zone) ?? '' });
  else {
    const expires = formatDate(reward.expires_at, lang, zone);
    when = expires ? t('rewards.useBy', { date: expires }) : t('rewards.noExpiry');
  }
  return (
    <li className={`reward reward--${reward.status}`}>
      <Link className="reward__name" href={`/rewards/item/${reward.id}`}>
        <Bdi>{text(reward, 'name')}</Bdi>
      </Link>
      <RewardStatus status={reward.status} />
      <span className="muted reward__when">{when}</span>
    </li>
  );
}

/** The member's rewards: those to use, then the used and expired ones; each opens its voucher. */
export function MyRewards() {
  const { t } = useTranslation();
  const zone = useTimeZone();
  const query = useRewards();
  let body;
  if (!query.data) body = <NoData query={query} />;
  else {
    // A list kept for offline may be days old: a voucher past its expiry is shown expired.
    const now = Date.now();
    const rewards = query.data.data.map((r) => asOfNow(r, now));
    const available = rewards.filter((r) => r.status !== 'used' && r.status !== 'expired');
    const past = rewards.filter((r) => r.status === 'used' || r.status === 'expired');
    body = (
      <>
        <section aria-labelledby="rewards-available-title">
          <h3 id="rewards-available-title">{t('rewards.available')}</h3>
          {available.length === 0 ? (
            <p className="muted">{rewards.length === 0 ? t('rewards.empty') : t('rewards.availableEmpty')}</p>
          ) : (
            <ul className="rewards">
              {available.map((r) => (
                <RewardLine key={r.id} reward={r} zone={zone} />
              ))}
            </ul>
          )}
        </section>
        {past.length > 0 && (
          <section aria-labelledby="rewards-past-title">
            <h3 id="rewards-past-title">{t('rewards.past')}</h3>
            <ul className="rewards rewards--past">
              {past.map((r) => (
                <RewardLine key={r.id} reward={r} zone={zone} />
              ))}
            </ul>
          </section>
        )}
      </>
    );
  }
  return (
    <section className="card my-rewards" aria-labelledby="my-rewards-title">
      <h2 id="my-rewards-title">{t('rewards.yourRewards')}</h2>
      {body}
    </section>
  );
}
