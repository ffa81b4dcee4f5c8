// The sign-in page itself: choosing the language before signing in, and the "check your inbox"
// step (the address, Resend on a cooldown). The sign-in flows are in login.test.tsx.
import { act, fireEvent, screen } from '@testing-library/react';
import { configStore, initAuth, setLanguage, toastStore, type PortalConfig } from '@portal/runtime';
import { stubFetch, type FetchStub } from '@portal/kit/fetch-stub';
import { renderAt } from './setup';
import { linkStore } from '../auth-link';

let stub: FetchStub | undefined;

beforeEach(() => {
  initAuth();
  linkStore.set({ phase: 'none', token: null, redirect: null });
  toastStore.set({ toasts: [] });
});
afterEach(() => {
  stub?.restore();
  stub = undefined;
});

describe('the sign-in page’s language and the inbox step (issue 24)', () => {
  afterEach(async () => {
    jest.useRealTimers();
    configStore.set({ config: null, loaded: false });
    await act(async () => {
      setLanguage('en');
    });
  });

  it('offers the tenant’s languages, each in its own name, and switching changes the text and direction', async () => {
    configStore.set({ config: { languages: ['en', 'ar', 'de'] } as PortalConfig, loaded: true });
    renderAt('/');
    const chooser = screen.getByRole('combobox', { name: 'Language' });
    const options = screen.getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['English', 'العربية', 'Deutsch']);
    expect(options.map((o) => o.getAttribute('lang'))).toEqual(['en', 'ar', 'de']);
    await act(async () => {
      fireEvent.change(chooser, { target: { value: 'ar' } });
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'سجّل الدخول إلى حسابك' })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(document.documentElement).toHaveAttribute('lang', 'ar');
    expect(localStorage.getItem('portal.language')).toBe('ar');
    await act(async () => {
      fireEvent.change(screen.getByRole('combobox'), { target: { value: 'de' } });
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Melden Sie sich bei Ihrem Konto an' })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
  });

  it('the inbox step shows the address; Resend waits 30 s with a countdown, then sends again', async () => {
    jest.useFakeTimers();
    stub = stubFetch({ 'POST /api/auth': { body: { message: 'ok' } } });
    renderAt('/');
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'demo@example.com' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Email me a sign-in link' }));
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Check your inbox' })).toBeInTheDocument();
    expect(screen.getByText(/Sent to/)).toHaveTextContent('Sent to demo@example.com');
    expect(screen.getByRole('button', { name: 'Resend in 30 s' })).toBeDisabled();
    act(() => void jest.advanceTimersByTime(10_000));
    expect(screen.getByRole('button', { name: 'Resend in 20 s' })).toBeDisabled();
    act(() => void jest.advanceTimersByTime(20_000));
    const resend = screen.getByRole('button', { name: 'Resend the link' });
    expect(resend).toBeEnabled();
    await act(async () => {
      fireEvent.click(resend);
    });
    expect(stub.calls).toHaveLength(2);
    expect(stub.calls[1]).toMatchObject({ method: 'POST', path: '/api/auth', body: { email: 'demo@example.com', redirect: '/home' } });
    expect(await screen.findByText("We've sent another link. It may take a minute to arrive.")).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Resend in 30 s' })).toBeDisabled();
    fireEvent.click(screen.getByRole('button', { name: 'Use a different email address' }));
    expect(screen.getByLabelText('Email address')).toHaveValue('demo@example.com');
  });

  it('a 429 on resend shows the rate-limit message and waits longer', async () => {
    jest.useFakeTimers();
    let calls = 0;
    stub = stubFetch({
      'POST /api/auth': () =>
        ++calls === 1
          ? { body: { message: 'ok' } }
          : {
              status: 429,
              body: { status: 429, message: 'Too many attempts. Please wait a few minutes and try again.', errors: {}, error: true },
            },
    });
    renderAt('/');
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'demo@example.com' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Email me a sign-in link' }));
    });
    await screen.findByRole('heading', { level: 1, name: 'Check your inbox' });
    act(() => void jest.advanceTimersByTime(30_000));
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Resend the link' }));
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Please wait a few minutes and try again.');
    expect(screen.getByRole('button', { name: 'Resend in 60 s' })).toBeDisabled();
  });
});
