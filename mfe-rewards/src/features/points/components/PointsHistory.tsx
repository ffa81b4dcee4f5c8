import { useTranslation } from 'react-i18next';
import { Bdi, type PointsEntry } from '@portal/runtime';
import { LoadMore, useLoadMore } from '@portal/kit/load-more';
import { NoData } from '@portal/kit/offline-data';
import { Signed } from '@portal/kit/signed';
import { formatDate, formatNumber, useTimeZone } from '../../../lib/format';
import { allEntries, usePointsHistory } from '../hooks/use-points';
import { useContentText } from '@portal/kit/content';

/** The contract's ledger sources; anything else gets a plain "Points" label. */
const SOURCES = ['purchase', 'claim', 'bonus', 'redemption', 'conversion', 'expiry', 'staff', 'import'];
/** A conversion to Qantas Points is held, then confirmed or released: each step its own label. */
const CONVERSION_STEPS = ['hold', 'confirm', 'release'];

function label(entry: PointsEntry): string {
  if (entry.source === 'conversion' && CONVERSION_STEPS.includes(entry.kind)) return `history.conversion.${entry.kind}`;
  return `history.source.${SOURCES.includes(entry.source) ? entry.source : 'other'}`;
}

function Entry({ entry, zone }: { entry: PointsEntry; zone: string }) {
  const { t, i18n } = useTranslation();
  const text = useContentText();
  const lang = i18n.language;
  const expires = entry.points > 0 ? formatDate(entry.expires_at, lang, zone) : null;
  const expired = !!entry.expires_at && Date.parse(entry.expires_at) <= Date.now();
  const direction = entry.points > 0 ? 'plus' : entry.points < 0 ? 'minus' : 'zero';
  return (
    <li className="ledger__entry" tabIndex={-1}>
      <span className="ledger__what">
        <strong>{t(label(entry))}</strong>
        {entry.reason && (
          <>
            <span aria-hidden="true"> · </span>
            <span className="visually-hidden">: </span>
            <Bdi>{text(entry, 'reason')}</Bdi>
          </>
        )}
      </span>
      <span className={`amount ledger__points ledger__points--${direction}`}>
        <Signed value={entry.points} />
        <span className="visually-hidden"> {t('history.unit', { count: Math.abs(entry.points) })}</span>
      </span>
      <span className="muted ledger__meta">
        <span>{formatDate(entry.issued_at, lang, zone)}</span>
        {expires && <span>{t(expired ? 'history.expired' : 'history.expires', { date: expires })}</span>}
      </span>
    </li>
  );
}

/** The points history, newest first, 20 at a time with "Load more". */
export function PointsHistory() {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const zone = useTimeZone();
  const query = usePointsHistory();
  const entries = allEntries(query.data);
  const pages = query.data?.pages ?? [];
  const total = Math.max(pages[pages.length - 1]?.meta?.total ?? 0, entries.length);
  // After "Load more", the focus goes to the first entry it brought.
  const { listRef, loadMore } = useLoadMore<typeof query.data, HTMLUListElement>(
    query,
    (data) => allEntries(data).length,
    '.ledger__entry',
  );

  let body;
  if (entries.length === 0 && (query.isPending || query.isError)) body = <NoData query={query} />;
  else if (entries.length === 0) body = <p className="muted">{t('history.empty')}</p>;
  else
    body = (
      <>
        <ul className="ledger" ref={listRef}>
          {entries.map((entry) => (
            <Entry key={entry.id} entry={entry} zone={zone} />
          ))}
        </ul>
        <LoadMore
          query={query}
          loadMore={loadMore}
          name="ledger-more"
          shown={t('history.shown', { count: total, shown: formatNumber(entries.length, lang), total: formatNumber(total, lang) })}
          failed={t('history.moreFailed')}
          more={t('history.loadMore')}
          loading={t('history.loadingMore')}
          offline={t('offlineData.moreOffline')}
        />
      </>
    );

  return (
    <section className="card" aria-labelledby="history-title">
      <h2 id="history-title">{t('history.heading')}</h2>
      {body}
    </section>
  );
}
