import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { authStore, configStore, initAuth, setParentOrigin, takeEmbedderParam, toastStore, type PortalConfig } from '@portal/runtime';
import { resetParentOriginForTests } from '@portal/runtime/testing';
import { makeToken, stubFetch, type FetchStub } from '@portal/kit/fetch-stub';
import { renderAt } from './setup';
import { continueSignIn, handleUrlToken, linkStore } from '../auth-link';

const now = () => Math.floor(Date.now() / 1000);
const session = (pid = 'p_demo') => makeToken({ pid, exp: now() + 3600, typ: 'session' });
const linkToken = () => makeToken({ pid: 'p_demo', exp: now() + 900, typ: 'link', redirect: '/profile' });
const sessionReply = (token = session()) => ({ body: { token, expiry: now() + 3600, profile_id: 'p_demo', redirect: '/profile' } });

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

describe('login with an emailed link', () => {
  it('posts the email and redirect, then confirms', async () => {
    stub = stubFetch({
      'POST /api/auth': { body: { message: 'If that address has an account, a sign-in link is on its way.' } },
    });
    renderAt('/?redirect=%2Fprofile');
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'demo@example.com' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Email me a sign-in link' }));
    });
    expect(await screen.findByText('If that address has an account, a sign-in link is on its way.')).toBeInTheDocument();
    expect(stub.calls[0]).toMatchObject({ method: 'POST', path: '/api/auth', body: { email: 'demo@example.com', redirect: '/profile' } });
  });

  it('defaults the redirect to /home and shows field errors', async () => {
    stub = stubFetch({
      'POST /api/auth': { status: 422, body: { status: 422, message: 'Invalid', errors: { email: 'invalid' }, error: true } },
    });
    renderAt('/');
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'nope' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Email me a sign-in link' }));
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter a valid email address.');
    expect(stub.calls[0].body).toEqual({ email: 'nope', redirect: '/home' });
  });

  it('shows the rate-limit message on 429', async () => {
    stub = stubFetch({
      'POST /api/auth': {
        status: 429,
        body: { status: 429, message: 'Too many attempts. Please wait a few minutes and try again.', errors: {}, error: true },
      },
    });
    renderAt('/');
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'demo@example.com' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Email me a sign-in link' }));
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Please wait a few minutes and try again.');
  });

  it('a link token shows Continue, strips the URL, and calls exchange only when tapped', async () => {
    stub = stubFetch({ 'POST /api/auth/exchange': sessionReply() });
    const token = linkToken();
    window.history.replaceState(null, '', `/?token=${encodeURIComponent(token)}&redirect=%2Fprofile&lang=en`);
    const replace = jest.spyOn(window.history, 'replaceState');
    await expect(handleUrlToken()).resolves.toBe('link');
    expect(replace.mock.calls[0][2]).toBe('/?redirect=%2Fprofile&lang=en');
    replace.mockRestore();
    expect(window.location.search).not.toContain('token');
    renderAt('/?redirect=%2Fprofile&lang=en');
    const button = screen.getByRole('button', { name: 'Continue' });
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(stub.calls.filter((c) => c.path === '/api/auth/exchange')).toHaveLength(0);
    expect(authStore.get().authenticated).toBe(false);
    await act(async () => {
      fireEvent.click(button);
    });
    await waitFor(() => expect(window.location.pathname).toBe('/profile'));
    expect(stub.calls.filter((c) => c.path === '/api/auth/exchange').map((c) => c.body)).toEqual([{ token }]);
    expect(authStore.get()).toMatchObject({ authenticated: true, profile_id: 'p_demo' });
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull();
  });

  it('goes to /home after Continue when the link has no redirect', async () => {
    stub = stubFetch({ 'POST /api/auth/exchange': { body: { token: session(), expiry: 0, profile_id: 'p_demo' } } });
    window.history.replaceState(null, '', `/?token=${encodeURIComponent(linkToken())}`);
    await handleUrlToken();
    renderAt('/');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    });
    await waitFor(() => expect(window.location.pathname).toBe('/home'));
  });

  it('a session token is exchanged at once, without a button', async () => {
    const fresh = session();
    stub = stubFetch({ 'POST /api/auth/exchange': sessionReply(fresh) });
    const handed = session();
    window.history.replaceState(null, '', `/?token=${encodeURIComponent(handed)}&redirect=%2Frewards`);
    await expect(handleUrlToken()).resolves.toBe('ok');
    expect(stub.calls[0]).toMatchObject({ path: '/api/auth/exchange', body: { token: handed } });
    expect(window.location.pathname).toBe('/rewards');
    expect(window.location.search).toBe('');
    expect(authStore.get()).toMatchObject({ authenticated: true, token: fresh });
  });

  it('a failed exchange after Continue shows the invalid-link message with the login form', async () => {
    stub = stubFetch({
      'POST /api/auth/exchange': { status: 401, body: { status: 401, message: 'Invalid or expired token', errors: {}, error: true } },
    });
    window.history.replaceState(null, '', `/?token=${encodeURIComponent(linkToken())}`);
    await handleUrlToken();
    renderAt('/');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    });
    expect(await screen.findByText('This sign-in link is invalid or has expired. Please request a new one.')).toBeInTheDocument();
    expect(screen.getByLabelText('Email address')).toBeInTheDocument();
    expect(authStore.get().authenticated).toBe(false);
  });

  it('an invalid token shows the message and the form without calling the server', async () => {
    stub = stubFetch({});
    window.history.replaceState(null, '', `/?token=${encodeURIComponent(btoa('a.b.c'))}`);
    await expect(handleUrlToken()).resolves.toBe('failed');
    renderAt('/');
    expect(screen.getByRole('alert')).toHaveTextContent('This sign-in link is invalid or has expired. Please request a new one.');
    expect(screen.getByRole('button', { name: 'Email me a sign-in link' })).toBeInTheDocument();
    expect(stub.calls).toHaveLength(0);
  });

  it('redirects a signed-in visitor from / to /home', async () => {
    localStorage.setItem('portal.auth', session('p'));
    initAuth();
    stub = stubFetch({});
    renderAt('/');
    expect(window.location.pathname).toBe('/home');
    await act(async () => {
      await new Promise((r) => setTimeout(r, 0));
    });
  });
});

describe('a sign-in link that can no longer be used while signed in (issue 22, finding 11)', () => {
  const refused = { status: 401, body: { status: 401, message: 'Invalid or expired token', errors: {}, error: true } };

  function signedInHere() {
    const held = session();
    localStorage.setItem('portal.auth', held);
    localStorage.setItem('portal.profileCache', '{"cached":true}');
    initAuth();
    return held;
  }

  it('an already-used link: Continue keeps the session held, says so, and goes on to the link’s page', async () => {
    stub = stubFetch({ 'POST /api/auth/exchange': refused, 'POST /api/auth/logout': { status: 204 } });
    const held = signedInHere();
    window.history.replaceState(null, '', `/?token=${encodeURIComponent(linkToken())}&redirect=%2Fprofile`);
    await expect(handleUrlToken()).resolves.toBe('link');
    renderAt('/?redirect=%2Fprofile');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    });
    const title = await screen.findByRole('heading', { level: 1, name: "You're already signed in" });
    expect(screen.getByText("This sign-in link has already been used or has expired. You're still signed in.")).toBeInTheDocument();
    await waitFor(() => expect(title).toHaveFocus());
    expect(authStore.get()).toMatchObject({ authenticated: true, token: held, loggedOut: false, loading: false });
    expect(localStorage.getItem('portal.auth')).toBe(held);
    expect(localStorage.getItem('portal.profileCache')).toBe('{"cached":true}');
    expect(stub.calls.map((c) => c.path)).toEqual(['/api/auth/exchange']);
    // No sign-in form, no "invalid link" message: the member is signed in.
    expect(screen.queryByRole('button', { name: 'Email me a sign-in link' })).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    });
    expect(window.location.pathname).toBe('/profile');
    expect(linkStore.get().phase).toBe('none');
    expect(authStore.get().authenticated).toBe(true);
  });

  it('an expired link on arrival: nothing asked of the server, the session kept and said so; Continue goes home', async () => {
    stub = stubFetch({});
    const held = signedInHere();
    const stale = makeToken({ pid: 'p_demo', exp: now() - 60, typ: 'link' });
    window.history.replaceState(null, '', `/?token=${encodeURIComponent(stale)}`);
    await expect(handleUrlToken()).resolves.toBe('kept');
    expect(window.location.search).toBe('');
    renderAt('/');
    expect(screen.getByRole('heading', { level: 1, name: "You're already signed in" })).toBeInTheDocument();
    expect(authStore.get()).toMatchObject({ authenticated: true, token: held });
    expect(stub.calls).toEqual([]);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    });
    expect(window.location.pathname).toBe('/home');
  });

  it('without a valid session held, the link is still unusable: the login form says so', async () => {
    stub = stubFetch({});
    localStorage.setItem('portal.auth', makeToken({ pid: 'p_demo', exp: now() - 5, typ: 'session' }));
    initAuth();
    window.history.replaceState(null, '', `/?token=${encodeURIComponent(makeToken({ pid: 'p_demo', exp: now() - 60, typ: 'link' }))}`);
    await expect(handleUrlToken()).resolves.toBe('failed');
    renderAt('/');
    expect(screen.getByRole('alert')).toHaveTextContent('This sign-in link is invalid or has expired. Please request a new one.');
    expect(authStore.get().authenticated).toBe(false);
  });

  it('a valid link for another account while signed in still signs in with it', async () => {
    const other = makeToken({ pid: 'p_other', exp: now() + 3600, typ: 'session' });
    stub = stubFetch({ 'POST /api/auth/exchange': { body: { token: other, expiry: now() + 3600, profile_id: 'p_other' } } });
    signedInHere();
    window.history.replaceState(null, '', `/?token=${encodeURIComponent(linkToken())}`);
    await handleUrlToken();
    renderAt('/');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Continue' }));
    });
    await waitFor(() => expect(window.location.pathname).toBe('/home'));
    expect(authStore.get()).toMatchObject({ authenticated: true, token: other, profile_id: 'p_other' });
  });
});

describe('a link that leaves the portal (externalRedirect)', () => {
  const config = (allowedOrigins: unknown) => ({ general: { tenant: 'demo', allowedOrigins }, lastUpdated: 1 }) as unknown as PortalConfig;
  const fakeLocation = () => ({ pathname: '/', search: '', assign: jest.fn() }) as unknown as Location & { assign: jest.Mock };

  async function landAndContinue(externalRedirect: string, allowed: unknown = ['https://partner.example']) {
    configStore.set({ config: config(allowed), loaded: true });
    stub = stubFetch({ 'POST /api/auth/exchange': sessionReply() });
    const url = `/?token=${encodeURIComponent(linkToken())}&redirect=%2Fprofile&externalRedirect=${encodeURIComponent(externalRedirect)}&lang=en`;
    window.history.replaceState(null, '', url);
    await expect(handleUrlToken()).resolves.toBe('link');
    // Both the token and externalRedirect leave the address bar at once.
    expect(window.location.search).toBe('?redirect=%2Fprofile&lang=en');
    const loc = fakeLocation();
    await expect(continueSignIn(loc)).resolves.toBe(true);
    return loc;
  }

  afterEach(() => configStore.set({ config: null, loaded: false }));

  it('sends the member to an allowed origin after Continue', async () => {
    const loc = await landAndContinue('https://partner.example/welcome?x=1');
    expect(loc.assign).toHaveBeenCalledWith('https://partner.example/welcome?x=1');
    expect(authStore.get().authenticated).toBe(true);
  });

  it('ignores a URL on another origin and goes to redirect', async () => {
    const loc = await landAndContinue('https://evil.example/phish');
    expect(loc.assign).not.toHaveBeenCalled();
    expect(window.location.pathname).toBe('/profile');
  });

  it('ignores a look-alike origin (other scheme or port)', async () => {
    for (const url of ['http://partner.example/x', 'https://partner.example:8443/x', 'https://partner.example.evil.example/']) {
      const loc = await landAndContinue(url);
      expect(loc.assign).not.toHaveBeenCalled();
    }
  });

  it('ignores garbage and non-http URLs', async () => {
    for (const url of ['not a url', '//partner.example/x', 'javascript:alert(1)']) {
      const loc = await landAndContinue(url, ['https://partner.example', 'null']);
      expect(loc.assign).not.toHaveBeenCalled();
      expect(window.location.pathname).toBe('/profile');
    }
  });

  it('ignores it when the config has no allowedOrigins', async () => {
    const loc = await landAndContinue('https://partner.example/welcome', null);
    expect(loc.assign).not.toHaveBeenCalled();
    expect(window.location.pathname).toBe('/profile');
  });
});

describe('login inside an iframe', () => {
  async function submit() {
    stub = stubFetch({ 'POST /api/auth': { body: { message: 'ok' } } });
    renderAt('/?redirect=%2Fprofile');
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'demo@example.com' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Email me a sign-in link' }));
    });
    await screen.findByText('Check your inbox');
    return stub.calls.find((c) => c.path === '/api/auth')!.body;
  }

  afterEach(() => {
    jest.restoreAllMocks();
    Object.defineProperty(document, 'referrer', { value: '', configurable: true });
  });

  it('embedded: sends iFrame and the embedding page as urlPath, no urlParams', async () => {
    jest.spyOn(window, 'parent', 'get').mockReturnValue({ postMessage: jest.fn() } as unknown as Window);
    Object.defineProperty(document, 'referrer', { value: 'https://partner.example/account?tab=1', configurable: true });
    expect(await submit()).toEqual({
      email: 'demo@example.com',
      redirect: '/profile',
      iFrame: true,
      urlPath: 'https://partner.example/account?tab=1',
    });
  });

  it('embedded through the client package: the page address it gave, when on the checked parent origin', async () => {
    jest.spyOn(window, 'parent', 'get').mockReturnValue({ postMessage: jest.fn() } as unknown as Window);
    Object.defineProperty(document, 'referrer', { value: 'https://partner.example/', configurable: true });
    window.history.replaceState(null, '', '/?embedder=https%3A%2F%2Fpartner.example%2Fshop%2Faccount%3Ftab%3D2');
    expect(takeEmbedderParam()).toBe('https://partner.example/shop/account?tab=2');
    expect(window.location.search).toBe('');
    setParentOrigin('https://partner.example');
    expect(await submit()).toMatchObject({ iFrame: true, urlPath: 'https://partner.example/shop/account?tab=2' });
    // An address on another origin than the parent's is not believed: the referrer is used.
    stub?.restore();
    cleanup();
    window.history.replaceState(null, '', '/?embedder=https%3A%2F%2Fevil.example%2F');
    takeEmbedderParam();
    expect(await submit()).toMatchObject({ iFrame: true, urlPath: 'https://partner.example/' });
    resetParentOriginForTests();
  });

  it('embedded without a referrer: iFrame only', async () => {
    jest.spyOn(window, 'parent', 'get').mockReturnValue({ postMessage: jest.fn() } as unknown as Window);
    expect(await submit()).toEqual({ email: 'demo@example.com', redirect: '/profile', iFrame: true });
  });

  it('not embedded: neither iFrame nor urlPath, even with a referrer', async () => {
    Object.defineProperty(document, 'referrer', { value: 'https://search.example/', configurable: true });
    expect(await submit()).toEqual({ email: 'demo@example.com', redirect: '/profile' });
  });
});

describe('login with an emailed code', () => {
  async function askForCode() {
    renderAt('/?redirect=%2Fprofile');
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'demo@example.com' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Email me a code instead' }));
    });
    return screen.findByLabelText('6-digit code');
  }

  it('keeps the magic link as the primary action', () => {
    renderAt('/');
    expect(screen.getByRole('button', { name: 'Email me a sign-in link' })).toHaveAttribute('type', 'submit');
    expect(screen.getByRole('button', { name: 'Email me a code instead' })).toHaveAttribute('type', 'button');
  });

  it('requests a code, then signs in with it and goes to redirect', async () => {
    stub = stubFetch({
      'POST /api/auth/email': { body: { message: 'ok' } },
      'POST /api/auth/verify': sessionReply(),
    });
    const field = await askForCode();
    expect(stub.calls[0]).toMatchObject({ path: '/api/auth/email', body: { email: 'demo@example.com', redirect: '/profile' } });
    expect(field).toHaveAttribute('inputmode', 'numeric');
    expect(field).toHaveAttribute('autocomplete', 'one-time-code');
    expect(screen.getByRole('status')).toHaveTextContent("we've emailed a 6-digit code to demo@example.com.");
    fireEvent.change(field, { target: { value: '12 34 56' } });
    expect(field).toHaveValue('123456');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    });
    await waitFor(() => expect(window.location.pathname).toBe('/profile'));
    expect(stub.calls[1]).toMatchObject({ path: '/api/auth/verify', body: { email: 'demo@example.com', code: '123456' } });
    expect(authStore.get().authenticated).toBe(true);
  });

  it('announces a wrong code inline and stays on the form', async () => {
    stub = stubFetch({
      'POST /api/auth/email': { body: { message: 'ok' } },
      'POST /api/auth/verify': {
        status: 401,
        body: { status: 401, message: 'That code is wrong or has expired', errors: {}, error: true },
      },
    });
    const field = await askForCode();
    fireEvent.change(field, { target: { value: '000000' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('That code is wrong or has expired.');
    expect(alert.closest('[aria-live]')).toHaveAttribute('aria-live', 'assertive');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(authStore.get().authenticated).toBe(false);
  });

  it('moves the focus with the steps: the code step heading, a refused code back to its field, starting over to the address', async () => {
    stub = stubFetch({
      'POST /api/auth/email': { body: { message: 'ok' } },
      'POST /api/auth/verify': {
        status: 401,
        body: { status: 401, message: 'That code is wrong or has expired', errors: {}, error: true },
      },
    });
    const field = await askForCode();
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Enter your code', level: 1 }));
    expect(document.activeElement).toHaveAttribute('tabindex', '-1');
    fireEvent.change(field, { target: { value: '000000' } });
    screen.getByRole('button', { name: 'Sign in' }).focus();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    });
    await screen.findByRole('alert');
    expect(document.activeElement).toBe(field);
    fireEvent.click(screen.getByRole('button', { name: 'Use a different email address' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Email address'));
  });

  it('puts the focus back on the address when asking for a code fails', async () => {
    stub = stubFetch({
      'POST /api/auth/email': { status: 429, body: { status: 429, message: 'Too many', errors: {}, error: true } },
    });
    renderAt('/');
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'demo@example.com' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Email me a code instead' }));
    });
    await screen.findByRole('alert');
    expect(document.activeElement).toBe(screen.getByLabelText('Email address'));
  });

  it('checks the code has six digits before asking the server', async () => {
    stub = stubFetch({ 'POST /api/auth/email': { body: { message: 'ok' } } });
    const field = await askForCode();
    fireEvent.change(field, { target: { value: '123' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Enter the 6 digits from the email.');
    expect(stub.calls).toHaveLength(1);
  });

  it('shows the 429 message when the code is locked', async () => {
    stub = stubFetch({
      'POST /api/auth/email': { body: { message: 'ok' } },
      'POST /api/auth/verify': {
        status: 429,
        body: { status: 429, message: 'Too many attempts. Please wait a few minutes and try again.', errors: {}, error: true },
      },
    });
    const field = await askForCode();
    fireEvent.change(field, { target: { value: '999999' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Please wait a few minutes and try again.');
  });

  it('asks for a valid address before sending a code', async () => {
    stub = stubFetch({});
    renderAt('/');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Email me a code instead' }));
    });
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a valid email address.');
    expect(stub.calls).toHaveLength(0);
  });
});
