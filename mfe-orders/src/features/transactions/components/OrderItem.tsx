import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Bdi, BdiTrans, addToast, track, type TransactionItem, nativeActionAvailable, postNativeAction } from '@portal/runtime';
import { formatCents } from '@portal/runtime/currency';
import { Icon } from '../../../components/Icon';
import { WishListError, listItemBodyOf } from '../api/wishlist';
import { useAddToWishList } from '../hooks/use-add-to-wishlist';
import { WriteButton } from '@portal/kit/offline';
import { Signed } from '@portal/kit/signed';

/** Marked as on the wish list; inside the native app, a way to open it there. */
function OnWishList({ focusOnMount }: { focusOnMount: boolean }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLSpanElement>(null);
  useEffect(() => {
    // The button just pressed is gone: the focus goes to what replaced it.
    if (focusOnMount) ref.current?.focus();
  }, [focusOnMount]);
  return (
    <span className="order-item__action">
      <span ref={ref} tabIndex={-1} className="on-list">
        <Icon name="check" />
        {t('wishlist.onList')}
      </span>
      {nativeActionAvailable('gotoWishlist') && (
        <button
          type="button"
          className="btn-link"
          onClick={() => {
            track('my_orders_goto_wishlist');
            postNativeAction('gotoWishlist');
          }}
        >
          {t('wishlist.view')}
        </button>
      )}
    </span>
  );
}

/**
 * One line of an order: what was bought, how many, and the line's total (`amount_cents` is
 * quantity × unit price, negative for a return, so the lines add up to the order's total), with
 * the unit price when there are several; add it to the wish list.
 */
export function OrderItem({ item, readOnly }: { item: TransactionItem; readOnly: boolean }) {
  const { t } = useTranslation();
  const add = useAddToWishList();
  const [added, setAdded] = useState(false);
  // A return (negative quantity) of a known product is named in the page's language ("Return:
  // Chino shorts", "إرجاع: Chino shorts") rather than by the till's English line.
  const name =
    item.quantity < 0 && item.product?.name ? t('orders.returnOf', { name: item.product.name }) : item.name || item.product?.name || '';
  // A return line (negative quantity) or an item without a product cannot go on a list.
  const canAdd = !readOnly && item.quantity > 0 && listItemBodyOf(item) !== null;

  const onAdd = () => {
    if (add.isPending) return;
    add.mutate(item, {
      onSuccess: () => {
        setAdded(true);
        addToast({ type: 'success', text: t('wishlist.added', { name }) });
      },
      onError: (err) => {
        const code = err instanceof WishListError ? err.code : 'assign';
        addToast({ type: 'error', text: t(`wishlist.errors.${code}`), timeout: 5000 });
      },
    });
  };

  return (
    <li className="order-item">
      <span className="order-item__name">
        {/* A return's quantity keeps its sign before the digits on a right-to-left page: "−1". */}
        <BdiTrans k="orders.itemLine" values={{ name, quantity: <Signed value={item.quantity} plus={false} /> }} />
        {Math.abs(item.quantity) > 1 && (
          <span className="muted order-item__unit">
            <BdiTrans k="orders.unitPrice" values={{ price: formatCents(Math.abs(item.amount_cents / item.quantity)) }} />
          </span>
        )}
      </span>
      <span className="amount">
        <Bdi>{formatCents(item.amount_cents)}</Bdi>
      </span>
      {item.list_item ? (
        <OnWishList focusOnMount={added} />
      ) : (
        canAdd && (
          <span className="order-item__action">
            <WriteButton className="btn btn-secondary btn-small" onClick={onAdd} aria-busy={add.isPending || undefined} reasonShown={false}>
              <Icon name="heart" />
              {add.isPending ? t('wishlist.adding') : t('wishlist.add')}
              <span className="visually-hidden">
                {': '}
                <bdi>{name}</bdi>
              </span>
            </WriteButton>
          </span>
        )
      )}
    </li>
  );
}
