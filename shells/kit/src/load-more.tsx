// A list read page by page with "Load more" (My Orders, the points history): the footer (how many
// are shown, a failed page, the button, off while offline) and the focus, which goes to the first
// item a new page brought, since the button may be gone by then. Its texts come from the tab.
import { useEffect, useRef, useState } from 'react';
import { useOnline } from '@portal/runtime';

/** What `useLoadMore` and `<LoadMore>` need of TanStack Query's `useInfiniteQuery` result. */
export interface PagedQuery<TData> {
  data: TData | undefined;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  fetchNextPage: () => Promise<{ data: TData | undefined; isError: boolean }>;
}

/**
 * "Load more" for `query`, whose loaded items `count` counts: `loadMore` fetches the next page,
 * then the focus goes to the first new item (the `itemSelector`-th inside `listRef`). Nothing new
 * (a failure, or only items already shown): the focus stays where it is.
 */
export function useLoadMore<TData, E extends HTMLElement = HTMLElement>(
  query: PagedQuery<TData>,
  count: (data: TData | undefined) => number,
  itemSelector: string,
) {
  const listRef = useRef<E>(null);
  const shown = count(query.data);
  const [focusAt, setFocusAt] = useState<number | null>(null);
  useEffect(() => {
    if (focusAt === null || shown <= focusAt) return;
    listRef.current?.querySelectorAll<HTMLElement>(itemSelector)[focusAt]?.focus();
    setFocusAt(null);
  }, [focusAt, shown, itemSelector]);

  const loadMore = () => {
    if (query.isFetchingNextPage) return;
    setFocusAt(shown);
    void query.fetchNextPage().then((result) => {
      if (result.isError || count(result.data) <= shown) setFocusAt(null);
    });
  };
  return { listRef, loadMore };
}

export interface LoadMoreProps {
  query: Pick<PagedQuery<unknown>, 'hasNextPage' | 'isFetchingNextPage' | 'isFetchNextPageError'>;
  loadMore: () => void;
  /** The footer's class, and the id prefix of its offline reason. */
  name: string;
  /** "20 of 45 shown": a polite status, read again as it changes. */
  shown: string;
  /** A page that failed to load. */
  failed: string;
  /** The button, and the button while a page loads. */
  more: string;
  loading: string;
  /** Why the button is off while offline. */
  offline: string;
}

/** The list's footer: how many are shown, a failed page, and "Load more" while there is more. */
export function LoadMore({ query, loadMore, name, shown, failed, more, loading, offline }: LoadMoreProps) {
  const online = useOnline();
  const offlineId = `${name}-offline`;
  return (
    <div className={name}>
      <p className="muted" role="status">
        {shown}
      </p>
      {query.isFetchNextPageError && (
        <p className="field-error" role="alert">
          {failed}
        </p>
      )}
      {query.hasNextPage && (
        <>
          <button
            type="button"
            className="btn btn-secondary"
            onClick={loadMore}
            disabled={!online}
            aria-describedby={online ? undefined : offlineId}
            aria-busy={query.isFetchingNextPage || undefined}
          >
            {query.isFetchingNextPage ? loading : more}
          </button>
          {!online && (
            <span id={offlineId} className="offline-reason">
              {offline}
            </span>
          )}
        </>
      )}
    </div>
  );
}
