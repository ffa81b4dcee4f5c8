import { useTranslation } from 'react-i18next';
import { BdiTrans, isHttpError, type TierProgress } from '@portal/runtime';
import { NoData } from '@portal/kit/offline-data';
import { formatCents } from '@portal/runtime/currency';
import { Icon } from '../../../components/Icon';
import { formatDate, formatDay, formatNumber, useTimeZone } from '../../../lib/format';
import { useBalances, useExpiring, useTierProgress } from '../hooks/use-points';
import { contentText } from '@portal/kit/content';

function Balance() {
  const { t, i18n } = useTranslation();
  const query = useBalances();
  if (!query.data) return <NoData query={query} />;
  const points = query.data.data.points;
  return (
    <div className="balance">
      <p className="balance__label">{t('points.balance')}</p>
      <p className="balance__value">{t('points.amount', { count: points, points: formatNumber(points, i18n.language) })}</p>
    </div>
  );
}

/** "1,951 points to Platinum", or for tiers measured by spend (cents) "$19.51 to Platinum". */
function toNextText(progress: TierProgress, t: (key: string, options?: Record<string, unknown>) => string, lang: string): string {
  const tier = progress.next ? contentText(progress.next, 'name', lang) : '';
  if (progress.measure === 'spend') return t('tier.toNextSpend', { amount: formatCents(progress.needed), tier });
  return t('tier.toNextPoints', { count: progress.needed, points: formatNumber(progress.needed, lang), tier });
}

function Tier() {
  const { t, i18n } = useTranslation();
  const zone = useTimeZone();
  const query = useTierProgress();
  // A tenant without tiers (404) has no tier to show; other failures can be retried.
  if (!query.data) return query.isError && isHttpError(query.error) && query.error.status === 404 ? null : <NoData query={query} />;
  const progress = query.data.data;
  if (!progress?.current) return null;
  const lang = i18n.language;
  const until = formatDate(progress.kept_until, lang, zone);
  const percent = Math.min(100, Math.max(0, Math.round(progress.progress_percent || 0)));
  const spend = progress.measure === 'spend';
  const next = progress.next;
  const toNext = next ? toNextText(progress, t, lang) : '';
  const current = contentText(progress.current, 'name', lang);
  return (
    <div className="tier">
      <p className="tier__current">
        <Icon name="star" />
        <strong>
          {until ? (
            <BdiTrans k="tier.until" values={{ tier: current, date: until }} />
          ) : (
            <BdiTrans k="tier.current" values={{ tier: current }} />
          )}
        </strong>
      </p>
      {next ? (
        <>
          <div
            className="tier__bar"
            role="progressbar"
            aria-label={t('tier.progressLabel', { tier: contentText(next, 'name', lang) })}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={percent}
            aria-valuetext={toNext}
          >
            <span className="tier__fill" style={{ inlineSize: `${percent}%` }} />
          </div>
          <p className="tier__next">{toNext}</p>
        </>
      ) : (
        <p className="tier__next">{t('tier.top')}</p>
      )}
      {progress.window_days > 0 && (
        <p className="muted tier__window">{t(spend ? 'tier.windowSpend' : 'tier.windowPoints', { count: progress.window_days })}</p>
      )}
    </div>
  );
}

function Expiring() {
  const { t, i18n } = useTranslation();
  const query = useExpiring();
  let body;
  if (!query.data) body = <NoData query={query} />;
  else if (query.data.data.length === 0) body = <p className="muted expiring__none">{t('expiring.none')}</p>;
  else
    body = (
      <ul className="expiring__list">
        {query.data.data.map((e) => (
          <li key={e.date}>
            <Icon name="clock" />
            <span>
              {t('expiring.line', {
                count: e.points,
                points: formatNumber(e.points, i18n.language),
                date: formatDay(e.date, i18n.language),
              })}
            </span>
          </li>
        ))}
      </ul>
    );
  return (
    <section className="expiring" aria-labelledby="expiring-title">
      <h3 id="expiring-title">{t('expiring.heading')}</h3>
      {body}
    </section>
  );
}

/** The points balance (big), the tier with its progress to the next one, and the points expiring next. */
export function PointsSummary() {
  const { t } = useTranslation();
  return (
    <section className="card points-summary" aria-labelledby="points-title">
      <h2 id="points-title" className="visually-hidden">
        {t('points.heading')}
      </h2>
      <div className="points-summary__grid">
        <Balance />
        <Tier />
      </div>
      <Expiring />
    </section>
  );
}
