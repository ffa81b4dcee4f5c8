import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { nativeActionAvailable, useAuth, type Connection, type ProductList } from '@portal/runtime';
import { NativeActionButton } from '@portal/kit/native-button';
import { NoData, OfflineNote } from '@portal/kit/offline-data';
import { Icon } from '../../../components/Icon';
import { useWishLists } from '../hooks/use-wishlists';
import { NewList } from './NewList';
import { WishListItem, type ListChoice } from './WishListItem';

/** The kind of connection that holds the portal's own wish lists (the tenant's definition id). */
const WISHLIST_DEFINITION = 'wishlist';

/**
 * /wishlist — the member's connection lists (spec: connections and their lists) with their items:
 * open an item's product, move it to another list, remove it, make a new list; inside the native
 * app an "Open in app" (gotoWishlist) when the wrapper offers it. A staff view only reads.
 */
export function WishLists() {
  const { t } = useTranslation();
  const { impersonating } = useAuth();
  const query = useWishLists();
  const headings = useRef(new Map<string, HTMLHeadingElement | null>());
  const names = query.data?.names ?? {};
  const connections = query.data?.connections ?? [];
  const lists = connections.flatMap(({ connection, lists }) => lists.map((list) => ({ connection, list })));
  const itemCount = lists.reduce((n, { list }) => n + list.items.length, 0);
  const listName = (list: ProductList, connection: Connection) =>
    list.handle === 'wishlist' ? t('wishlistScreen.wishlist') : list.name || connection.name;
  const choices: ListChoice[] = lists.map(({ connection, list }) => ({ id: list.id, name: listName(list, connection) }));
  const own = connections.find((c) => c.connection.definition?.id === WISHLIST_DEFINITION)?.connection;

  let body;
  if (!query.data) body = <NoData query={query} />;
  else
    body = (
      <>
        {itemCount === 0 && <p className="card">{t('wishlistScreen.empty')}</p>}
        {/* With nothing on any list, the empty lists are not shown one by one. */}
        {(itemCount === 0 ? [] : lists).map(({ connection, list }) => {
          const headingId = `wishlist-${list.id}`;
          return (
            <section key={list.id} className="card wishlist" aria-labelledby={headingId}>
              <h2 id={headingId} tabIndex={-1} ref={(el) => void headings.current.set(list.id, el)}>
                {listName(list, connection)}
              </h2>
              {list.items.length === 0 ? (
                <p className="muted">{t('wishlistScreen.listEmpty')}</p>
              ) : (
                <ul className="wishlist-items">
                  {list.items.map((item) => {
                    const ref = item.product_variant_id || item.product_id;
                    return (
                      <WishListItem
                        key={item.id}
                        item={item}
                        name={names[item.id] ?? names[ref] ?? t('wishlistScreen.unknown', { id: ref })}
                        connectionId={connection.id}
                        targets={choices.filter((c) => c.id !== list.id)}
                        readOnly={impersonating}
                        onGone={() => headings.current.get(list.id)?.focus()}
                      />
                    );
                  })}
                </ul>
              )}
            </section>
          );
        })}
        {own && !impersonating && <NewList connectionId={own.id} />}
      </>
    );

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
