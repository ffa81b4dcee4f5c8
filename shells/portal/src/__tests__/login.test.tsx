import { act, fireEvent, screen } from '@testing-library/react';
import { authStore, initAuth } from '@portal/runtime';
import { makeToken, stubFetch } from '@portal/build/src/fetch-stub';
import { renderAt } from './setup';
import { handleLinkToken } from '../auth-link';

describe('login', () => {
  beforeEach(() => initAuth());

  it('posts the email and redirect, then confirms', async () => {
    const stub = stubFetch({
      'POST /api/auth': { body: { message: 'If that address has an account, a sign-in link is on its way.' } },
    });
    renderAt('/?redirect=%2Fprofile');
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'demo@example.com' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Email me a sign-in link' }));
    });
    expect(await screen.findByText('If that address has an account, a sign-in link is on its way.')).toBeInTheDocument();
    expect(stub.calls[0]).toMatchObject({ method: 'POST', path: '/api/auth', body: { email: 'demo@example.com', redirect: '/profile' } });
    stub.restore();
  });

  it('defaults the redirect to /home and shows field errors', async () => {
    const stub = stubFetch({
      'POST /api/auth': { status: 422, body: { status: 422, message: 'Invalid', errors: { email: 'invalid' }, error: true } },
    });
    renderAt('/');
    fireEvent.change(screen.getByLabelText('Email address'), { target: { value: 'nope' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Email me a sign-in link' }));
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter a valid email address.');
    expect(stub.calls[0].body).toEqual({ email: 'nope', redirect: '/home' });
    stub.restore();
  });

  it('exchanges ?token=, strips it with replaceState and goes to redirect', async () => {
    const session = makeToken({ pid: 'p_demo', exp: Math.floor(Date.now() / 1000) + 3600 });
    const stub = stubFetch({
      'POST /api/auth/exchange': { body: { token: session, expiry: 0, profile_id: 'p_demo' } },
    });
    window.history.replaceState(null, '', '/?token=abc%2B%2F%3D&redirect=%2Fprofile');
    const replace = jest.spyOn(window.history, 'replaceState');
    await expect(handleLinkToken()).resolves.toBe('ok');
    expect(stub.calls[0].body).toEqual({ token: 'abc+/=' });
    expect(replace.mock.calls[0][2]).toBe('/?redirect=%2Fprofile');
    expect(window.location.search).not.toContain('token');
    expect(window.location.pathname).toBe('/profile');
    expect(authStore.get()).toMatchObject({ authenticated: true, profile_id: 'p_demo' });
    replace.mockRestore();
    stub.restore();
  });

  it('redirects a signed-in visitor from / to /home', async () => {
    localStorage.setItem('portal.auth', makeToken({ pid: 'p', exp: Math.floor(Date.now() / 1000) + 600 }));
    initAuth();
    const stub = stubFetch({});
    renderAt('/');
    expect(window.location.pathname).toBe('/home');
    await act(async () => {
      await new Promise((r) => setTimeout(r, 0));
    });
    stub.restore();
  });
});
