// Pages drawn ahead of time (the shell's build renders them to HTML): inside DrawnAhead, stores,
// the router and browser-only values give what the HTML was drawn with; outside, the current state.
import { act, render, screen } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import {
  DrawnAhead,
  createStore,
  networkStore,
  setServerLocation,
  useBrowserValue,
  useDrawn,
  usePathname,
  useSearch,
  useStore,
} from '../index';

const counter = createStore({ n: 1 });

function Show() {
  const { n } = useStore(counter);
  const path = usePathname();
  const search = useSearch();
  const stored = useBrowserValue(() => localStorage.getItem('k') ?? 'none', 'server');
  const drawn = useDrawn();
  return <p data-testid="out">{`${n} ${path}${search} ${stored} ${drawn ? 'drawn' : 'current'}`}</p>;
}

beforeEach(() => {
  counter.set({ n: 2 });
  counter.setServerState({ n: 1 });
  setServerLocation('/home');
  window.history.replaceState(null, '', '/profile?x=1');
  localStorage.setItem('k', 'stored');
});

it('a store is created with its server state, unless given one apart', () => {
  const s = createStore({ a: 1 });
  s.set({ a: 2 });
  expect(s.getServerState()).toEqual({ a: 1 });
  expect(createStore({ a: 1 }, { a: 3 }).getServerState()).toEqual({ a: 3 });
  // The network store draws the page online, whatever the browser says when it loads.
  expect(networkStore.getServerState()).toEqual({ online: true });
});

it('draws the server state, the drawn address and the server values inside DrawnAhead', () => {
  render(
    <DrawnAhead.Provider value>
      <Show />
    </DrawnAhead.Provider>,
  );
  expect(screen.getByTestId('out')).toHaveTextContent('1 /home server drawn');
  // Still so when the store changes meanwhile.
  act(() => counter.set({ n: 5 }));
  expect(screen.getByTestId('out')).toHaveTextContent('1 /home server drawn');
});

it('draws the current state outside it, and follows the store', () => {
  render(<Show />);
  expect(screen.getByTestId('out')).toHaveTextContent('2 /profile?x=1 stored current');
  act(() => counter.set({ n: 5 }));
  expect(screen.getByTestId('out')).toHaveTextContent('5 /profile?x=1 stored current');
});

it('switches from what was drawn to the current state when DrawnAhead turns false', () => {
  const { rerender } = render(
    <DrawnAhead.Provider value>
      <Show />
    </DrawnAhead.Provider>,
  );
  rerender(
    <DrawnAhead.Provider value={false}>
      <Show />
    </DrawnAhead.Provider>,
  );
  expect(screen.getByTestId('out')).toHaveTextContent('2 /profile?x=1 stored current');
});

it('renders on the server with the server state and address', () => {
  setServerLocation('/', '?lang=en');
  const html = renderToString(
    <DrawnAhead.Provider value>
      <Show />
    </DrawnAhead.Provider>,
  );
  expect(html).toContain('1 /?lang=en server drawn');
});
