import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addToast, isHttpError, useConfig, useOnline, type ListItem } from '@portal/runtime';
import { WriteButton } from '@portal/kit/offline';
import { productUrl } from '../lib/product-url';
import { useMoveItem, useRemoveItem } from '../hooks/use-list-writes';

/** A list another item may move to: its id and the name shown. */
export interface ListChoice {
  id: string;
  name: string;
}

/** Why a write failed, in the member's language: gone (404), full (422 with no field), or either write's own. */
function errorText(t: (k: string) => string, err: unknown, fallback: 'remove' | 'move'): string {
  if (isHttpError(err) && err.status === 404) return t('wishlistScreen.errors.gone');
  if (isHttpError(err) && err.status === 422 && fallback === 'move' && !err.errors?.list_id) return t('wishlistScreen.errors.full');
  return t(`wishlistScreen.errors.${fallback}`);
}

/**
 * One item of a list: its name (a link to the product when the tenant has a product URL), and for
 * the member themselves "Move to" another of their lists and "Remove". Afterwards the focus goes
 * to the heading of the list the item left (`onGone`).
 */
export function WishListItem({
  item,
  name,
  connectionId,
  targets,
  readOnly,
  onGone,
}: {
  item: ListItem;
  name: string;
  connectionId: string;
  targets: ListChoice[];
  readOnly: boolean;
  onGone: () => void;
}) {
  const { t } = useTranslation();
  const { config } = useConfig();
  const online = useOnline();
  const remove = useRemoveItem();
  const move = useMoveItem();
  const [to, setTo] = useState(targets[0]?.id ?? '');
  const selectId = useId();
  const url = productUrl(item, config);
  const ref = { connectionId, listId: item.list_id, itemId: item.id };
  const busy = remove.isPending || move.isPending;
  const target = targets.find((l) => l.id === to) ?? targets[0];

  const onRemove = () =>
    remove.mutate(ref, {
      onSuccess: () => {
        addToast({ type: 'success', text: t('wishlistScreen.removed', { name }) });
        onGone();
      },
      onError: (err) => addToast({ type: 'error', text: errorText(t, err, 'remove'), timeout: 5000 }),
    });
  const onMove = () => {
    if (!target) return;
    move.mutate(
      { ref, to: target.id },
      {
        onSuccess: () => {
          addToast({ type: 'success', text: t('wishlistScreen.moved', { name, list: target.name }) });
          onGone();
        },
        onError: (err) => addToast({ type: 'error', text: errorText(t, err, 'move'), timeout: 5000 }),
      },
    );
  };

  return (
    <li className="wishlist-item" aria-busy={busy || undefined}>
      <span className="wishlist-item__name">
        {url ? (
          <a href={url} target="_blank" rel="noopener noreferrer">
            <bdi>{name}</bdi>
            <span className="visually-hidden"> ({t('wishlistScreen.opensShop')})</span>
          </a>
        ) : (
          <bdi>{name}</bdi>
        )}
      </span>
      {!readOnly && (
        <span className="wishlist-item__actions">
          {target && (
            <span className="wishlist-move">
              <label htmlFor={selectId}>
                {t('wishlistScreen.moveTo')}
                <span className="visually-hidden">{` (${name})`}</span>
              </label>
              <select id={selectId} value={target.id} disabled={busy || !online} onChange={(e) => setTo(e.target.value)}>
                {targets.map((l) => (
                  <option key={l.id} value={l.id}>
                    {l.name}
                  </option>
                ))}
              </select>
              <WriteButton className="btn btn-secondary btn-small" onClick={onMove} disabled={busy} reasonShown={false}>
                {t('wishlistScreen.move')}
                <span className="visually-hidden">{`: ${name}`}</span>
              </WriteButton>
            </span>
          )}
          <WriteButton className="btn btn-secondary btn-small" onClick={onRemove} disabled={busy} reasonShown={false}>
            {t('wishlistScreen.remove')}
            <span className="visually-hidden">{`: ${name}`}</span>
          </WriteButton>
        </span>
      )}
    </li>
  );
}
