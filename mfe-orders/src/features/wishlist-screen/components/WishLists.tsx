import { useTranslation } from 'react-i18next';
import { nativeActionAvailable, type ListItem } from '@portal/runtime';
import { NativeActionButton } from '@portal/kit/native-button';
import { NoData, OfflineNote } from '@portal/kit/offline-data';
import { Icon } from '../../../components/Icon';
import { useWishLists } from '../hooks/use-wishlists';

function Item({ item, names }: { item: ListItem; names: Record<string, string> }) {
  const { t } = useTranslation();
  const ref = item.product_variant_id || item.product_id;
  const name = names[item.id] ?? names[ref] ?? t('wishlistScreen.unknown', { id: ref });
  return (
    <li className="wishlist-item">
      <span className="wishlist-item__name">{name}</span>
    </li>
  );
}

/**
 * /wishlist — the member's connection lists (spec: connections and their lists) with their items,
 * read-only; inside the native app an "Open in app" (gotoWishlist) when the wrapper offers it.
 */
export function WishLists() {
  const { t } = useTranslation();
  const query = useWishLists();
  const names = query.data?.names ?? {};
  const lists = (query.data?.connections ?? []).flatMap(({ connection, lists }) => lists.map((list) => ({ connection, list })));
  const itemCount = lists.reduce((n, { list }) => n + list.items.length, 0);

  let body;
  if (!query.data) body = <NoData query={query} />;
  else if (itemCount === 0) body = <p className="card">{t('wishlistScreen.empty')}</p>;
  else
    body = lists.map(({ connection, list }) => {
      const headingId = `wishlist-${list.id}`;
      return (
        <section key={list.id} className="card wishlist" aria-labelledby={headingId}>
          <h2 id={headingId}>{list.handle === 'wishlist' ? t('wishlistScreen.wishlist') : list.name || connection.name}</h2>
          {list.items.length === 0 ? (
            <p className="muted">{t('wishlistScreen.listEmpty')}</p>
          ) : (
            <ul className="wishlist-items">
              {list.items.map((item) => (
                <Item key={item.id} item={item} names={names} />
              ))}
            </ul>
          )}
        </section>
      );
    });

  return (
    <section className="page" aria-labelledby="wishlist-title">
      <h1 id="wishlist-title" className="page-title">
        {t('wishlistScreen.title')}
      </h1>
      <OfflineNote updatedAt={query.dataUpdatedAt} />
      {nativeActionAvailable('gotoWishlist') && (
        <div className="subnav app-links" role="group" aria-label={t('native.label')}>
          <NativeActionButton action="gotoWishlist" event="wishlist_goto_app" className="btn btn-secondary btn-small">
            <Icon name="heart" />
            {t('wishlistScreen.openInApp')}
          </NativeActionButton>
        </div>
      )}
      {body}
    </section>
  );
}
