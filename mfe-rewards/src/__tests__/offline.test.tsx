// Offline in Rewards: the balance read online is kept as the member's last known balance (their
// card on Home shows it offline); redeeming, converting and activating are off, with the reason.
import { act, fireEvent, screen, within } from '@testing-library/react';
import { LOYALTY_MEMBER_KEY, networkStore } from '@portal/runtime';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { backend, renderAt, resetAll } from './fixtures';

const REASON = "You're offline. You can save again when you're back online.";
let stub: FetchStub;

beforeEach(() => resetAll());
afterEach(() => {
  act(() => networkStore.set({ online: true }));
  stub.restore();
});

it('keeps the balance it reads as the last known balance of this member', async () => {
  stub = backend();
  await renderAt('/rewards');
  await screen.findByText('3,049 points');
  expect(JSON.parse(localStorage.getItem(LOYALTY_MEMBER_KEY) ?? 'null')).toMatchObject({ profile_id: 'p_demo', points: 3049 });
});

it('offline, the redeem confirmation is off and says why; online again it sends', async () => {
  stub = backend();
  await renderAt('/rewards');
  fireEvent.click(await screen.findByRole('button', { name: 'Redeem Free coffee' }));
  const dialog = screen.getByRole('dialog');
  act(() => networkStore.set({ online: false }));
  const confirm = within(dialog).getByRole('button', { name: 'Confirm' });
  expect(confirm).toBeDisabled();
  expect(confirm).toHaveAccessibleDescription(REASON);
  expect(within(dialog).getByText(REASON)).toBeVisible();
  fireEvent.click(confirm);
  expect(stub.calls.filter((c) => c.method !== 'GET')).toEqual([]);
  act(() => networkStore.set({ online: true }));
  expect(confirm).toBeEnabled();
  expect(within(dialog).queryByText(REASON)).toBeNull();
});

it('offline, offers cannot be activated', async () => {
  stub = backend();
  await renderAt('/offers');
  const activate = (await screen.findAllByRole('button', { name: /^Activate/ }))[0];
  act(() => networkStore.set({ online: false }));
  expect(activate).toBeDisabled();
  expect(activate).toHaveAccessibleDescription(REASON);
});
