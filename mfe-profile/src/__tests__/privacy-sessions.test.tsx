// The privacy centre (/profile/privacy, issue 13), its sessions against the REST contract at the
// fetch boundary: the signed-in devices, signing one or all the others out, and the staff viewing
// the account now, each view ended by the member.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { authStore, networkStore, setLanguage, languageReady } from '@portal/runtime';
import { onAnalytics, type AnalyticsEvent } from '@portal/runtime/testing';
import { errorAnswer } from '@portal/kit/screen-testing';
import { renderAt, toasts } from './fixtures';
import { KIM, SAM, calls, items, openPrivacy, privacyBackend, server, startPrivacyServer, stopPrivacyServer } from './privacy-fixtures';

beforeEach(startPrivacyServer);
afterEach(stopPrivacyServer);

describe('My sessions', () => {
  it('lists every device: this one first and marked, the place or "Unknown location", times in the tenant zone', async () => {
    await openPrivacy();
    expect(screen.getByRole('heading', { level: 2, name: 'My sessions' })).toBeInTheDocument();
    const [here, phone, old] = items();
    expect(items()).toHaveLength(3);

    expect(within(here).getByText('This device')).toBeInTheDocument();
    expect(here).toHaveTextContent('Chrome 131 on Windows 11');
    expect(here).toHaveTextContent('DeviceComputer');
    expect(here).toHaveTextContent('LocationMelbourne, Australia');
    // 23:30 UTC is 10:30 the next morning in Melbourne (daylight time), in the page's language.
    expect(within(here).getByText('23 Nov 2026, 10:30 am')).toHaveAttribute('dateTime', '2026-11-22T23:30:00Z');
    expect(here).toHaveTextContent('Last active23 Nov 2026, 12:05 pm');
    expect(here).toHaveTextContent('IP address203.0.113.0');
    expect(within(here).queryByRole('button', { name: /Sign out this device/ })).not.toBeInTheDocument();
    expect(within(here).getByRole('button', { name: 'Sign out' })).toBeInTheDocument();

    expect(within(phone).queryByText('This device')).not.toBeInTheDocument();
    expect(phone).toHaveTextContent('Safari 18 on iOS 18');
    expect(phone).toHaveTextContent('DevicePhone');
    expect(phone).toHaveTextContent('LocationUnknown location');
    expect(phone).not.toHaveTextContent('Last active');
    expect(
      within(phone).getByRole('button', { name: 'Sign out this device (Safari 18 on iOS 18, 23 Nov 2026, 8:00 pm)' }),
    ).toBeInTheDocument();

    expect(old).toHaveTextContent('Unknown browser');
    expect(old).toHaveTextContent('DeviceUnknown device');
    expect(old).toHaveTextContent('LocationUnknown location');
    expect(old).not.toHaveTextContent('IP address');

    expect(screen.getByRole('button', { name: 'Sign out everywhere else' })).toBeInTheDocument();
    expect(calls('GET').map((c) => c.path)).toEqual(['/api/privacy/sessions']);
    expect(calls('GET')[0].headers.Authorization).toBe('Bearer token-p_demo');
  });

  it('writes the labels and dates in the page language (Arabic)', async () => {
    setLanguage('ar');
    await act(() => languageReady());
    await renderAt('/profile/privacy');
    await screen.findByRole('heading', { level: 1, name: 'مركز الخصوصية' });
    await screen.findByText('هذا الجهاز');
    const [here, phone] = items();
    expect(here).toHaveTextContent('Chrome 131 على Windows 11');
    expect(phone).toHaveTextContent('موقع غير معروف');
    // The kit's dateTime style in Arabic (Western digits), 23:30Z being 10:30 am in Melbourne.
    expect(within(here).getByText('23 نوفمبر 2026، 10:30 ص')).toBeInTheDocument();
  });

  it('signs one device out after a confirmation, reads the list again and puts the focus on the section', async () => {
    await openPrivacy();
    const phoneButton = within(items()[1]).getByRole('button', { name: /^Sign out this device/ });

    fireEvent.click(phoneButton);
    let dialog = screen.getByRole('dialog', { name: 'Sign out this device?' });
    expect(dialog).toHaveAccessibleDescription(
      'Safari 18 on iOS 18 will be signed out of your account. Anyone using it will need to sign in again.',
    );
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(calls('DELETE')).toEqual([]);

    fireEvent.click(phoneButton);
    dialog = screen.getByRole('dialog', { name: 'Sign out this device?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(items()).toHaveLength(2));
    expect(calls('DELETE').map((c) => c.path)).toEqual(['/api/privacy/devices/dev_ses_phone']);
    expect(calls('GET').map((c) => c.path)).toEqual(['/api/privacy/sessions', '/api/privacy/sessions']);
    expect(document.querySelector('ul.sessions')).not.toHaveTextContent('Safari 18');
    expect(toasts()).toEqual(['success: Safari 18 on iOS 18 has been signed out']);
    await waitFor(() => expect(screen.getByRole('heading', { level: 2, name: 'My sessions' })).toHaveFocus());
    // Still signed in here.
    expect(authStore.get().authenticated).toBe(true);
  });

  it('a device already signed out elsewhere (404) is said so and the list read again', async () => {
    await openPrivacy();
    server.live = server.live.filter((s) => s.id !== 'ses_phone');
    fireEvent.click(within(items()[1]).getByRole('button', { name: /^Sign out this device/ }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(items()).toHaveLength(2));
    expect(toasts()).toEqual(['info: That device was already signed out']);
  });

  it('a failed sign-out says so and keeps the device listed', async () => {
    server.stub.restore();
    server.stub = privacyBackend({ 'DELETE /api/privacy/devices/dev_ses_phone': errorAnswer(500, 'Internal error') });
    await openPrivacy();
    fireEvent.click(within(items()[1]).getByRole('button', { name: /^Sign out this device/ }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(toasts()).toEqual(["error: We couldn't sign that device out. Please try again."]));
    expect(items()).toHaveLength(3);
  });

  it('signs out everywhere else, keeping this device', async () => {
    const events: AnalyticsEvent[] = [];
    const off = onAnalytics((e) => events.push(e));
    await openPrivacy();
    fireEvent.click(screen.getByRole('button', { name: 'Sign out everywhere else' }));
    const dialog = screen.getByRole('dialog', { name: 'Sign out everywhere else?' });
    expect(dialog).toHaveAccessibleDescription(/Every other device signed in to your account will be signed out/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign out everywhere else' }));
    await screen.findByText("You're only signed in on this device.");
    expect(calls('POST').map((c) => c.path)).toEqual(['/api/privacy/sessions/revoke-others']);
    expect(items()).toHaveLength(1);
    expect(items()[0]).toHaveTextContent('This device');
    expect(screen.queryByRole('button', { name: 'Sign out everywhere else' })).not.toBeInTheDocument();
    expect(toasts()).toEqual(['success: All your other devices have been signed out']);
    expect(screen.getByRole('heading', { level: 2, name: 'My sessions' })).toHaveFocus();
    expect(events.filter((e) => e.type === 'event').map((e) => [e.name, e.params])).toEqual([['my_details_sign_out_others', { count: 2 }]]);
    expect(authStore.get().authenticated).toBe(true);
    off();
  });

  it('signing out this device logs out through the runtime (no session DELETE)', async () => {
    await openPrivacy();
    fireEvent.click(within(items()[0]).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(authStore.get().loggedOut).toBe(true));
    expect(authStore.get().authenticated).toBe(false);
    expect(calls('DELETE')).toEqual([]);
    expect(calls('POST', '/api/auth/logout')).toHaveLength(1);
  });
});

describe('Staff viewing your account', () => {
  const section = () => screen.getByRole('heading', { level: 2, name: 'Staff viewing your account' }).closest('section')!;
  const viewItems = () => within(section()).getAllByRole('listitem');

  it('is not there while nobody is viewing', async () => {
    await openPrivacy();
    expect(screen.queryByRole('heading', { name: 'Staff viewing your account' })).toBeNull();
    expect(screen.queryByRole('button', { name: /End this view/ })).toBeNull();
  });

  it('lists who is viewing now: name, since when, last active and until when, in the tenant zone', async () => {
    server.views = [SAM, KIM];
    await openPrivacy();
    const [sam, kim] = viewItems();
    expect(viewItems()).toHaveLength(2);
    expect(within(sam).getByText('Sam Staff').tagName).toBe('BDI');
    // 01:00 UTC is noon in Melbourne (daylight time).
    expect(sam).toHaveTextContent('Viewing since23 Nov 2026, 12:00 pm');
    expect(within(sam).getByText('23 Nov 2026, 12:00 pm')).toHaveAttribute('dateTime', SAM.started_at);
    expect(sam).toHaveTextContent('Last active23 Nov 2026, 12:20 pm');
    expect(sam).toHaveTextContent('Ends by23 Nov 2026, 1:00 pm');
    expect(kim).toHaveTextContent('Kim Support');
    expect(kim).not.toHaveTextContent('Last active');
    expect(within(sam).getByRole('button', { name: 'End this view (Sam Staff)' })).toBeInTheDocument();
    // Not among the devices.
    expect(items()).toHaveLength(3);
    expect(document.querySelector('ul.sessions')).not.toHaveTextContent('Sam Staff');
  });

  it('ends a view after a confirmation, reads the list again; the last one gone, the section goes and the focus to My sessions', async () => {
    const events: AnalyticsEvent[] = [];
    const off = onAnalytics((e) => events.push(e));
    server.views = [SAM, KIM];
    await openPrivacy();
    const end = within(viewItems()[0]).getByRole('button', { name: 'End this view (Sam Staff)' });

    fireEvent.click(end);
    let dialog = screen.getByRole('dialog', { name: 'End this staff view?' });
    expect(dialog).toHaveAccessibleDescription('Sam Staff will no longer be able to see your account.');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(calls('DELETE')).toEqual([]);
    expect(end).toHaveFocus();

    fireEvent.click(end);
    dialog = screen.getByRole('dialog', { name: 'End this staff view?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'End view' }));
    await waitFor(() => expect(viewItems()).toHaveLength(1));
    expect(calls('DELETE').map((c) => c.path)).toEqual(['/api/privacy/sessions/stv_sam']);
    expect(calls('GET').map((c) => c.path)).toEqual(['/api/privacy/sessions', '/api/privacy/sessions']);
    expect(toasts()).toEqual(['success: Sam Staff can no longer see your account']);
    await waitFor(() => expect(screen.getByRole('heading', { level: 2, name: 'Staff viewing your account' })).toHaveFocus());

    fireEvent.click(within(viewItems()[0]).getByRole('button', { name: 'End this view (Kim Support)' }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'End view' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Staff viewing your account' })).toBeNull());
    await waitFor(() => expect(screen.getByRole('heading', { level: 2, name: 'My sessions' })).toHaveFocus());
    expect(calls('DELETE').map((c) => c.path)).toEqual(['/api/privacy/sessions/stv_sam', '/api/privacy/sessions/stv_kim']);
    // The member's own devices are untouched, and this one still signed in.
    expect(items()).toHaveLength(3);
    expect(authStore.get().authenticated).toBe(true);
    expect(events.filter((e) => e.type === 'event').map((e) => e.name)).toEqual(['my_details_end_staff_view', 'my_details_end_staff_view']);
    off();
  });

  it('a view that had already ended (404) is said so and the list read again', async () => {
    server.views = [SAM];
    await openPrivacy();
    server.views = [];
    fireEvent.click(within(viewItems()[0]).getByRole('button', { name: /^End this view/ }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'End view' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Staff viewing your account' })).toBeNull());
    expect(toasts()).toEqual(['info: That view had already ended']);
  });

  it('a failure says so and keeps the view listed', async () => {
    server.views = [SAM];
    server.stub.restore();
    server.stub = privacyBackend({ 'DELETE /api/privacy/sessions/stv_sam': errorAnswer(500, 'Internal error') });
    await openPrivacy();
    fireEvent.click(within(viewItems()[0]).getByRole('button', { name: /^End this view/ }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'End view' }));
    await waitFor(() => expect(toasts()).toEqual(["error: We couldn't end that view. Please try again."]));
    expect(viewItems()).toHaveLength(1);
  });

  it('is off with the reason while offline', async () => {
    server.views = [SAM];
    await openPrivacy();
    act(() => networkStore.set({ online: false }));
    const end = screen.getByRole('button', { name: /^End this view/ });
    expect(end).toBeDisabled();
    expect(end).toHaveAccessibleDescription("You're offline. You can save again when you're back online.");
    act(() => networkStore.set({ online: true }));
    expect(end).toBeEnabled();
  });
});
