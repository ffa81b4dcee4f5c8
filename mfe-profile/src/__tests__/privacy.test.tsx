// The privacy centre (/profile/privacy, issue 13) against the REST contract at the fetch boundary:
// the signed-in devices, signing one or all the others out, the data download, deleting the
// account with an emailed code (then deleteMyAccount to the native app and the Logged out
// screen), and nothing of it for staff viewing an account.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { authStore, networkStore, onAnalytics, setLanguage, languageReady, type AnalyticsEvent } from '@portal/runtime';
import type { FetchStub, StubRequest } from '@portal/build/fetch-stub';
import { errorAnswer } from '@portal/build/screen-testing';
import { installReactNative, postedActions, postedEvents, removeNativeWrappers } from '@portal/build/native-testing';
import type { PrivacySession, StaffView } from '../features/privacy/api/privacy';
import { backend, renderAt, resetAll, toasts } from './fixtures';

const HERE: PrivacySession = {
  id: 'ses_here',
  current: true,
  signed_in_at: '2026-11-22T23:30:00Z',
  last_seen_at: '2026-11-23T01:05:00Z',
  expires_at: '2026-12-22T23:30:00Z',
  browser: 'Chrome 131',
  os: 'Windows 11',
  device: 'desktop',
  place: 'Melbourne, Australia',
  ip: '203.0.113.0',
};
const PHONE: PrivacySession = {
  id: 'ses_phone',
  current: false,
  signed_in_at: '2026-11-23T09:00:00Z',
  last_seen_at: null,
  expires_at: '2026-12-23T09:00:00Z',
  browser: 'Safari 18',
  os: 'iOS 18',
  device: 'mobile',
  place: null,
  ip: '198.51.100.0',
};
const OLD: PrivacySession = {
  id: 'ses_old',
  current: false,
  signed_in_at: '2026-10-01T01:00:00Z',
  last_seen_at: null,
  expires_at: '2026-10-31T01:00:00Z',
  browser: null,
  os: null,
  device: null,
  place: null,
  ip: null,
};

const SAM: StaffView = {
  id: 'stv_sam',
  staff_name: 'Sam Staff',
  started_at: '2026-11-23T01:00:00Z',
  last_seen_at: '2026-11-23T01:20:00Z',
  expires_at: '2026-11-23T02:00:00Z',
};
const KIM: StaffView = {
  id: 'stv_kim',
  staff_name: 'Kim Support',
  started_at: '2026-11-23T01:10:00Z',
  last_seen_at: null,
  expires_at: '2026-11-23T02:10:00Z',
};

let stub: FetchStub;
/** The server's sessions: DELETE and revoke-others change them, GET lists them (newest first). */
let live: PrivacySession[];
/** Staff viewing the account now: DELETE ends one. */
let views: StaffView[];
let posted: Record<string, unknown>[];

/** The privacy routes as the gateway answers them, over the profile routes every page reads. */
function privacyBackend(routes: Parameters<typeof backend>[0] = {}) {
  return backend({
    'GET /api/privacy/sessions': () => ({ body: { sessions: live, staff_views: views } }),
    'POST /api/privacy/sessions/revoke-others': () => {
      const revoked = live.filter((s) => !s.current).length;
      live = live.filter((s) => s.current);
      return { body: { revoked } };
    },
    'POST /api/auth/logout': { status: 204 },
    'POST /api/privacy/delete/code': { body: { sent: true, email: 'd***@example.com' } },
    ...Object.fromEntries(
      [SAM, KIM].map((v) => [
        `DELETE /api/privacy/sessions/${v.id}`,
        () => {
          const known = views.some((x) => x.id === v.id);
          views = views.filter((x) => x.id !== v.id);
          return known ? { status: 204 } : errorAnswer(404, 'Not found');
        },
      ]),
    ),
    ...Object.fromEntries(
      live.map((s) => [
        `DELETE /api/privacy/sessions/${s.id}`,
        () => {
          const known = live.some((x) => x.id === s.id);
          live = live.filter((x) => x.id !== s.id);
          return known ? { status: 204 } : errorAnswer(404, 'Not found');
        },
      ]),
    ),
    ...routes,
  });
}

beforeEach(() => {
  resetAll();
  live = [PHONE, HERE, OLD];
  views = [];
  posted = [];
  stub = privacyBackend();
});
afterEach(() => {
  stub.restore();
  removeNativeWrappers();
  authStore.set({ loggedOut: false });
});

const calls = (method: string, prefix = '/api/privacy') => stub.calls.filter((c) => c.method === method && c.path.startsWith(prefix));

async function openPrivacy() {
  await renderAt('/profile/privacy');
  await screen.findByRole('heading', { level: 1, name: 'Privacy centre' });
  await screen.findByText('This device');
}

const items = () => within(document.querySelector('ul.sessions') as HTMLElement).getAllByRole('listitem');

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
    const date = new Intl.DateTimeFormat('ar', { timeZone: 'Australia/Melbourne', dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date(HERE.signed_in_at),
    );
    expect(within(here).getByText(date)).toBeInTheDocument();
    expect(date).toContain('ص');
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
    expect(calls('DELETE').map((c) => c.path)).toEqual(['/api/privacy/sessions/ses_phone']);
    expect(calls('GET').map((c) => c.path)).toEqual(['/api/privacy/sessions', '/api/privacy/sessions']);
    expect(document.querySelector('ul.sessions')).not.toHaveTextContent('Safari 18');
    expect(toasts()).toEqual(['success: Safari 18 on iOS 18 has been signed out']);
    await waitFor(() => expect(screen.getByRole('heading', { level: 2, name: 'My sessions' })).toHaveFocus());
    // Still signed in here.
    expect(authStore.get().authenticated).toBe(true);
  });

  it('a device already signed out elsewhere (404) is said so and the list read again', async () => {
    await openPrivacy();
    live = live.filter((s) => s.id !== 'ses_phone');
    fireEvent.click(within(items()[1]).getByRole('button', { name: /^Sign out this device/ }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(items()).toHaveLength(2));
    expect(toasts()).toEqual(['info: That device was already signed out']);
  });

  it('a failed sign-out says so and keeps the device listed', async () => {
    stub.restore();
    stub = privacyBackend({ 'DELETE /api/privacy/sessions/ses_phone': errorAnswer(500, 'Internal error') });
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
    views = [SAM, KIM];
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
    views = [SAM, KIM];
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
    views = [SAM];
    await openPrivacy();
    views = [];
    fireEvent.click(within(viewItems()[0]).getByRole('button', { name: /^End this view/ }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'End view' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Staff viewing your account' })).toBeNull());
    expect(toasts()).toEqual(['info: That view had already ended']);
  });

  it('a failure says so and keeps the view listed', async () => {
    views = [SAM];
    stub.restore();
    stub = privacyBackend({ 'DELETE /api/privacy/sessions/stv_sam': errorAnswer(500, 'Internal error') });
    await openPrivacy();
    fireEvent.click(within(viewItems()[0]).getByRole('button', { name: /^End this view/ }));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'End view' }));
    await waitFor(() => expect(toasts()).toEqual(["error: We couldn't end that view. Please try again."]));
    expect(viewItems()).toHaveLength(1);
  });

  it('is off with the reason while offline', async () => {
    views = [SAM];
    await openPrivacy();
    act(() => networkStore.set({ online: false }));
    const end = screen.getByRole('button', { name: /^End this view/ });
    expect(end).toBeDisabled();
    expect(end).toHaveAccessibleDescription("You're offline. You can save again when you're back online.");
    act(() => networkStore.set({ online: true }));
    expect(end).toBeEnabled();
  });
});

describe('Download my data', () => {
  const FILE = JSON.stringify({ profile_id: 'p_demo', profile: { email: 'demo@example.com' }, points_ledger: [{ points: 500 }] }, null, 2);
  let exportCalls: { headers: Record<string, string> }[];
  let answer: { status: number; body: string; disposition?: string };
  let saved: { blob: Blob; url: string }[];
  let clicked: { href: string; download: string; connected: boolean }[];
  const created = URL.createObjectURL;
  const revoked = URL.revokeObjectURL;

  beforeEach(() => {
    exportCalls = [];
    saved = [];
    clicked = [];
    answer = { status: 200, body: FILE, disposition: 'attachment; filename="my-data-2026-11-23.json"' };
    // The export answer carries headers (Content-Disposition), which the shared stub does not:
    // this route is answered here, the rest by the stub.
    const inner = globalThis.fetch;
    globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
      if (new URL(String(input), 'http://localhost').pathname !== '/api/privacy/export') return inner(input, init);
      exportCalls.push({ headers: init.headers as Record<string, string> });
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (answer.disposition) headers['content-disposition'] = answer.disposition;
      return {
        ok: answer.status < 300,
        status: answer.status,
        headers: { get: (h: string) => headers[h.toLowerCase()] ?? null },
        text: async () => answer.body,
      } as unknown as Response;
    }) as typeof fetch;
    let n = 0;
    URL.createObjectURL = (blob: Blob) => {
      const url = `blob:http://localhost/file-${++n}`;
      saved.push({ blob: blob as Blob, url });
      return url;
    };
    URL.revokeObjectURL = () => undefined;
    jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download, connected: this.isConnected });
    });
  });
  afterEach(() => {
    URL.createObjectURL = created;
    URL.revokeObjectURL = revoked;
    jest.restoreAllMocks();
  });

  const readBlob = (blob: Blob) =>
    new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blob);
    });

  it('fetches the export with the member’s token and saves it under the server’s file name', async () => {
    await openPrivacy();
    const button = screen.getByRole('button', { name: 'Download my data' });
    fireEvent.click(button);
    expect(screen.getByRole('button', { name: 'Preparing your file…' })).toHaveAttribute('aria-busy', 'true');
    fireEvent.click(screen.getByRole('button', { name: 'Preparing your file…' }));
    await screen.findByText('Your data has been downloaded as my-data-2026-11-23.json.');
    expect(exportCalls).toHaveLength(1);
    expect(exportCalls[0].headers.Authorization).toBe('Bearer token-p_demo');
    expect(clicked).toEqual([{ href: 'blob:http://localhost/file-1', download: 'my-data-2026-11-23.json', connected: true }]);
    expect(saved).toHaveLength(1);
    expect(saved[0].blob.type).toBe('application/json');
    expect(await readBlob(saved[0].blob)).toBe(FILE);
    // The temporary link is gone; the button is back, focused where it was.
    expect(document.querySelector('a[download]')).toBeNull();
    expect(screen.getByRole('button', { name: 'Download my data' })).not.toHaveAttribute('aria-busy');
  });

  it('takes the RFC 5987 name when the server gives one', async () => {
    answer.disposition = `attachment; filename="my-data.json"; filename*=UTF-8''my%20data%E2%80%942026.json`;
    await openPrivacy();
    fireEvent.click(screen.getByRole('button', { name: 'Download my data' }));
    await screen.findByText('Your data has been downloaded as my data—2026.json.');
    expect(clicked.map((c) => c.download)).toEqual(['my data—2026.json']);
  });

  it('a refused export saves nothing and says so', async () => {
    answer = { status: 500, body: JSON.stringify({ status: 500, message: 'Internal error', errors: {}, error: true }) };
    await openPrivacy();
    fireEvent.click(screen.getByRole('button', { name: 'Download my data' }));
    await waitFor(() => expect(toasts()).toEqual(["error: We couldn't prepare your file. Please try again."]));
    expect(clicked).toEqual([]);
    expect(saved).toEqual([]);
  });
});

describe('Delete my account', () => {
  let deletes: { code: unknown; postedBefore: number }[];

  function deletingBackend() {
    deletes = [];
    stub.restore();
    stub = privacyBackend({
      'POST /api/privacy/delete': (req: StubRequest) => {
        const code = (req.body as { code?: string }).code;
        deletes.push({ code, postedBefore: postedActions(posted).length });
        return code === '123456'
          ? { body: { deleted: true } }
          : errorAnswer(422, 'Please check the highlighted fields', { code: 'That code is not right or has expired' });
      },
    });
  }

  async function sendCode() {
    await openPrivacy();
    const section = screen.getByRole('heading', { level: 2, name: 'Delete my account' }).closest('section')!;
    expect(section).toHaveTextContent('Your points history is kept only in anonymous form');
    expect(section).toHaveTextContent('This cannot be undone.');
    expect(within(section).queryByLabelText('6-digit code')).not.toBeInTheDocument();
    fireEvent.click(within(section).getByRole('button', { name: 'Send me a code' }));
    await waitFor(() =>
      expect(within(section).getByRole('status')).toHaveTextContent(
        "We've emailed a 6-digit code to d***@example.com. It expires in a few minutes.",
      ),
    );
    expect(calls('POST').map((c) => c.path)).toEqual(['/api/privacy/delete/code']);
    const code = within(section).getByLabelText('6-digit code');
    await waitFor(() => expect(code).toHaveFocus());
    return { section, code };
  }

  it('sends a code; a wrong code shows the field error and nothing else happens; the right one deletes, tells the app and logs out', async () => {
    installReactNative(posted);
    deletingBackend();
    const { section, code } = await sendCode();
    const confirm = within(section).getByRole('button', { name: 'Delete my account permanently' });

    // Not 6 digits: told at once, nothing sent.
    fireEvent.change(code, { target: { value: '12a45' } });
    expect(code).toHaveValue('1245');
    fireEvent.click(confirm);
    expect(within(section).getByRole('alert')).toHaveTextContent('Enter the 6 digits from the email.');
    expect(deletes).toEqual([]);

    // Wrong code: the server's field error, on the field, focused; no deletion, no app message, still signed in.
    fireEvent.change(code, { target: { value: '000000' } });
    fireEvent.click(confirm);
    await within(section).findByText('That code is not right or has expired');
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(code).toHaveAccessibleDescription('That code is not right or has expired');
    await waitFor(() => expect(code).toHaveFocus());
    expect(deletes.map((d) => d.code)).toEqual(['000000']);
    expect(postedActions(posted)).toEqual([]);
    expect(toasts()).toEqual([]);
    expect(authStore.get()).toMatchObject({ authenticated: true, loggedOut: false });

    // The right code: deleted on the server first, then deleteMyAccount, then the Logged out state.
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(confirm);
    await waitFor(() => expect(postedActions(posted)).toEqual([{ action: 'deleteMyAccount' }, { action: 'logout' }]));
    expect(deletes).toEqual([
      { code: '000000', postedBefore: 0 },
      { code: '123456', postedBefore: 0 },
    ]);
    expect(postedEvents(posted)).toEqual([{ name: 'my_details_delete_account', params: {} }]);
    expect(toasts()).toEqual(['success: Your account has been deleted']);
    await waitFor(() => expect(authStore.get().loggedOut).toBe(true));
    expect(authStore.get().authenticated).toBe(false);
  });

  it('without a native app the account is deleted on the server all the same, and the member logged out', async () => {
    deletingBackend();
    const { section, code } = await sendCode();
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Delete my account permanently' }));
    expect(within(section).getByRole('button', { name: 'Deleting…' })).toHaveAttribute('aria-busy', 'true');
    await waitFor(() => expect(authStore.get().loggedOut).toBe(true));
    expect(deletes.map((d) => d.code)).toEqual(['123456']);
    expect(calls('POST', '/api/auth/logout')).toHaveLength(1);
  });

  it('a wrong code in another language is told in that language', async () => {
    deletingBackend();
    setLanguage('de');
    await act(() => languageReady());
    await renderAt('/profile/privacy');
    const section = (await screen.findByRole('heading', { level: 2, name: 'Mein Konto löschen' })).closest('section')!;
    fireEvent.click(within(section).getByRole('button', { name: 'Code senden' }));
    const code = await within(section).findByLabelText('6-stelliger Code');
    fireEvent.change(code, { target: { value: '999999' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Mein Konto endgültig löschen' }));
    await within(section).findByText('Der Code ist falsch oder abgelaufen');
    expect(authStore.get().loggedOut).toBe(false);
  });

  it('a code that cannot be sent says so and shows no code field', async () => {
    stub.restore();
    stub = privacyBackend({ 'POST /api/privacy/delete/code': errorAnswer(429, 'Too many requests') });
    await openPrivacy();
    fireEvent.click(screen.getByRole('button', { name: 'Send me a code' }));
    await waitFor(() => expect(toasts()).toEqual(['error: Too many attempts. Please wait a few minutes and try again.']));
    expect(screen.queryByLabelText('6-digit code')).not.toBeInTheDocument();
  });
});

describe('offline', () => {
  it('every privacy write is off with the reason while offline, and back on online', async () => {
    await openPrivacy();
    act(() => networkStore.set({ online: false }));
    const others = screen.getByRole('button', { name: 'Sign out everywhere else' });
    expect(others).toBeDisabled();
    expect(others).toHaveAccessibleDescription("You're offline. You can save again when you're back online.");
    for (const one of screen.getAllByRole('button', { name: /^Sign out this device/ })) expect(one).toBeDisabled();
    const send = screen.getByRole('button', { name: 'Send me a code' });
    expect(send).toBeDisabled();
    fireEvent.click(send);
    fireEvent.click(others);
    expect(calls('POST')).toHaveLength(0);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    act(() => networkStore.set({ online: true }));
    expect(screen.getByRole('button', { name: 'Send me a code' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Sign out everywhere else' })).toBeEnabled();
  });
});

describe('the privacy centre in the portal', () => {
  it('is linked from My Details and from the section links, and reported as its own screen', async () => {
    const events: AnalyticsEvent[] = [];
    const off = onAnalytics((e) => events.push(e));
    await renderAt('/profile');
    await screen.findByRole('heading', { level: 2, name: 'Personal details' });
    const link = screen.getByRole('link', { name: 'Go to the privacy centre' });
    expect(link).toHaveAttribute('href', '/profile/privacy');
    expect(within(screen.getByRole('navigation', { name: 'My details sections' })).getByRole('link', { name: 'Privacy' })).toHaveAttribute(
      'href',
      '/profile/privacy',
    );
    await act(async () => {
      fireEvent.click(link);
    });
    await screen.findByRole('heading', { level: 1, name: 'Privacy centre' });
    expect(window.location.pathname).toBe('/profile/privacy');
    expect(within(screen.getByRole('navigation', { name: 'My details sections' })).getByRole('link', { name: 'Privacy' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(events.filter((e) => e.type === 'screen_view').map((e) => e.name)).toEqual(['My Details', 'Privacy Centre']);
    off();
  });

  it('staff viewing an account see none of it, and nothing is asked of the privacy API', async () => {
    authStore.set({ ...authStore.get(), impersonating: true, staff: true });
    await renderAt('/profile/privacy');
    await screen.findByRole('heading', { level: 1, name: 'Privacy centre' });
    expect(screen.getByText(/Staff viewing an account can't use the privacy centre/)).toBeInTheDocument();
    for (const name of [/Sign out/, 'Download my data', 'Send me a code', 'Delete my account permanently']) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
    expect(screen.queryByRole('heading', { name: 'My sessions' })).not.toBeInTheDocument();
    expect(stub.calls.filter((c) => c.path.startsWith('/api/privacy'))).toEqual([]);
  });
});
