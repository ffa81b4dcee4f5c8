import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { authStore } from '@portal/runtime';
import type { FetchStub } from '@portal/kit/fetch-stub';
import {
  HISTORY,
  LINKED,
  NOT_LINKED,
  PARTNER_DOWN,
  activity,
  backend,
  callsTo,
  eventsNamed,
  failure,
  historyPage,
  partnerDown,
  renderView,
  resetAll,
  toasts,
} from './fixtures';

let stub: FetchStub;

beforeEach(() => resetAll());
afterEach(() => stub.restore());

describe('linked account', () => {
  it('shows the number, the Qantas Points balance and since when it is linked', async () => {
    stub = backend({ 'GET /api/qff/points': { body: LINKED } });
    await renderView('full');
    expect(await screen.findByText('48,250 Qantas Points')).toBeInTheDocument();
    const section = screen.getByRole('region', { name: 'Qantas Frequent Flyer' });
    expect(within(section).getByText('1900123456')).toBeInTheDocument();
    expect(within(section).getByText('20 Nov 2026')).toBeInTheDocument();
    expect(within(section).getByRole('button', { name: 'Unlink' })).toBeInTheDocument();
  });

  it('says why the balance is missing when the partner could not be read', async () => {
    stub = backend({
      'GET /api/qff/points': { body: { ...LINKED, points: null, partner_error: "We can't reach Qantas Frequent Flyer right now." } },
    });
    await renderView('full');
    expect(await screen.findByText("We can't reach Qantas Frequent Flyer right now.")).toBeInTheDocument();
    expect(screen.queryByText(/48,250/)).toBeNull();
  });

  it('lists the recent activity: the first 5, then the rest with "Show more"', async () => {
    stub = backend({ 'GET /api/qff/points': { body: LINKED } });
    await renderView('full');
    const activitySection = await screen.findByRole('region', { name: 'Qantas activity' });
    await within(activitySection).findByText('Points from My Store 1');
    expect(within(activitySection).getAllByRole('listitem')).toHaveLength(5);
    expect(within(activitySection).getByText('Showing 5 of 7')).toBeInTheDocument();
    expect(within(activitySection).getByText('+100')).toBeInTheDocument();
    expect(within(activitySection).getByText('29 Nov 2026')).toBeInTheDocument();
    fireEvent.click(within(activitySection).getByRole('button', { name: 'Show more' }));
    expect(within(activitySection).getAllByRole('listitem')).toHaveLength(7);
    expect(within(activitySection).getByText('Showing 7 of 7')).toBeInTheDocument();
    expect(within(activitySection).queryByRole('button', { name: 'Show more' })).toBeNull();
    // The focus goes to the first entry "Show more" brought.
    await waitFor(() => expect(document.activeElement).toHaveTextContent('Points from My Store 6'));
    expect(callsTo(stub, 'GET', '/api/qff/history')[0].url).toBe('/api/qff/history?page=1&per_page=20');
  });

  it('fetches the next page of activity when "Show more" needs it', async () => {
    const first = Array.from({ length: 20 }, (_, i) => activity(i + 1));
    stub = backend({
      'GET /api/qff/points': { body: LINKED },
      'GET /api/qff/history': (req) =>
        /[?&]page=2(&|$)/.test(req.url)
          ? { body: { data: [activity(21, { category: 'flight', points: -50 })], meta: { page: 2, per_page: 20, total: 21 } } }
          : { body: historyPage(first, 21) },
    });
    await renderView('full');
    const activitySection = await screen.findByRole('region', { name: 'Qantas activity' });
    await within(activitySection).findByText('Showing 5 of 21');
    fireEvent.click(within(activitySection).getByRole('button', { name: 'Show more' }));
    // 20 are loaded: those show at once, and the next page is asked for.
    expect(within(activitySection).getByText('Showing 20 of 21')).toBeInTheDocument();
    expect(await within(activitySection).findByText('Showing 21 of 21')).toBeInTheDocument();
    expect(callsTo(stub, 'GET', '/api/qff/history').map((c) => c.url)).toEqual([
      '/api/qff/history?page=1&per_page=20',
      '/api/qff/history?page=2&per_page=20',
    ]);
    expect(within(activitySection).getByText('−50')).toBeInTheDocument();
    expect(within(activitySection).getByText('Flight')).toBeInTheDocument();
  });

  it('tells the partner being down in the activity, with a retry', async () => {
    let down = true;
    stub = backend({
      'GET /api/qff/points': { body: LINKED },
      'GET /api/qff/history': () => (down ? partnerDown() : { body: historyPage(HISTORY) }),
    });
    await renderView('full');
    const activitySection = await screen.findByRole('region', { name: 'Qantas activity' });
    expect(await within(activitySection).findByText(PARTNER_DOWN, undefined, { timeout: 3000 })).toBeInTheDocument();
    down = false;
    fireEvent.click(within(activitySection).getByRole('button', { name: 'Try again' }));
    expect(await within(activitySection).findByText('Points from My Store 1')).toBeInTheDocument();
  });
});

describe('unlink', () => {
  async function openUnlink() {
    await renderView('full');
    const button = await screen.findByRole('button', { name: 'Unlink' });
    fireEvent.click(button);
    return { button, dialog: screen.getByRole('dialog', { name: 'Unlink your Qantas Frequent Flyer account?' }) };
  }

  it('asks first (focus on Cancel), needs a reason, then unlinks with the reason and comment', async () => {
    let linked = true;
    stub = backend({
      'GET /api/qff/points': () => ({ body: linked ? LINKED : NOT_LINKED }),
      'DELETE /api/qff/link': () => {
        linked = false;
        return { body: NOT_LINKED };
      },
    });
    const { button, dialog } = await openUnlink();
    expect(dialog).toHaveAccessibleDescription(/Frequent Flyer account 1900123456 will no longer be linked/);
    expect(document.activeElement).toHaveAccessibleName('Cancel');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);

    fireEvent.click(button);
    const again = screen.getByRole('dialog');
    fireEvent.click(within(again).getByRole('button', { name: 'Unlink' }));
    const reason = within(again).getByLabelText('Why are you unlinking it?');
    await waitFor(() => expect(reason).toHaveAttribute('aria-invalid', 'true'));
    expect(reason).toHaveAccessibleDescription('Choose a reason');
    expect(callsTo(stub, 'DELETE', '/api/qff/link')).toHaveLength(0);

    fireEvent.change(reason, { target: { value: 'not_using' } });
    fireEvent.change(within(again).getByLabelText('Anything to add? (optional)'), { target: { value: ' Moving overseas ' } });
    fireEvent.click(within(again).getByRole('button', { name: 'Unlink' }));
    await waitFor(() => expect(toasts()).toContain('success: Your Qantas Frequent Flyer account is unlinked'));
    expect(callsTo(stub, 'DELETE', '/api/qff/link')[0].body).toEqual({ reason: 'not_using', comment: 'Moving overseas' });
    expect(await screen.findByRole('form', { name: 'Link your Qantas Frequent Flyer account' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(eventsNamed('rewards_qff_unlink')).toEqual([{ type: 'event', name: 'rewards_qff_unlink', params: { reason: 'not_using' } }]);
  });

  it('shows a refused reason at its field and the partner being down above the buttons', async () => {
    const answers = [failure(422, 'Please check the highlighted fields', { reason: 'Choose one of the listed reasons' }), partnerDown()];
    stub = backend({ 'GET /api/qff/points': { body: LINKED }, 'DELETE /api/qff/link': () => answers.shift()! });
    const { dialog } = await openUnlink();
    fireEvent.change(within(dialog).getByLabelText('Why are you unlinking it?'), { target: { value: 'privacy' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unlink' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Why are you unlinking it?')).toHaveAccessibleDescription('Choose one of the listed reasons'),
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unlink' }));
    expect(await within(dialog).findByText(PARTNER_DOWN)).toBeInTheDocument();
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });
});

describe('staff viewing the account', () => {
  it('shows the account without any write: no Unlink, no conversion form', async () => {
    authStore.set({ impersonating: true });
    stub = backend({ 'GET /api/qff/points': { body: LINKED } });
    await renderView('full');
    expect(await screen.findByText('48,250 Qantas Points')).toBeInTheDocument();
    expect(
      screen.getAllByText("You're viewing this account as staff: linking, unlinking and converting points are turned off.").length,
    ).toBeGreaterThan(0);
    expect(screen.queryByRole('button', { name: 'Unlink' })).toBeNull();
    expect(await screen.findByText('You have 3,049 points.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Convert' })).toBeNull();
    expect(screen.queryByLabelText('Points to convert')).toBeNull();
  });

  it('offers no link wizard', async () => {
    authStore.set({ impersonating: true });
    stub = backend();
    await renderView('full');
    expect(
      await screen.findByText("You're viewing this account as staff: linking, unlinking and converting points are turned off."),
    ).toBeInTheDocument();
    expect(screen.queryByRole('form')).toBeNull();
    expect(screen.queryByLabelText('Frequent Flyer number')).toBeNull();
  });

  it('in My Details: no wizard and no Unlink', async () => {
    authStore.set({ impersonating: true });
    stub = backend();
    const view = await renderView('identity', '/profile');
    expect(await screen.findByText('No Qantas Frequent Flyer account is linked.')).toBeInTheDocument();
    view.unmount();
    stub.restore();
    resetAll();
    authStore.set({ impersonating: true });
    stub = backend({ 'GET /api/qff/points': { body: LINKED } });
    await renderView('identity', '/profile');
    expect(await screen.findByText('48,250 Qantas Points')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Unlink' })).toBeNull();
  });
});
