import { useTranslation } from 'react-i18next';
import { Link, TAB_CLICK_EVENTS, track, useAuth } from '@portal/runtime';
import { LoadMore, useLoadMore } from '@portal/kit/load-more';
import { NoData, OfflineNote } from '@portal/kit/offline-data';
import { formatDay, groupByDay, useTimeZone } from '../../../lib/dates';
import { allTransactions, useTransactions } from '../hooks/use-transactions';
import { AppLinks } from './AppLinks';
import { Order } from './Order';

function ClaimLink() {
  const { t } = useTranslation();
  return (
    <p className="card claim-link">
      {t('orders.missing')}{' '}
      <Link href="/claim-transaction" onClick={() => track(TAB_CLICK_EVENTS['/claim-transaction'])}>
        {t('orders.claimLink')}
      </Link>
    </p>
  );
}

/** /transactions — My Orders: purchases by day in the tenant's zone, each one expandable to its items. */
export function MyOrders() {
  const { t, i18n } = useTranslation();
  const { impersonating } = useAuth();
  const zone = useTimeZone();
  const query = useTransactions();
  const orders = allTransactions(query.data);
  const groups = groupByDay(orders, (tx) => tx.transacted_at, zone);
  const total = query.data?.pages[query.data.pages.length - 1]?.meta?.total ?? orders.length;
  // After "Load more", the focus goes to the first order it brought.
  const { listRef, loadMore } = useLoadMore<typeof query.data, HTMLDivElement>(
    query,
    (data) => allTransactions(data).length,
    '.order__toggle',
  );

  let body;
  // Spec 8: a failed load is an error flag without a message: a friendly retry (offline: a note, not an error).
  if (orders.length === 0 && (query.isPending || query.isError)) body = <NoData query={query} />;
  else if (orders.length === 0) body = <p className="card">{t('orders.empty')}</p>;
  else
    body = (
      <div ref={listRef}>
        {groups.map((group) => {
          const headingId = `orders-day-${group.day}`;
          return (
            <section key={group.day} className="card orders-day" aria-labelledby={headingId}>
              <h2 id={headingId}>{formatDay(group.first, i18n.language, zone)}</h2>
              <ul className="orders">
                {group.items.map((tx) => (
                  <Order key={tx.id} tx={tx} zone={zone} readOnly={impersonating} />
                ))}
              </ul>
            </section>
          );
        })}
        <LoadMore
          query={query}
          loadMore={loadMore}
          name="orders-more"
          shown={t('orders.shown', { shown: orders.length, total: Math.max(total, orders.length) })}
          failed={t('orders.moreFailed')}
          more={t('orders.loadMore')}
          loading={t('orders.loadingMore')}
          offline={t('offlineData.moreOffline')}
        />
      </div>
    );

  return (
    <section className="page" aria-labelledby="orders-title">
      <h1 id="orders-title" className="page-title">
        {t('orders.title')}
      </h1>
      <OfflineNote updatedAt={query.dataUpdatedAt} />
      <AppLinks />
      {body}
      <ClaimLink />
    </section>
  );
}
