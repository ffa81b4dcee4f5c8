// Focus after a route change: the new page's main heading takes the focus and is announced,
// whether the heading is drawn at once, later (a remote still loading) or is the same element as
// before; never on the first load, for a query string alone, or away from what was focused since.
import { act, screen, waitFor } from '@testing-library/react';
import { authStore, navigate } from '@portal/runtime';
import { ROUTE_ANNOUNCE_MAX_MS, ROUTE_FOCUS_TIMEOUT_MS, ROUTE_SETTLE_MS, watchRouteFocus } from '../layout/route-focus';
import { renderAt } from './setup';

function frame() {
  document.body.innerHTML =
    '<a id="tab" href="/b">B</a><main id="main" tabindex="-1"><h1>Page A</h1></main><div id="live" aria-live="polite"></div>';
  const main = document.getElementById('main')!;
  const live = document.getElementById('live')!;
  return { main, live, stop: watchRouteFocus(main, live) };
}

/** The mutation observer's callbacks run as microtasks. */
const flush = () => act(async () => {});

beforeEach(() => {
  jest.useFakeTimers();
  window.history.replaceState(null, '', '/a');
});
afterEach(() => {
  jest.useRealTimers();
  document.body.innerHTML = '';
});

describe('focus on route changes', () => {
  it('focuses the new page heading once it is drawn, makes it focusable only by script, and announces it', async () => {
    const { main, live, stop } = frame();
    document.getElementById('tab')!.focus();
    act(() => navigate('/b'));
    main.innerHTML = '<p class="skeleton">Loading…</p>';
    await flush();
    expect(document.activeElement?.id).toBe('tab');
    main.innerHTML = '<h1>Page B</h1><p>text</p>';
    await flush();
    const heading = main.querySelector('h1')!;
    expect(document.activeElement).toBe(heading);
    expect(heading).toHaveAttribute('tabindex', '-1');
    act(() => void jest.advanceTimersByTime(ROUTE_SETTLE_MS));
    expect(live).toHaveTextContent('Page B');
    stop();
  });

  it('announces the heading once its text is final', async () => {
    const { main, live, stop } = frame();
    act(() => navigate('/b'));
    main.innerHTML = '<h1>Hello</h1>';
    await flush();
    const heading = main.querySelector('h1')!;
    expect(document.activeElement).toBe(heading);
    act(() => void jest.advanceTimersByTime(ROUTE_SETTLE_MS - 10));
    heading.textContent = 'Hello, Dana';
    await flush();
    act(() => void jest.advanceTimersByTime(ROUTE_SETTLE_MS - 1));
    expect(live).toHaveTextContent('');
    act(() => void jest.advanceTimersByTime(1));
    expect(live).toHaveTextContent('Hello, Dana');
    expect(document.activeElement).toBe(heading);
    stop();
  });

  it('announces within a second even while the heading keeps changing', async () => {
    const { main, live, stop } = frame();
    act(() => navigate('/b'));
    main.innerHTML = '<h1>0</h1>';
    await flush();
    const heading = main.querySelector('h1')!;
    for (let n = 1; n * 100 < ROUTE_ANNOUNCE_MAX_MS; n++) {
      act(() => void jest.advanceTimersByTime(100));
      heading.textContent = String(n);
      await flush();
    }
    act(() => void jest.advanceTimersByTime(100));
    expect(live.textContent).not.toBe('');
    stop();
  });

  it('does nothing on the first load', async () => {
    const { main, live, stop } = frame();
    main.innerHTML = '<h1>Later</h1>';
    await flush();
    act(() => void jest.advanceTimersByTime(ROUTE_FOCUS_TIMEOUT_MS + 1));
    expect(document.activeElement).toBe(document.body);
    expect(live).toHaveTextContent('');
    stop();
  });

  it('does nothing when only the query string changes', async () => {
    const { live, stop } = frame();
    act(() => navigate('/a?lang=ar'));
    act(() => void jest.advanceTimersByTime(ROUTE_FOCUS_TIMEOUT_MS + 1));
    expect(document.activeElement).toBe(document.body);
    expect(live).toHaveTextContent('');
    stop();
  });

  it('focuses a heading kept from the previous page once the page is still', async () => {
    const { main, live, stop } = frame();
    const heading = main.querySelector('h1')!;
    act(() => navigate('/b'));
    main.append(Object.assign(document.createElement('p'), { textContent: 'new content' }));
    await flush();
    act(() => void jest.advanceTimersByTime(ROUTE_SETTLE_MS - 1));
    expect(document.activeElement).toBe(document.body);
    act(() => void jest.advanceTimersByTime(1));
    expect(document.activeElement).toBe(heading);
    act(() => void jest.advanceTimersByTime(ROUTE_SETTLE_MS));
    expect(live).toHaveTextContent('Page A');
    stop();
  });

  it('also on the browser back button, and a heading inside a dialog is not the page heading', async () => {
    const { main, stop } = frame();
    window.history.pushState(null, '', '/b');
    main.innerHTML = '<dialog open><h1>Dialog</h1></dialog>';
    act(() => void window.dispatchEvent(new PopStateEvent('popstate')));
    await flush();
    expect(document.activeElement).toBe(document.body);
    main.insertAdjacentHTML('afterbegin', '<h1>Page B</h1>');
    await flush();
    expect(document.activeElement).toBe(main.querySelector('h1'));
    expect(document.activeElement).toHaveTextContent('Page B');
    stop();
  });

  it('leaves the focus where the page or the member put it meanwhile', async () => {
    const { main, live, stop } = frame();
    act(() => navigate('/b'));
    main.innerHTML = '<input id="field" />';
    (main.querySelector('#field') as HTMLInputElement).focus();
    main.insertAdjacentHTML('afterbegin', '<h1>Page B</h1>');
    await flush();
    expect(document.activeElement?.id).toBe('field');
    act(() => void jest.advanceTimersByTime(ROUTE_SETTLE_MS));
    expect(live).toHaveTextContent('Page B');
    stop();
  });

  it('focuses <main> when no heading comes, and stops watching when told', async () => {
    const { main, stop } = frame();
    act(() => navigate('/b'));
    main.innerHTML = '<p>no heading</p>';
    await flush();
    act(() => void jest.advanceTimersByTime(ROUTE_FOCUS_TIMEOUT_MS));
    expect(document.activeElement).toBe(main);
    stop();
    act(() => navigate('/c'));
    main.innerHTML = '<h1>Page C</h1>';
    await flush();
    expect(document.activeElement).toBe(main);
  });
});

describe('in the shell', () => {
  it('moves the focus to the next screen heading after navigate(), not on the first render', async () => {
    jest.useRealTimers();
    renderAt('/nowhere');
    const notFound = await screen.findByRole('heading', { level: 1 });
    expect(document.activeElement).not.toBe(notFound);
    expect(authStore.get().authenticated).toBe(false);
    act(() => navigate('/profile'));
    const heading = await screen.findByRole('heading', { name: 'Please log in to continue', level: 1 });
    await act(async () => {});
    expect(document.activeElement).toBe(heading);
    await waitFor(() =>
      expect(document.querySelector('[aria-live="polite"][aria-atomic="true"]')).toHaveTextContent('Please log in to continue'),
    );
  });
});
