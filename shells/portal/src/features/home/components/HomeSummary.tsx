// Home's answer to "how many points": the balance, the tier and the way to the next one, the next
// points to expire, the vouchers ready to use and the new offers, each a tap away. Its own chunk
// (with its strings, every language), fetched after Home's first screen is drawn; until then Home
// shows <SummarySkeleton> (in Home's own code), whose rows have the same heights as these, so
// nothing below moves. Every row is one line (a long text ends in "…"), whatever the language or
// the data, and the section keeps one height in every state (loading, empty, failed, offline).
// Offline it shows the summary last read on this device, with when; a staff view reads the same
// (nothing here writes).
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BdiTrans, Link, track, useAuth, useOnline, TAB_CLICK_EVENTS } from '@portal/runtime';
import { createMfeStrings } from '@portal/kit/mfe-strings';
import { formatNumber } from '@portal/kit/format';
import { formatCalendarDate, formatDate, useTimeZone } from '@portal/kit/dates';
import { formatCents } from '@portal/runtime/currency';
import { contentText } from '@portal/kit/content';
import { HOME_NS, homeCatalogs } from '../i18n/catalogs';
import { SummarySkeleton } from './Skeleton';
import { keep, loadSummary, readKept, type HomeSummary, type KeptSummary } from '../api/summary-data';

const Strings = createMfeStrings(HOME_NS, homeCatalogs);

type State = { kept: KeptSummary | null; fresh: boolean; failed: boolean };

function useSummary(): State & { retry: () => void } {
  const { profile_id: profileId } = useAuth();
  const online = useOnline();
  const [attempt, setAttempt] = useState(0);
  const [state, setState] = useState<State>(() => ({ kept: readKept(profileId), fresh: false, failed: false }));
  useEffect(() => {
    if (!online || !profileId) return undefined;
    const ctrl = new AbortController();
    loadSummary(ctrl.signal)
      .then((summary) => {
        const at = Date.now();
        keep(profileId, summary, at);
        setState({ kept: { summary, at }, fresh: true, failed: false });
      })
      .catch(() => {
        if (!ctrl.signal.aborted) setState((s) => ({ ...s, failed: true }));
      });
    return () => ctrl.abort();
  }, [online, profileId, attempt]);
  return { ...state, retry: () => setAttempt((n) => n + 1) };
}

/** "Gold tier", the bar to the next one, and "1,951 points to Platinum" (or "You're at the top tier"). */
function Tier({ tier }: { tier: NonNullable<HomeSummary['tier']> }) {
  const { t, i18n } = useTranslation(HOME_NS);
  const lang = i18n.language;
  // The tenant's names in the page's language (a summary kept before had none: the default).
  const name = contentText({ name: tier.name, translations: tier.names }, 'name', lang);
  const next = tier.next && contentText({ name: tier.next, translations: tier.nextNames }, 'name', lang);
  const spend = tier.measure === 'spend';
  const needed = spend ? formatCents(tier.needed) : formatNumber(tier.needed, lang);
  const toNextKey = spend ? 'toNextSpend' : 'toNextPoints';
  const toNextOptions = spend ? {} : { count: tier.needed };
  const toNext = next ? t(toNextKey, { ...toNextOptions, amount: needed, points: needed, tier: next }) : t('tierTop');
  const percent = next ? Math.round(tier.percent) : 100;
  return (
    <div className="home-summary__tier">
      <p className="home-summary__row">
        <strong>
          <BdiTrans k="tier" values={{ tier: name }} />
        </strong>
      </p>
      <div
        className="home-summary__bar"
        role="progressbar"
        aria-label={next ? t('progressLabel', { tier: next }) : t('tier', { tier: name })}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={toNext}
      >
        <span style={{ inlineSize: `${percent}%` }} />
      </div>
      <p className="home-summary__row home-summary__next">
        {next ? <BdiTrans k={toNextKey} values={{ [spend ? 'amount' : 'points']: needed, tier: next }} options={toNextOptions} /> : toNext}
      </p>
    </div>
  );
}

function Parts({ summary }: { summary: HomeSummary }) {
  const { t, i18n } = useTranslation(HOME_NS);
  const lang = i18n.language;
  const { expiring, rewards, offers } = summary;
  return (
    <ul className="home-summary__rows">
      <li className="home-summary__row">
        {expiring === undefined
          ? t('expiringUnknown')
          : expiring
            ? t('expiring', {
                count: expiring.points,
                points: formatNumber(expiring.points, lang),
                date: formatCalendarDate(expiring.date, lang, 'date'),
              })
            : t('expiringNone')}
      </li>
      <li className="home-summary__row">
        <Link href="/rewards" onClick={() => track(TAB_CLICK_EVENTS['/rewards'])}>
          {rewards === undefined
            ? t('rewardsLink')
            : rewards.count
              ? t('rewardsReady', { count: rewards.count, n: formatNumber(rewards.count, lang) })
              : t('rewardsNone')}
        </Link>
      </li>
      <li className="home-summary__row home-summary__vouchers">
        {rewards?.shown.length ? (
          rewards.shown.map((r) => (
            <Link key={r.id} className="home-summary__voucher" href={`/rewards/item/${r.id}`}>
              <bdi>{contentText(r, 'name', lang)}</bdi>
            </Link>
          ))
        ) : (
          <span className="muted">{t('vouchersNone')}</span>
        )}
      </li>
      <li className="home-summary__row">
        <Link href="/offers" onClick={() => track(TAB_CLICK_EVENTS['/offers'])}>
          {offers === undefined
            ? t('offersLink')
            : offers
              ? t('offersNew', { count: offers, n: formatNumber(offers, lang) })
              : t('offersNone')}
        </Link>
      </li>
    </ul>
  );
}

function Summary() {
  const { t, i18n } = useTranslation(HOME_NS);
  const zone = useTimeZone();
  const online = useOnline();
  const { kept, fresh, failed, retry } = useSummary();
  const lang = i18n.language;
  const summary = kept?.summary;
  // Offline, or online but not (yet) read afresh: the kept values are the last known ones.
  const stale = Boolean(kept && (!online || (!fresh && failed)));
  if (!summary && online && !failed) return <SummarySkeleton title={t('title')} />;
  let label = t('balance');
  if (stale && kept) label = t('lastKnown', { time: formatDate(kept.at, lang, zone, 'dateTime') });
  return (
    <section className="card home-summary" aria-labelledby="home-summary-title">
      <h2 id="home-summary-title" className="visually-hidden">
        {t('title')}
      </h2>
      {summary ? (
        <>
          <p className="home-summary__label" title={stale ? label : undefined}>
            {label}
          </p>
          <p className="home-summary__balance">
            {summary.points === null ? (
              <span className="home-summary__row muted">{t('balanceUnknown')}</span>
            ) : (
              <>
                <strong className="home-summary__points">{formatNumber(summary.points, lang)}</strong>{' '}
                <span>{t('pointsUnit', { count: summary.points })}</span>
              </>
            )}
          </p>
          {summary.tier ? (
            <Tier tier={summary.tier} />
          ) : (
            <div className="home-summary__tier">
              <p className="home-summary__row muted">{t('tierNone')}</p>
            </div>
          )}
          <Parts summary={summary} />
        </>
      ) : !online ? (
        <p className="home-summary__empty muted">{t('offlineMissing')}</p>
      ) : failed ? (
        // Polite: the session-expiry toast is the page's one assertive message.
        <div className="home-summary__empty" role="status">
          <p>{t('failed')}</p>
          <button type="button" className="btn btn-secondary" onClick={retry}>
            {t('retry')}
          </button>
        </div>
      ) : null}
    </section>
  );
}

export default function HomeSummaryCard() {
  return (
    <Strings>
      <Summary />
    </Strings>
  );
}
