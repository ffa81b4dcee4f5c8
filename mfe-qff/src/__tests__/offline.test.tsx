// Offline in the frequent-flyer views: no link, conversion or unlink can be sent (each button is
// off, with the reason), what was already read stays on the page; back online they work again.
import { act, fireEvent, screen, within } from '@testing-library/react';
import { networkStore } from '@portal/runtime';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { LINKED, NOT_LINKED, backend, renderView, resetAll } from './fixtures';

const REASON = "You're offline. You can save again when you're back online.";
let stub: FetchStub;

beforeEach(() => resetAll());
afterEach(() => {
  act(() => networkStore.set({ online: true }));
  stub.restore();
});

const writes = () => stub.calls.filter((c) => c.method !== 'GET');
const offline = () => act(() => networkStore.set({ online: false }));
const online = () => act(() => networkStore.set({ online: true }));

it('keeps Convert points off offline, with the reason, and sends nothing until back online', async () => {
  stub = backend({ 'GET /api/qff/points': { body: LINKED } });
  await renderView('full');
  const section = await screen.findByRole('region', { name: 'Convert points to Qantas Points' });
  await within(section).findByText('You have 3,049 points.');
  fireEvent.click(within(section).getByRole('button', { name: 'Convert' }));
  const dialog = screen.getByRole('dialog', { name: 'Convert 1,000 points?' });
  const confirm = within(dialog).getByRole('button', { name: 'Convert points' });

  offline();
  expect(confirm).toBeDisabled();
  expect(confirm).toHaveAccessibleDescription(REASON);
  fireEvent.click(confirm);
  expect(writes()).toEqual([]);
  // What was read before stays on the page.
  expect(screen.getByText('48,250 Qantas Points')).toBeInTheDocument();

  online();
  expect(confirm).toBeEnabled();
  expect(confirm).not.toHaveAccessibleDescription(REASON);
});

it('turns the link wizard off offline (Continue, then "Yes, link this account") and on again online', async () => {
  stub = backend({
    'GET /api/qff/points': { body: NOT_LINKED },
    'POST /api/qff/validate': { body: { data: { qff_number: '1900123456', first_name: 'Dana', last_name: 'Demo' } } },
  });
  await renderView('identity', '/profile');
  await screen.findByRole('form', { name: 'Link your Qantas Frequent Flyer account' });
  fireEvent.change(screen.getByLabelText('Frequent Flyer number'), { target: { value: '1900123456' } });

  offline();
  const next = screen.getByRole('button', { name: 'Continue' });
  expect(next).toBeDisabled();
  expect(next).toHaveAccessibleDescription(REASON);
  fireEvent.click(next);
  expect(writes()).toEqual([]);

  online();
  expect(next).toBeEnabled();
  fireEvent.click(next);
  const yes = await screen.findByRole('button', { name: 'Yes, link this account' });
  expect(writes().map((c) => c.path)).toEqual(['/api/qff/validate']);

  offline();
  expect(yes).toBeDisabled();
  expect(yes).toHaveAccessibleDescription(REASON);
  fireEvent.click(yes);
  expect(writes().map((c) => c.path)).toEqual(['/api/qff/validate']);
  online();
  expect(yes).toBeEnabled();
});
