import type { ReactNode } from 'react';
import { act, fireEvent, renderHook, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
import type { FetchStub, StubResponse } from '@portal/kit/fetch-stub';
import { PROFILE, backend, refused, renderAt, resetAll, toasts } from './fixtures';
import { queryClient } from '../providers';
import { profileKey } from '../features/shared/hooks/use-profile';
import { useUpdateComms } from '../features/messaging/hooks/use-comms';
import { SAVED_VISIBLE_MS } from '../features/messaging/components/Messaging';
import type { Profile } from '@portal/runtime';

let stub: FetchStub;

beforeEach(() => {
  resetAll();
  stub = backend();
});
afterEach(() => stub.restore());

/** A route whose answer the test releases when it wants. */
function held() {
  let release!: (r: StubResponse) => void;
  const answer = new Promise<StubResponse>((resolve) => (release = resolve));
  return { route: () => answer, release };
}

const withComms = (change: Record<string, boolean>): Profile => ({
  ...PROFILE,
  attributes: { comms: { ...PROFILE.attributes.comms, ...change } },
});

const toggle = (name: string) => screen.getByRole('switch', { name }) as HTMLInputElement;

describe('Messaging Preferences', () => {
  it('shows the tenant’s channels and topics as switches', async () => {
    await renderAt('/messaging');
    expect(screen.getByRole('heading', { level: 1, name: 'Messaging Preferences' })).toBeInTheDocument();
    const channels = (await screen.findByRole('group', { name: 'How we contact you' })) as HTMLElement;
    expect(
      within(channels)
        .getAllByRole('switch')
        .map((s) => [s.getAttribute('id'), (s as HTMLInputElement).checked]),
    ).toEqual([
      ['comms-email', true],
      ['comms-sms', false],
      ['comms-push', true],
      ['comms-post', false],
    ]);
    const topics = screen.getByRole('group', { name: 'What we contact you about' });
    expect(within(topics).getByRole('switch', { name: 'Offers and promotions' })).toBeChecked();
    expect(within(topics).getByRole('switch', { name: 'News' })).not.toBeChecked();
  });

  it('applies a change at once, then keeps the server’s answer', async () => {
    const put = held();
    stub = backend({ 'PUT /api/profile/attributes/comms': put.route });
    await renderAt('/messaging');
    await screen.findByRole('switch', { name: 'SMS' });
    fireEvent.click(toggle('SMS'));
    // Optimistic: on before the server has answered.
    await waitFor(() => expect(toggle('SMS')).toBeChecked());
    expect(stub.calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ sms: true }]);
    await act(async () => put.release({ body: withComms({ sms: true }) }));
    expect(toggle('SMS')).toBeChecked();
    expect(queryClient.getQueryData<Profile>(profileKey('p_demo'))?.attributes.comms.sms).toBe(true);
    // The consent history is reloaded after a change.
    await waitFor(() => expect(stub.calls.filter((c) => c.path.endsWith('/comms/history'))).toHaveLength(2));
  });

  it('restores the previous state and shows an error toast when the server refuses', async () => {
    const put = held();
    stub = backend({ 'PUT /api/profile/attributes/comms': put.route });
    await renderAt('/messaging');
    await screen.findByRole('switch', { name: 'Email' });
    fireEvent.click(toggle('Email'));
    await waitFor(() => expect(toggle('Email')).not.toBeChecked());
    await act(async () => put.release({ status: 500, body: { status: 500, message: 'boom', errors: {}, error: true } }));
    await waitFor(() => expect(toggle('Email')).toBeChecked());
    expect(toasts()).toEqual(["error: We couldn't update your messaging preferences. Please try again."]);
  });

  it('only rolls back what the refused change touched', async () => {
    const first = held();
    const second = held();
    let n = 0;
    stub = backend({ 'PUT /api/profile/attributes/comms': () => (++n === 1 ? first.route() : second.route()) });
    await renderAt('/messaging');
    await screen.findByRole('switch', { name: 'Post' });
    fireEvent.click(toggle('Post'));
    fireEvent.click(toggle('News'));
    // Both shown at once, though the second is only sent once the first is answered.
    await waitFor(() => expect(toggle('Post')).toBeChecked());
    await waitFor(() => expect(toggle('News')).toBeChecked());
    expect(stub.calls.filter((c) => c.method === 'PUT')).toHaveLength(1);
    await act(async () => first.release(refused({ post: 'Not allowed' })));
    // Post goes back; News, still waiting for its answer, stays as the member set it.
    await waitFor(() => expect(toggle('Post')).not.toBeChecked());
    expect(toggle('News')).toBeChecked();
    await waitFor(() => expect(stub.calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ post: true }, { news: true }]));
    await act(async () => second.release({ body: withComms({ news: true }) }));
    expect(toggle('News')).toBeChecked();
    expect(toggle('Post')).not.toBeChecked();
  });

  it('says "Saved" next to the switch, politely, for a few seconds', async () => {
    stub = backend({ 'PUT /api/profile/attributes/comms': { body: withComms({ sms: true }) } });
    await renderAt('/messaging');
    await screen.findByRole('switch', { name: 'SMS' });
    fireEvent.click(toggle('SMS'));
    const row = toggle('SMS').closest('li')!;
    const status = within(row).getByRole('status');
    expect(status).toHaveAttribute('aria-live', 'polite');
    await waitFor(() => expect(status).toHaveTextContent('Saved'));
    // Only that switch says so; the switch's name stays its own.
    expect(within(toggle('Email').closest('li')!).getByRole('status')).toHaveTextContent('');
    expect(toggle('SMS')).toHaveAccessibleName('SMS');
    // Then it goes (after SAVED_VISIBLE_MS).
    await waitFor(() => expect(status).toHaveTextContent(''), { timeout: SAVED_VISIBLE_MS + 1000 });
  }, 15000);

  it('says next to the switch that a refused change was not saved, and puts it back', async () => {
    stub = backend({
      'PUT /api/profile/attributes/comms': { status: 500, body: { status: 500, message: 'boom', errors: {}, error: true } },
    });
    await renderAt('/messaging');
    await screen.findByRole('switch', { name: 'Email' });
    fireEvent.click(toggle('Email'));
    const status = within(toggle('Email').closest('li')!).getByRole('status');
    await waitFor(() => expect(status).toHaveTextContent("Couldn't save"));
    expect(toggle('Email')).toBeChecked();
  });

  it('rethrows the refusal to whoever awaits the change (spec 8)', async () => {
    stub = backend({ 'PUT /api/profile/attributes/comms': refused({ fax: 'Unknown preference' }) });
    queryClient.setQueryData(profileKey('p_demo'), PROFILE);
    const wrapper = ({ children }: { children: ReactNode }) => <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>;
    const { result } = renderHook(() => useUpdateComms(), { wrapper });
    await act(async () => {
      await expect(result.current.mutateAsync({ push: false })).rejects.toMatchObject({
        status: 422,
        errors: { fax: 'Unknown preference' },
      });
    });
    expect(queryClient.getQueryData<Profile>(profileKey('p_demo'))?.attributes.comms.push).toBe(true);
    expect(toasts()).toHaveLength(1);
  });

  it('lists the consent history with source and time in the tenant’s zone', async () => {
    stub = backend({
      'GET /api/profile/attributes/comms/history': {
        body: {
          data: [
            { channel: 'sms', value: true, source: 'member', at: '2026-11-02T03:20:00Z' },
            { channel: 'offers', value: false, source: 'import', at: '2026-06-01T00:00:00Z' },
          ],
        },
      },
    });
    await renderAt('/messaging');
    const section = (await screen.findByRole('heading', { level: 2, name: 'Consent history' })).closest('section')!;
    const items = await within(section).findAllByRole('listitem');
    expect(items[0]).toHaveTextContent('SMS: Subscribed');
    expect(items[0]).toHaveTextContent('Changed by you');
    expect(within(items[0]).getByText('2 Nov 2026, 2:20 pm')).toHaveAttribute('dateTime', '2026-11-02T03:20:00Z');
    expect(items[1]).toHaveTextContent('Offers and promotions: Not subscribed');
    expect(items[1]).toHaveTextContent('Imported from our records');
    // 00:00 UTC on 1 June is 10:00 am in Melbourne (standard time).
    expect(within(items[1]).getByText('1 June 2026, 10:00 am')).toBeInTheDocument();
  });
});
