// Changing the sign-in address (issue 22) on My Details, against the REST contract at the fetch
// boundary: the address shown (not a field PUT would refuse), a code to the new address, the
// change once the code is confirmed, every refusal on its field or as an alert in the dialog,
// "Sign in again" for a sign-in that is too old, offline and staff.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { authStore, languageReady, networkStore, setLanguage, type Profile } from '@portal/runtime';
import { onAnalytics, type AnalyticsEvent } from '@portal/runtime/testing';
import type { FetchStub, StubRequest, StubResponse } from '@portal/kit/fetch-stub';
import { errorAnswer } from '@portal/kit/screen-testing';
import { PROFILE, answersWith, backend, renderAt, resetAll, toasts } from './fixtures';

const REAUTH = 'For your security, please sign in again with a new code or link to change your email address.';
const LOCKED = "Your email address was changed back recently, so it can't be changed again for a few days. Contact us if you need help.";
const CODE_WRONG = 'That code is not right or has expired';
const CODE = '482913';

let stub: FetchStub;
/** The server's side: the member's address, and the change waiting for its code. */
let server: { email: string; pending: string | null; wrongCodes: number };

const mask = (email: string) => `${email[0]}***@${email.split('@')[1]}`;
/**
 * A description with an address isolated in <bdi>: jsdom's accessible description puts a space
 * after the <bdi> (browsers do not) and one for the empty error region at the end; both allowed.
 */
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const isolated = (before: string, value: string, after = '') => new RegExp(`^${escape(before)}${escape(value)}\\s?${escape(after)}\\s*$`);

/** The email-change routes as the gateway answers them (202, then 200), over the profile routes. */
function changeBackend(routes: Record<string, (req: StubRequest) => StubResponse> = {}) {
  return backend({
    'GET /api/profile': () => ({ body: { ...PROFILE, email: server.email } }),
    'PUT /api/profile': answersWith((p, body) => ({ ...p, ...(body as Partial<Profile>), email: server.email })),
    'POST /api/auth/logout': { status: 204 },
    'POST /api/profile/email': (req) => {
      const email = String((req.body as { email?: string }).email ?? '');
      if (!/^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i.test(email))
        return errorAnswer(422, 'Please check the highlighted fields', { email: 'Enter a valid email address' });
      if (email === server.email)
        return errorAnswer(422, 'Please check the highlighted fields', { email: "That's already your email address" });
      server.pending = email;
      return { status: 202, body: { message: `We've sent a code to ${mask(email)}.`, email: mask(email) } };
    },
    'POST /api/profile/email/verify': (req) => {
      const code = (req.body as { code?: string }).code;
      if (!server.pending || code !== CODE) {
        server.wrongCodes += 1;
        return errorAnswer(422, 'Please check the highlighted fields', { code: CODE_WRONG });
      }
      server.email = server.pending;
      server.pending = null;
      return { body: { email: server.email, signed_out: 2 } };
    },
    ...routes,
  });
}

beforeEach(() => {
  resetAll();
  server = { email: PROFILE.email, pending: null, wrongCodes: 0 };
  stub = changeBackend();
});
afterEach(() => {
  stub.restore();
  act(() => networkStore.set({ online: true }));
  jest.useRealTimers();
});

const posts = (path: string) => stub.calls.filter((c) => c.method === 'POST' && c.path === path).map((c) => c.body);
const gets = (path: string) => stub.calls.filter((c) => c.method === 'GET' && c.path === path);
const emailGroup = () => screen.getByRole('group', { name: 'Email address' });

async function openDetails() {
  await renderAt('/profile');
  await screen.findByRole('heading', { level: 2, name: 'Personal details' });
}

/** Opens the dialog from My Details: its first step, the new address focused. */
async function openDialog() {
  await openDetails();
  const change = within(emailGroup()).getByRole('button', { name: 'Change email' });
  fireEvent.click(change);
  const dialog = screen.getByRole('dialog', { name: 'Change your email address' });
  const field = within(dialog).getByLabelText('New email address') as HTMLInputElement;
  expect(field).toHaveFocus();
  return { change, dialog, field };
}

/** The first step done: the code step, its field focused. */
async function toCodeStep(address = 'new.person@example.net') {
  const opened = await openDialog();
  fireEvent.change(opened.field, { target: { value: address } });
  fireEvent.click(within(opened.dialog).getByRole('button', { name: 'Send code' }));
  const dialog = await screen.findByRole('dialog', { name: 'Enter the code' });
  const code = within(dialog).getByLabelText('6-digit code') as HTMLInputElement;
  await waitFor(() => expect(code).toHaveFocus());
  return { ...opened, dialog, code };
}

describe('the sign-in address on My Details', () => {
  it('is shown with a Change email action, and the details form never sends an email', async () => {
    stub.restore();
    stub = changeBackend();
    await openDetails();
    expect(emailGroup()).toHaveTextContent('demo@example.com');
    expect(screen.queryByRole('textbox', { name: 'Email address' })).toBeNull();
    fireEvent.change(screen.getByLabelText('First name'), { target: { value: 'Danielle' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Danielle Demo');
    expect(stub.calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ first_name: 'Danielle' }]);
  });

  it('changes it: a code to the new address, then the change, the other devices signed out and the profile read again', async () => {
    const events: AnalyticsEvent[] = [];
    const off = onAnalytics((e) => events.push(e));
    const { change, code } = await toCodeStep();
    expect(posts('/api/profile/email')).toEqual([{ email: 'new.person@example.net' }]);
    // The masked address from the answer, read with the field.
    expect(code).toHaveAccessibleDescription(isolated("We've sent a code to ", 'n***@example.net', '.'));
    // Nothing has changed yet.
    expect(emailGroup()).toHaveTextContent('demo@example.com');

    fireEvent.change(code, { target: { value: `${CODE.slice(0, 3)} ${CODE.slice(3)}` } });
    expect(code.value).toBe(CODE);
    const profileReads = gets('/api/profile').length;
    fireEvent.click(screen.getByRole('button', { name: 'Confirm new address' }));
    const done = await screen.findByRole('dialog', { name: 'Email address changed' });
    expect(posts('/api/profile/email/verify')).toEqual([{ code: CODE }]);
    expect(done).toHaveAccessibleDescription(
      isolated('You now sign in with this address: ', 'new.person@example.net', ' Your other devices have been signed out.'),
    );
    await waitFor(() => expect(within(done).getByRole('heading', { name: 'Email address changed' })).toHaveFocus());
    expect(toasts()).toEqual(['success: Your email address has been changed']);
    // Shown at once, and the profile read again from the server.
    await waitFor(() => expect(gets('/api/profile').length).toBe(profileReads + 1));
    expect(emailGroup()).toHaveTextContent('new.person@example.net');
    expect(events.filter((e) => e.type === 'event').map((e) => e.name)).toEqual(['my_details_email_change']);
    off();

    fireEvent.click(within(done).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(change).toHaveFocus();

    // The details form still sends only what it holds: never the (new) address.
    fireEvent.change(screen.getByLabelText('Last name'), { target: { value: 'Doe' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(stub.calls.filter((c) => c.method === 'PUT')).toHaveLength(1));
    expect(stub.calls.find((c) => c.method === 'PUT')?.body).toEqual({ last_name: 'Doe' });
  });

  it('says when no other device was signed in', async () => {
    stub.restore();
    stub = changeBackend({ 'POST /api/profile/email/verify': () => ({ body: { email: 'new.person@example.net', signed_out: 0 } }) });
    const { code } = await toCodeStep();
    fireEvent.change(code, { target: { value: CODE } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm new address' }));
    expect(await screen.findByRole('dialog', { name: 'Email address changed' })).toHaveTextContent('No other devices were signed in.');
  });

  it('checks the address before sending: not an address, or the one already used; nothing is sent', async () => {
    const { dialog, field } = await openDialog();
    fireEvent.change(field, { target: { value: 'not an address' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send code' }));
    await waitFor(() => expect(field).toHaveAccessibleDescription('Enter a valid email address'));
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveFocus();
    fireEvent.change(field, { target: { value: ' DEMO@example.com ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send code' }));
    await waitFor(() => expect(field).toHaveAccessibleDescription("That's already your email address"));
    expect(posts('/api/profile/email')).toEqual([]);
  });

  it('shows the server’s refusal of the address on its field, focused (422 errors.email)', async () => {
    stub.restore();
    stub = changeBackend({
      'POST /api/profile/email': () =>
        errorAnswer(422, 'Please check the highlighted fields', { email: 'Use an address with a real domain' }),
    });
    const { dialog, field } = await openDialog();
    fireEvent.change(field, { target: { value: 'someone@localhost.localdomain' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send code' }));
    await waitFor(() => expect(field).toHaveAccessibleDescription('Use an address with a real domain'));
    expect(field).toHaveFocus();
    expect(field.value).toBe('someone@localhost.localdomain');
    expect(screen.getByRole('dialog', { name: 'Change your email address' })).toBeInTheDocument();
  });

  it('a sign-in older than 15 minutes (403 reauthenticate): explains, and "Sign in again" signs out to the login page that comes back here', async () => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    stub.restore();
    stub = changeBackend({ 'POST /api/profile/email': () => errorAnswer(403, REAUTH, { session: 'reauthenticate' }) });
    const { dialog, field } = await openDialog();
    fireEvent.change(field, { target: { value: 'new.person@example.net' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send code' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(REAUTH);
    // Said here, not again in a toast; no code can be asked for until then.
    expect(toasts()).toEqual([]);
    expect(within(dialog).queryByRole('button', { name: 'Send code' })).toBeNull();
    const again = within(dialog).getByRole('button', { name: 'Sign in again' });
    await waitFor(() => expect(again).toHaveFocus());
    fireEvent.click(again);
    await act(async () => {
      await jest.advanceTimersByTimeAsync(400);
    });
    expect(authStore.get()).toMatchObject({ authenticated: false, loggedOut: false });
    expect(posts('/api/auth/logout')).toHaveLength(1);
    expect(`${window.location.pathname}${window.location.search}`).toBe('/?redirect=%2Fprofile');
  });

  it('the same when the code is confirmed after the sign-in has grown old', async () => {
    stub.restore();
    stub = changeBackend({ 'POST /api/profile/email/verify': () => errorAnswer(403, REAUTH, { session: 'reauthenticate' }) });
    const { dialog, code } = await toCodeStep();
    fireEvent.change(code, { target: { value: CODE } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm new address' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(REAUTH);
    expect(within(dialog).queryByRole('button', { name: 'Confirm new address' })).toBeNull();
    expect(within(dialog).getByRole('button', { name: 'Sign in again' })).toBeInTheDocument();
  });

  it('changes locked after an undo (403): the server’s words, and nothing more to try', async () => {
    stub.restore();
    stub = changeBackend({ 'POST /api/profile/email': () => errorAnswer(403, LOCKED) });
    const { dialog, field } = await openDialog();
    fireEvent.change(field, { target: { value: 'new.person@example.net' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send code' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(LOCKED);
    expect(within(dialog).queryByRole('button', { name: 'Send code' })).toBeNull();
    expect(within(dialog).queryByRole('button', { name: 'Sign in again' })).toBeNull();
    const close = within(dialog).getByRole('button', { name: 'Close' });
    await waitFor(() => expect(close).toHaveFocus());
    fireEvent.click(close);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('too many attempts to send (429), or no answer: said in the dialog, and the member may try again', async () => {
    let replies: StubResponse[] = [errorAnswer(429, 'Too many attempts. Please wait a few minutes and try again.'), { networkError: true }];
    stub.restore();
    stub = changeBackend({
      'POST /api/profile/email': (req) =>
        replies.shift() ?? { status: 202, body: { message: 'sent', email: mask(String((req.body as { email: string }).email)) } },
    });
    const { dialog, field } = await openDialog();
    fireEvent.change(field, { target: { value: 'new.person@example.net' } });
    const send = within(dialog).getByRole('button', { name: 'Send code' });
    fireEvent.click(send);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Too many attempts. Please wait a few minutes and try again.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send code' }));
    await waitFor(() => expect(within(dialog).getByRole('alert')).toHaveTextContent("We couldn't send a code. Please try again."));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send code' }));
    await screen.findByRole('dialog', { name: 'Enter the code' });
    expect(posts('/api/profile/email')).toHaveLength(3);
    replies = [];
  });

  it('a wrong or expired code is shown on the code field, focused; the right one then changes the address', async () => {
    const { dialog, code } = await toCodeStep();
    // Not six digits: told at once, nothing sent.
    fireEvent.change(code, { target: { value: '12' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm new address' }));
    await waitFor(() => expect(code).toHaveAccessibleDescription(/Enter the 6 digits from the email\./));
    expect(posts('/api/profile/email/verify')).toEqual([]);

    fireEvent.change(code, { target: { value: '000000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm new address' }));
    await waitFor(() => expect(code).toHaveAttribute('aria-invalid', 'true'));
    expect(code).toHaveAccessibleDescription(isolated("We've sent a code to ", 'n***@example.net', `. ${CODE_WRONG}`));
    await waitFor(() => expect(code).toHaveFocus());
    expect(emailGroup()).toHaveTextContent('demo@example.com');

    fireEvent.change(code, { target: { value: CODE } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm new address' }));
    await screen.findByRole('dialog', { name: 'Email address changed' });
    expect(posts('/api/profile/email/verify')).toEqual([{ code: '000000' }, { code: CODE }]);
  });

  it('too many wrong codes (429): a new code is asked for, sent to the same address, and the confirmation is back', async () => {
    let verify: StubResponse[] = [errorAnswer(429, 'Too many attempts. Please ask for a new code.')];
    stub.restore();
    stub = changeBackend({
      'POST /api/profile/email/verify': () => verify.shift() ?? { body: { email: 'new.person@example.net', signed_out: 1 } },
    });
    const { dialog, code } = await toCodeStep();
    fireEvent.change(code, { target: { value: '111111' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm new address' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Too many wrong codes. Ask for a new code.');
    expect(within(dialog).queryByRole('button', { name: 'Confirm new address' })).toBeNull();
    const resend = within(dialog).getByRole('button', { name: 'Send a new code' });
    await waitFor(() => expect(resend).toHaveFocus());
    fireEvent.click(resend);
    await waitFor(() => expect(code).toHaveAccessibleDescription(isolated("We've sent a new code to ", 'n***@example.net', '.')));
    expect(posts('/api/profile/email')).toEqual([{ email: 'new.person@example.net' }, { email: 'new.person@example.net' }]);
    expect(within(dialog).queryByRole('alert')).toBeNull();
    fireEvent.change(code, { target: { value: CODE } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm new address' }));
    await screen.findByRole('dialog', { name: 'Email address changed' });
    verify = [];
  });

  it('an address taken meanwhile (422 errors.email on the code): back to the address, the message on its field', async () => {
    stub.restore();
    stub = changeBackend({
      'POST /api/profile/email/verify': () =>
        errorAnswer(422, 'Please check the highlighted fields', { email: 'This address already has an account' }),
    });
    const { code } = await toCodeStep();
    fireEvent.change(code, { target: { value: CODE } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm new address' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change your email address' });
    const field = within(dialog).getByLabelText('New email address');
    await waitFor(() => expect(field).toHaveFocus());
    expect(field).toHaveAccessibleDescription('This address already has an account');
    expect(field).toHaveValue('new.person@example.net');
  });

  it('"Use a different address" goes back to the first step with what was typed', async () => {
    const { dialog } = await toCodeStep();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Use a different address' }));
    const field = within(screen.getByRole('dialog', { name: 'Change your email address' })).getByLabelText('New email address');
    await waitFor(() => expect(field).toHaveFocus());
    expect(field).toHaveValue('new.person@example.net');
  });

  it('Escape closes the dialog without a change and gives the focus back', async () => {
    const { change, dialog } = await openDialog();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(change).toHaveFocus();
    expect(posts('/api/profile/email')).toEqual([]);
  });
});

describe('in other languages', () => {
  it('says the refusals in the page language (Arabic), the address kept left to right', async () => {
    stub.restore();
    stub = changeBackend({
      'POST /api/profile/email/verify': () =>
        errorAnswer(422, 'Please check the highlighted fields', { email: 'This address already has an account' }),
    });
    setLanguage('ar');
    await act(() => languageReady());
    await renderAt('/profile');
    await screen.findByRole('heading', { level: 2, name: 'البيانات الشخصية' });
    fireEvent.click(screen.getByRole('button', { name: 'تغيير البريد الإلكتروني' }));
    const dialog = screen.getByRole('dialog', { name: 'تغيير عنوان بريدك الإلكتروني' });
    const field = within(dialog).getByLabelText('عنوان البريد الإلكتروني الجديد');
    expect(field).toHaveAttribute('dir', 'ltr');
    fireEvent.change(field, { target: { value: 'new.person@example.net' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'إرسال الرمز' }));
    const code = await screen.findByLabelText('رمز مكوّن من 6 أرقام');
    expect(code).toHaveAccessibleDescription(isolated('أرسلنا رمزًا إلى ', 'n***@example.net', '.'));
    fireEvent.change(code, { target: { value: CODE } });
    fireEvent.click(screen.getByRole('button', { name: 'تأكيد العنوان الجديد' }));
    const back = await screen.findByLabelText('عنوان البريد الإلكتروني الجديد');
    await waitFor(() => expect(back).toHaveAccessibleDescription('عنوان البريد الإلكتروني هذا مستخدم في حساب آخر'));
  });

  it('a sign-in too old is explained in German', async () => {
    stub.restore();
    stub = changeBackend({ 'POST /api/profile/email': () => errorAnswer(403, REAUTH, { session: 'reauthenticate' }) });
    setLanguage('de');
    await act(() => languageReady());
    await renderAt('/profile');
    fireEvent.click(await screen.findByRole('button', { name: 'E-Mail ändern' }));
    const dialog = screen.getByRole('dialog', { name: 'E-Mail-Adresse ändern' });
    fireEvent.change(within(dialog).getByLabelText('Neue E-Mail-Adresse'), { target: { value: 'neu@example.de' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Code senden' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Zu Ihrer Sicherheit melden Sie sich bitte erneut an, um Ihre E-Mail-Adresse zu ändern.',
    );
    expect(within(dialog).getByRole('button', { name: 'Erneut anmelden' })).toBeInTheDocument();
  });
});

describe('offline and staff', () => {
  it('offline, Change email and sending a code are off with the reason; nothing is sent', async () => {
    const { dialog, field } = await openDialog();
    fireEvent.change(field, { target: { value: 'new.person@example.net' } });
    act(() => networkStore.set({ online: false }));
    const send = within(dialog).getByRole('button', { name: 'Send code' });
    expect(send).toBeDisabled();
    expect(send).toHaveAccessibleDescription("You're offline. You can save again when you're back online.");
    fireEvent.submit(field.closest('form')!);
    expect(posts('/api/profile/email')).toEqual([]);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    const change = within(emailGroup()).getByRole('button', { name: 'Change email' });
    expect(change).toBeDisabled();
    act(() => networkStore.set({ online: true }));
    expect(change).toBeEnabled();
  });

  it('staff viewing the account see the address without the action', async () => {
    authStore.set({ impersonating: true });
    await openDetails();
    expect(emailGroup()).toHaveTextContent('demo@example.com');
    expect(screen.queryByRole('button', { name: 'Change email' })).toBeNull();
  });
});
