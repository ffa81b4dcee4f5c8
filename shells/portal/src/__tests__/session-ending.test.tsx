// How a session ends without the member signing out here (issue 24): a warning two minutes
// before its end that does not take the focus from a form ("Stay signed in" renews an idle
// limit), and a device signed out from another one is told so, not that its visit expired.
import { act, fireEvent, screen } from '@testing-library/react';
import { authStore, http, initAuth, toastStore } from '@portal/runtime';
import { makeToken, stubFetch } from '@portal/kit/fetch-stub';
import { NEARBY_STORES_ROUTES, renderAt } from './setup';

const MIN = 60_000;
const nowSecs = () => Math.floor(Date.now() / 1000);
const ROUTES = {
  ...NEARBY_STORES_ROUTES,
  'GET /api/profile': { body: { id: 'p', first_name: 'Dana' } },
  'POST /api/auth/logout': { status: 204 },
};

async function advance(ms: number) {
  await act(async () => {
    await jest.advanceTimersByTimeAsync(ms);
  });
}

function signIn(expInSecs: number) {
  localStorage.setItem('portal.auth', makeToken({ pid: 'p', exp: nowSecs() + expInSecs, typ: 'session' }));
  initAuth();
  toastStore.set({ toasts: [] });
}

afterEach(() => {
  jest.useRealTimers();
  authStore.set({ loggedOut: false, ended: null });
});

describe('the session ending', () => {
  it('warns 2 minutes before the idle end without moving the focus; Stay signed in renews it', async () => {
    jest.useFakeTimers();
    signIn(8 * 3600);
    const stub = stubFetch(ROUTES);
    renderAt('/home');
    await advance(MIN);
    // The last call the server accepted starts the idle time (2 h, less a minute's margin).
    await act(async () => {
      await http('/api/profile');
    });
    // Something being typed keeps its focus when the warning comes.
    const field = document.createElement('input');
    document.body.append(field);
    field.focus();
    await advance(2 * 3600 * 1000 - MIN - 2 * MIN - 1000);
    expect(screen.queryByText('Your session ends in 2 minutes')).not.toBeInTheDocument();
    await advance(2000);
    expect(screen.getByText('Your session ends in 2 minutes').closest('[role=status]')).toHaveTextContent('Your session ends in 2 minutes');
    expect(field).toHaveFocus();
    const before = stub.calls.filter((c) => c.path === '/api/profile').length;
    fireEvent.click(screen.getByRole('button', { name: 'Stay signed in' }));
    await advance(10);
    expect(stub.calls.filter((c) => c.path === '/api/profile').length).toBe(before + 1);
    expect(screen.queryByText('Your session ends in 2 minutes')).not.toBeInTheDocument();
    expect(authStore.get().authenticated).toBe(true);
    field.remove();
    stub.restore();
  });

  it('warns 2 minutes before the token expires, with nothing to renew, then ends it', async () => {
    jest.useFakeTimers();
    signIn(5 * 60);
    const stub = stubFetch(ROUTES);
    renderAt('/home');
    await advance(3 * MIN - 1000);
    expect(screen.queryByText('Your session ends in 2 minutes')).not.toBeInTheDocument();
    await advance(2000);
    expect(screen.getByText('Your session ends in 2 minutes')).toBeInTheDocument();
    expect(screen.getByText("Save what you're doing now: after that you'll need to sign in again.")).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Stay signed in' })).not.toBeInTheDocument();
    await advance(2 * MIN + 500);
    expect(authStore.get().authenticated).toBe(false);
    expect(screen.getByRole('heading', { name: 'Logged out securely' })).toBeInTheDocument();
    expect(
      screen.getByText(
        'Your secure visit has expired. Please log in again: in this tab, your unsaved changes to My Details are kept until you do.',
      ),
    ).toBeInTheDocument();
    stub.restore();
  });

  it('a device signed out from another one says so', async () => {
    jest.useFakeTimers();
    signIn(3600);
    const revoked = { status: 401, message: 'You have been logged out. Please log in again', errors: { session: 'revoked' }, error: true };
    const stub = stubFetch({
      ...ROUTES,
      'GET /api/orders': { status: 401, body: revoked },
      'POST /api/auth/logout': { status: 401, body: revoked },
    });
    renderAt('/home');
    await advance(10);
    await act(async () => {
      await http('/api/orders').catch(() => undefined);
    });
    expect(screen.getByRole('alert')).toHaveTextContent('You were signed out from another device');
    await advance(400);
    expect(authStore.get().authenticated).toBe(false);
    expect(screen.getByRole('heading', { name: 'Signed out from another device' })).toBeInTheDocument();
    expect(screen.queryByText('Your secure visit has expired. Please log in again')).not.toBeInTheDocument();
    stub.restore();
  });
});
