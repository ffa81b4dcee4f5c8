// Offline in My Orders: a claim cannot be sent (Submit is off, with the reason), nor an item put
// on the wishlist; back online both work again.
import { act, fireEvent, screen } from '@testing-library/react';
import { networkStore } from '@portal/runtime';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { backend, renderAt, resetAll } from './fixtures';

const REASON = "You're offline. You can save again when you're back online.";
let stub: FetchStub;

beforeEach(() => resetAll());
afterEach(() => {
  act(() => networkStore.set({ online: true }));
  stub.restore();
});

it('turns the claim form off offline, with the reason, and on again online', async () => {
  stub = backend();
  await renderAt('/claim-transaction');
  await screen.findByRole('option', { name: 'Melbourne Central' });
  act(() => networkStore.set({ online: false }));
  const submit = screen.getByRole('button', { name: 'Submit claim' });
  expect(submit).toBeDisabled();
  expect(submit).toHaveAccessibleDescription(REASON);
  expect(screen.getByText(REASON)).toBeVisible();
  fireEvent.click(submit);
  expect(stub.calls.filter((c) => c.method !== 'GET')).toEqual([]);
  act(() => networkStore.set({ online: true }));
  expect(submit).toBeEnabled();
  expect(screen.queryByText(REASON)).toBeNull();
});

it('keeps the wishlist buttons off offline', async () => {
  stub = backend();
  await renderAt('/transactions');
  fireEvent.click(await screen.findByRole('button', { name: /Melbourne Central/ }));
  const add = screen.getAllByRole('button', { name: /^Add to wish list/ })[0];
  act(() => networkStore.set({ online: false }));
  expect(add).toBeDisabled();
  expect(add).toHaveAccessibleDescription(REASON);
  act(() => networkStore.set({ online: true }));
  expect(add).toBeEnabled();
});
