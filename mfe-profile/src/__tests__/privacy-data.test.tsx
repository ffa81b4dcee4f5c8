// The privacy centre (/profile/privacy, issue 13), its data against the REST contract at the
// fetch boundary: the data download, deleting the account with an emailed code (then
// deleteMyAccount to the native app and the Logged out screen), every write off while offline, and
// nothing of it for staff viewing an account.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { authStore, networkStore, setLanguage, languageReady } from '@portal/runtime';
import { onAnalytics, type AnalyticsEvent } from '@portal/runtime/testing';
import type { StubRequest } from '@portal/kit/fetch-stub';
import { errorAnswer } from '@portal/kit/screen-testing';
import { installReactNative, postedActions, postedEvents } from '@portal/kit/native-testing';
import { renderAt, toasts } from './fixtures';
import { calls, openPrivacy, privacyBackend, server, startPrivacyServer, stopPrivacyServer } from './privacy-fixtures';

beforeEach(startPrivacyServer);
afterEach(stopPrivacyServer);

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
    server.stub.restore();
    server.stub = privacyBackend({
      'POST /api/privacy/delete': (req: StubRequest) => {
        const code = (req.body as { code?: string }).code;
        deletes.push({ code, postedBefore: postedActions(server.posted).length });
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
    installReactNative(server.posted);
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
    expect(postedActions(server.posted)).toEqual([]);
    expect(toasts()).toEqual([]);
    expect(authStore.get()).toMatchObject({ authenticated: true, loggedOut: false });

    // The right code: deleted on the server first, then deleteMyAccount, then the Logged out state.
    fireEvent.change(code, { target: { value: '123456' } });
    fireEvent.click(confirm);
    await waitFor(() => expect(postedActions(server.posted)).toEqual([{ action: 'deleteMyAccount' }, { action: 'logout' }]));
    expect(deletes).toEqual([
      { code: '000000', postedBefore: 0 },
      { code: '123456', postedBefore: 0 },
    ]);
    expect(postedEvents(server.posted)).toEqual([{ name: 'my_details_delete_account', params: {} }]);
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
    server.stub.restore();
    server.stub = privacyBackend({ 'POST /api/privacy/delete/code': errorAnswer(429, 'Too many requests') });
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
    expect(server.stub.calls.filter((c) => c.path.startsWith('/api/privacy'))).toEqual([]);
  });
});
