import { useTranslation } from 'react-i18next';
import { Bdi, BdiTrans, ErrorState, Link, Loading, TAB_CLICK_EVENTS, track, type Transaction } from '@portal/runtime';
import { useTransactions } from '../hooks/use-transactions';
import { formatCents } from '../utils/currency';
import { formatDay, formatTime, groupByDay } from '../utils/dates';

function Order({ tx, lang }: { tx: Transaction; lang: string }) {
  const { t } = useTranslation();
  return (
    <li>
      <div className="row">
        <span>
          <strong>{tx.store ? <Bdi>{tx.store}</Bdi> : t('orders.online')}</strong>{' '}
          <span className="muted">{formatTime(tx.transacted_at, lang)}</span>
        </span>
        <span className="amount">
          <span className="visually-hidden">{t('orders.totalLabel')} </span>
          <Bdi>{formatCents(tx.total_cents)}</Bdi>
        </span>
      </div>
      {tx.items?.length > 0 && (
        <ul className="muted" style={{ margin: 'var(--space-1) 0 0', paddingInlineStart: 'var(--space-4)' }}>
          {tx.items.map((item) => (
            <li key={item.id}>
              <BdiTrans k="orders.itemLine" values={{ name: item.product?.name || item.name, quantity: item.quantity }} />{' '}
              <span className="amount">
                <Bdi>{formatCents(item.amount_cents)}</Bdi>
              </span>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

/** /transactions — My Orders grouped by day. */
export function MyOrders() {
  const { t, i18n } = useTranslation();
  const query = useTransactions();
  const groups = groupByDay(query.data?.data ?? [], (tx) => tx.transacted_at);
  return (
    <section className="page" aria-labelledby="orders-title">
      <h1 id="orders-title" className="page-title">
        {t('orders.title')}
      </h1>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <ErrorState error={query.error} onRetry={() => void query.refetch()} />
      ) : groups.length === 0 ? (
        <p className="card">{t('orders.empty')}</p>
      ) : (
        groups.map((group) => (
          <section key={group.day} className="card" aria-label={formatDay(group.first, i18n.language)}>
            <h2>{formatDay(group.first, i18n.language)}</h2>
            <ul className="list">
              {group.items.map((tx) => (
                <Order key={tx.id} tx={tx} lang={i18n.language} />
              ))}
            </ul>
          </section>
        ))
      )}
      <p>
        <Link href="/claim-transaction" onClick={() => track(TAB_CLICK_EVENTS['/claim-transaction'])}>
          {t('orders.claimLink')}
        </Link>
      </p>
    </section>
  );
}
