// ./app as the shell mounts it: a single-spa application on its routes, rendered into #mfe-outlet
// itself; mount resolves once the tab is on the page (the shell's route progress bar waits for it),
// a crash shows the error state instead of taking the page down, unmount empties the outlet.
import { createMfe } from '@portal/kit/mfe-app';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { bootstrap, mount, unmount } from '../app';
import { backend, resetAll } from './fixtures';

const act = globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean };
let stub: FetchStub | undefined;
let outlet: HTMLElement;

// The lifecycles are driven as single-spa drives them, outside act(): mount waits for React's commit.
beforeAll(() => (act.IS_REACT_ACT_ENVIRONMENT = false));
afterAll(() => (act.IS_REACT_ACT_ENVIRONMENT = true));
beforeEach(() => {
  resetAll();
  outlet = document.createElement('div');
  outlet.id = 'mfe-outlet';
  document.body.appendChild(outlet);
});
afterEach(() => {
  stub?.restore();
  stub = undefined;
  outlet.remove();
});

it('mounts into the outlet itself, is on the page once mount resolves, and leaves it empty on unmount', async () => {
  stub = backend();
  window.history.replaceState(null, '', '/transactions');
  const props = { name: 'mfe_orders', domElementGetter: () => outlet };
  await bootstrap();
  await mount(props);
  const nav = outlet.querySelector('nav[aria-label="My orders sections"]');
  expect(nav).not.toBeNull();
  expect(outlet.querySelector('[id^="single-spa-application"]')).toBeNull();
  await unmount(props);
  expect(outlet).toBeEmptyDOMElement();
});

it('shows the error state when the tab throws', async () => {
  const spy = jest.spyOn(console, 'error').mockImplementation(() => {});
  function Broken(): never {
    throw new Error('boom');
  }
  const app = createMfe(Broken);
  await app.mount({ name: 'broken', domElement: outlet });
  expect(outlet.querySelector('[role="alert"]')).not.toBeNull();
  await app.unmount({ name: 'broken', domElement: outlet });
  expect(outlet).toBeEmptyDOMElement();
  spy.mockRestore();
});
