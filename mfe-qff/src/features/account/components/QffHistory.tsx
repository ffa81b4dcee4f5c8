import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Bdi, Loading } from '@portal/runtime';
import { Problem } from '../../../components/Problem';
import { formatNumber } from '@portal/kit/format';
import { formatCalendarDate } from '@portal/kit/dates';
import { Signed } from '@portal/kit/signed';
import { allActivity, useQffHistory } from '../hooks/use-account';
import type { QffActivity } from '../api/types';

export const FIRST_SHOWN = 5;

const CATEGORIES = ['partner', 'flight', 'other'];

function Entry({ entry }: { entry: QffActivity }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const category = CATEGORIES.includes(entry.category) ? entry.category : 'other';
  const direction = entry.points > 0 ? 'plus' : entry.points < 0 ? 'minus' : 'zero';
  return (
    <li className="ledger__entry" tabIndex={-1}>
      <span className="ledger__what">
        <Bdi>{entry.description}</Bdi>
      </span>
      <span className={`amount ledger__points ledger__points--${direction}`}>
        <Signed value={entry.points} />
        <span className="visually-hidden"> {t('airline.unit', { count: Math.abs(entry.points) })}</span>
      </span>
      <span className="muted ledger__meta">
        <span>{formatCalendarDate(entry.date, lang)}</span>
        <span>{t(`history.category.${category}`)}</span>
      </span>
    </li>
  );
}

/** The airline account's recent activity: the first 5, then "Show more" (20 more each time). */
export function QffHistory() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const query = useQffHistory(true);
  const { entries, total } = allActivity(query.data?.pages);
  const [shown, setShown] = useState(FIRST_SHOWN);
  const listRef = useRef<HTMLUListElement>(null);
  // After "Show more", the focus goes to the first entry it brought.
  const [focusAt, setFocusAt] = useState<number | null>(null);
  useEffect(() => {
    if (focusAt === null || entries.length <= focusAt || shown <= focusAt) return;
    listRef.current?.querySelectorAll<HTMLElement>('.ledger__entry')[focusAt]?.focus();
    setFocusAt(null);
  }, [focusAt, entries.length, shown]);

  const more = () => {
    const next = shown + 20;
    setFocusAt(Math.min(shown, entries.length));
    setShown(next);
    if (entries.length < next && query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
  };

  let body;
  if (query.isPending) body = <Loading />;
  else if (query.isError && entries.length === 0) body = <Problem error={query.error} onRetry={() => void query.refetch()} />;
  else if (entries.length === 0) body = <p className="muted">{t('history.empty')}</p>;
  else {
    const visible = entries.slice(0, shown);
    const lang = i18n.language;
    body = (
      <>
        <ul className="ledger" ref={listRef}>
          {visible.map((entry) => (
            <Entry key={entry.id} entry={entry} />
          ))}
        </ul>
        <div className="ledger-more">
          <p className="muted" aria-live="polite">
            {t('history.showing', { shown: formatNumber(visible.length, lang), total: formatNumber(total, lang) })}
          </p>
          {visible.length < total && (
            <button type="button" className="btn btn-secondary" onClick={more} aria-busy={query.isFetchingNextPage || undefined}>
              {query.isFetchingNextPage ? t('history.loading') : t('history.more')}
            </button>
          )}
        </div>
      </>
    );
  }
  return (
    <section className="qff-history" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>{t('history.title')}</h3>
      {body}
    </section>
  );
}
