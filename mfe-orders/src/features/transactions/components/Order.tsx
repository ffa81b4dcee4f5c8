import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Bdi, type Transaction } from '@portal/runtime';
import { formatCents } from '@portal/runtime/currency';
import { Icon } from '../../../components/Icon';
import { formatNumber, formatTime } from '../../../lib/dates';
import { OrderItem } from './OrderItem';

/**
 * One purchase: a disclosure button (store, time, receipt, total) that shows or hides its items,
 * each with its line total, and the total they add up to.
 */
export function Order({ tx, zone, readOnly }: { tx: Transaction; zone: string; readOnly: boolean }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const panelId = `order-${tx.id}-items`;
  const items = tx.items ?? [];
  return (
    <li className="order">
      <button type="button" className="order__toggle" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)}>
        <span className="order__summary">
          <strong className="order__store">{tx.store ? <Bdi>{tx.store}</Bdi> : t('orders.online')}</strong>
          <span className="muted order__meta">
            <span>{formatTime(tx.transacted_at, i18n.language, zone)}</span>
            {tx.receipt_number && (
              <span>
                {t('orders.receipt')} <Bdi>{tx.receipt_number}</Bdi>
              </span>
            )}
          </span>
        </span>
        <span className="amount order__total">
          <span className="visually-hidden">{t('orders.totalLabel')} </span>
          <Bdi>{formatCents(tx.total_cents)}</Bdi>
        </span>
        <Icon name="chevron" className="order__chevron" />
      </button>
      <div id={panelId} className="order__panel" hidden={!open}>
        {items.length > 0 ? (
          <>
            <ul className="order-items" aria-label={t('orders.itemsLabel')}>
              {items.map((item) => (
                <OrderItem key={item.id} item={item} readOnly={readOnly} />
              ))}
            </ul>
            <p className="order__sum">
              <span>{t('orders.totalLabel')}</span>
              <span className="amount">
                <Bdi>{formatCents(tx.total_cents)}</Bdi>
              </span>
            </p>
          </>
        ) : (
          <p className="muted">{t('orders.noItems')}</p>
        )}
        {tx.points > 0 && <p className="muted order__points">{t('orders.points', { points: formatNumber(tx.points, i18n.language) })}</p>}
      </div>
    </li>
  );
}
