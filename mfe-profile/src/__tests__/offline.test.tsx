// Offline in My Details: the profile shown (from the cache or the last answer) cannot be saved
// (Save is off, with the reason), nor the messaging switches changed; back online they work.
import { act, fireEvent, screen } from '@testing-library/react';
import { networkStore } from '@portal/runtime';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { backend, renderAt, resetAll } from './fixtures';

const REASON = "You're offline. You can save again when you're back online.";
let stub: FetchStub;

beforeEach(() => {
  resetAll();
  stub = backend();
});
afterEach(() => {
  act(() => networkStore.set({ online: true }));
  stub.restore();
});

it('turns Save off offline, with the reason, and on again online', async () => {
  await renderAt('/profile');
  await screen.findByRole('heading', { level: 2, name: 'Personal details' });
  act(() => networkStore.set({ online: false }));
  const save = screen.getByRole('button', { name: 'Save changes' });
  expect(save).toBeDisabled();
  expect(save).toHaveAccessibleDescription(REASON);
  fireEvent.change(screen.getByLabelText('First name'), { target: { value: 'Danielle' } });
  fireEvent.click(save);
  expect(stub.calls.filter((c) => c.method !== 'GET')).toEqual([]);
  act(() => networkStore.set({ online: true }));
  expect(save).toBeEnabled();
});

it('turns the messaging switches off offline', async () => {
  await renderAt('/messaging');
  const email = await screen.findByRole('switch', { name: 'Email' });
  expect(email).toBeEnabled();
  act(() => networkStore.set({ online: false }));
  expect(email).toBeDisabled();
  expect(screen.getAllByText(REASON).length).toBeGreaterThan(0);
  act(() => networkStore.set({ online: true }));
  expect(email).toBeEnabled();
});
