// "Create an account" from the sign-in page (POST /api/auth/create, the server's field problems
// on the fields, then the inbox step), and a sign-in code by text message only where the tenant
// offers it (components.login.sms: POST /api/auth/sms, then the same code step).
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { configStore, initAuth, toastStore, type PortalConfig } from '@portal/runtime';
import { stubFetch, type FetchStub, type StubRoute } from '@portal/kit/fetch-stub';
import { renderAt } from './setup';
import { linkStore } from '../auth-link';

let stub: FetchStub | undefined;
const backend = (routes: Record<string, StubRoute>) => (stub = stubFetch(routes));
const withSms = (sms: boolean) => configStore.set({ config: { components: { login: { sms } } } as unknown as PortalConfig, loaded: true });

beforeEach(() => {
  initAuth();
  linkStore.set({ phase: 'none', token: null, redirect: null });
  toastStore.set({ toasts: [] });
});
afterEach(() => {
  stub?.restore();
  stub = undefined;
  configStore.set({ config: null, loaded: false });
});

describe('create an account', () => {
  it('asks for the details, sends them, then says to check the inbox', async () => {
    backend({ 'POST /api/auth/create': { status: 202, body: { message: 'ok' } } });
    renderAt('/?redirect=%2Frewards');
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'new@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create an account' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Create an account' })).toHaveFocus();
    expect(screen.getByLabelText('Email address')).toHaveValue('new@example.com');
    // Names first; nothing sent.
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Create my account' })));
    expect(screen.getByLabelText('First name')).toHaveAccessibleDescription('Required');
    expect(screen.getByLabelText('First name')).toHaveFocus();
    expect(stub!.calls).toEqual([]);

    fireEvent.change(screen.getByLabelText('First name'), { target: { value: ' Nia ' } });
    fireEvent.change(screen.getByLabelText('Last name'), { target: { value: 'New' } });
    fireEvent.change(screen.getByLabelText('Mobile number (optional)'), { target: { value: '0400 123 456' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Create my account' })));
    expect(await screen.findByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument();
    expect(screen.getByText("Your account is ready: we've emailed you a sign-in link.")).toBeInTheDocument();
    expect(stub!.calls[0].body).toEqual({
      email: 'new@example.com',
      first_name: 'Nia',
      last_name: 'New',
      phone: '0400 123 456',
      redirect: '/rewards',
    });
  });

  it("puts the server's field problems on the fields", async () => {
    backend({
      'POST /api/auth/create': {
        status: 422,
        body: { status: 422, message: 'Please check the highlighted fields', error: true, errors: { phone: 'Enter a mobile number' } },
      },
    });
    renderAt('/');
    fireEvent.click(screen.getByRole('button', { name: 'Create an account' }));
    await screen.findByRole('heading', { level: 1, name: 'Create an account' });
    for (const [label, value] of [
      ['First name', 'Nia'],
      ['Last name', 'New'],
      ['Email address', 'new@example.com'],
      ['Mobile number (optional)', '12'],
    ]) {
      fireEvent.change(screen.getByLabelText(label), { target: { value } });
    }
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Create my account' })));
    await waitFor(() => expect(screen.getByLabelText('Mobile number (optional)')).toHaveAccessibleDescription('Enter a mobile number'));
    expect(screen.getByLabelText('Mobile number (optional)')).toHaveFocus();
    // Back to signing in.
    fireEvent.click(screen.getByRole('button', { name: 'I already have an account' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in to your account' })).toBeInTheDocument();
  });
});

describe('a code by text message', () => {
  it('is offered where the tenant enables it, and signs in like the emailed code', async () => {
    withSms(true);
    backend({ 'POST /api/auth/sms': { body: { message: 'sent' } } });
    renderAt('/');
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'demo@example.com' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Text me a code instead' })));
    expect(await screen.findByRole('heading', { level: 1, name: 'Enter your code' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(
      "If that address has an account with a mobile number, we've texted a 6-digit code to that number.",
    );
    expect(stub!.calls.map((c) => [c.path, c.body])).toEqual([['/api/auth/sms', { email: 'demo@example.com', redirect: '/home' }]]);
  });

  it('is not offered where the tenant does not', () => {
    withSms(false);
    backend({});
    renderAt('/');
    expect(screen.getByRole('button', { name: 'Email me a code instead' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Text me a code instead' })).toBeNull();
  });
});
