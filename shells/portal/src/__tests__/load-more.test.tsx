// @portal/kit/load-more, as My Orders and the points history use it: the footer (shown, a failed
// page, the button off while offline) and the focus after "Load more", on the first new item.
import { useState } from 'react';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { networkStore } from '@portal/runtime';
import { LoadMore, useLoadMore, type PagedQuery } from '@portal/kit/load-more';

interface Data {
  pages: string[][];
}

const unique = (data: Data | undefined) => [...new Set(data?.pages.flat() ?? [])];

/** A list of letters read page by page: `later` are the next pages; `fail` makes the next one fail. */
function Letters({ later, fail = false }: { later: string[][]; fail?: boolean }) {
  const [data, setData] = useState<Data>({ pages: [['a', 'b']] });
  const [rest, setRest] = useState(later);
  const [failed, setFailed] = useState(false);
  const query: PagedQuery<Data> = {
    data,
    hasNextPage: rest.length > 0,
    isFetchingNextPage: false,
    isFetchNextPageError: failed,
    fetchNextPage: async () => {
      if (fail) {
        setFailed(true);
        return { data, isError: true };
      }
      const next = { pages: [...data.pages, rest[0]] };
      setData(next);
      setRest(rest.slice(1));
      return { data: next, isError: false };
    },
  };
  const { listRef, loadMore } = useLoadMore<Data, HTMLUListElement>(query, (d) => unique(d).length, '.letter');
  const items = unique(data);
  return (
    <>
      <ul ref={listRef}>
        {items.map((letter) => (
          <li key={letter} className="letter" tabIndex={-1}>
            {letter}
          </li>
        ))}
      </ul>
      <button type="button" onClick={() => setData((d) => ({ pages: [['new'], ...d.pages] }))}>
        Refresh
      </button>
      <LoadMore
        query={query}
        loadMore={loadMore}
        name="letters-more"
        shown={`${items.length} shown`}
        failed="More letters couldn't be loaded."
        more="Load more"
        loading="Loading…"
        offline="You can load more when you're back online."
      />
    </>
  );
}

afterEach(() => act(() => networkStore.set({ online: true })));

describe('@portal/kit/load-more', () => {
  it('says how many are shown and moves the focus to the first item the new page brought', async () => {
    render(<Letters later={[['c', 'd']]} />);
    expect(screen.getByRole('status')).toHaveTextContent('2 shown');
    const more = screen.getByRole('button', { name: 'Load more' });
    more.focus();
    fireEvent.click(more);
    await waitFor(() => expect(screen.getByText('c')).toHaveFocus());
    expect(screen.getByRole('status')).toHaveTextContent('4 shown');
    // No more pages: no button.
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('leaves the focus where it is when the page brought nothing new, even when the list changes later', async () => {
    render(<Letters later={[['b'], ['c']]} />);
    const more = screen.getByRole('button', { name: 'Load more' });
    more.focus();
    await act(async () => fireEvent.click(more));
    expect(screen.getByRole('status')).toHaveTextContent('2 shown');
    expect(more).toHaveFocus();
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(screen.getByRole('status')).toHaveTextContent('3 shown');
    expect(more).toHaveFocus();
  });

  it('reports a page that failed, and keeps the focus', async () => {
    render(<Letters later={[['c']]} fail />);
    const more = screen.getByRole('button', { name: 'Load more' });
    more.focus();
    await act(async () => fireEvent.click(more));
    expect(screen.getByRole('alert')).toHaveTextContent("More letters couldn't be loaded.");
    expect(more).toHaveFocus();
  });

  it('turns the button off while offline, saying why', () => {
    act(() => networkStore.set({ online: false }));
    const { container } = render(<Letters later={[['c']]} />);
    const more = screen.getByRole('button', { name: 'Load more' });
    expect(more).toBeDisabled();
    expect(more).toHaveAccessibleDescription("You can load more when you're back online.");
    expect(
      within(container.querySelector('.letters-more') as HTMLElement).getByText("You can load more when you're back online."),
    ).toHaveClass('offline-reason');
  });
});
