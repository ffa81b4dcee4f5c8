// My sessions by device (issue 24): sessions pile up one per sign-in, the list shows one row per
// device with how often it signed in and when it was last active; "Sign out this device" ends
// every session of that device, "Sign out" on this one its older sessions and then this one.
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { authStore } from '@portal/runtime';
import { HERE, PHONE, calls, items, openPrivacy, privacyBackend, server, startPrivacyServer, stopPrivacyServer } from './privacy-fixtures';

beforeEach(startPrivacyServer);
afterEach(stopPrivacyServer);

const again = (id: string, signedIn: string, lastSeen: string | null) => ({ ...PHONE, id, signed_in_at: signedIn, last_seen_at: lastSeen });

describe('My sessions by device', () => {
  it('shows one row per device with its sign-ins and last activity, this device first and labelled', async () => {
    server.live = [
      again('ses_phone3', '2026-11-23T11:00:00Z', '2026-11-23T11:30:00Z'),
      again('ses_phone2', '2026-11-23T10:00:00Z', null),
      PHONE,
      HERE,
      { ...HERE, id: 'ses_here_old', current: false, signed_in_at: '2026-11-22T20:00:00Z', ip: '203.0.113.0' },
    ];
    server.stub.restore();
    server.stub = privacyBackend();
    await openPrivacy();
    const rows = items();
    expect(rows).toHaveLength(2);
    const [here, phone] = rows;
    expect(within(here).getByText('This device')).toBeInTheDocument();
    expect(here).toHaveTextContent('Sign-ins2');
    expect(within(here).getByRole('button', { name: 'Sign out' })).toBeInTheDocument();
    expect(phone).toHaveTextContent('Safari 18 on iOS 18');
    expect(phone).toHaveTextContent('Sign-ins3');
    // The newest use of any of its sessions, in the kit's dateTime style and relative to now.
    expect(phone).toHaveTextContent(/Last active23 Nov 2026, 10:30 pm \(.+\)/);
    expect(within(phone).getByRole('button', { name: /^Sign out this device \(Safari 18 on iOS 18,/ })).toBeInTheDocument();
  });

  it('"Sign out this device" ends every session of that device', async () => {
    server.live = [again('ses_phone2', '2026-11-23T10:00:00Z', null), PHONE, HERE];
    server.stub.restore();
    server.stub = privacyBackend();
    await openPrivacy();
    fireEvent.click(within(items()[1]).getByRole('button', { name: /^Sign out this device/ }));
    fireEvent.click(within(screen.getByRole('dialog', { name: 'Sign out this device?' })).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(items()).toHaveLength(1));
    expect(calls('DELETE').map((c) => c.path)).toEqual(['/api/privacy/devices/dev_ses_phone2']);
    expect(server.live.map((s) => s.id)).toEqual(['ses_here']);
  });

  it('"Sign out" on this device ends its older sessions too, then signs out here', async () => {
    server.live = [HERE, { ...HERE, id: 'ses_here_old', current: false, signed_in_at: '2026-11-22T20:00:00Z' }, PHONE];
    server.stub.restore();
    server.stub = privacyBackend();
    await openPrivacy();
    fireEvent.click(within(items()[0]).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(authStore.get().loggedOut).toBe(true));
    expect(calls('DELETE').map((c) => c.path)).toEqual(['/api/privacy/devices/dev_ses_here']);
    expect(authStore.get().ended).toBeNull();
  });
});
