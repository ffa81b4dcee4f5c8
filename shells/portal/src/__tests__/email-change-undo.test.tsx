// /email-change/undo?key=… (issue 22): the link the old address gets after a change of the sign-in
// address. Against POST /api/auth/email-change/undo at the fetch boundary: nothing is sent until
// the member taps, no session is needed, and once undone a session this browser holds is forgotten
// (the server ended every session) without the Logged out screen.
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { PROFILE_CACHE_KEY, authStore, initAuth, networkStore, setLanguage } from '@portal/runtime';
import { AUTH_KEY } from '@portal/runtime/testing';
import { makeToken, stubFetch, type FetchStub, type StubRoute } from '@portal/kit/fetch-stub';
import { renderAt } from './setup';

const KEY = 'k3y-FROM_the-notice';
const DONE =
  'Your sign-in address is d***@example.com again and everyone using your account has been signed out. Sign in again to continue.';
const UNUSABLE = 'This link has expired or has already been used';
const now = () => Math.floor(Date.now() / 1000);

let stub: FetchStub | undefined;
const undoCalls = () => (stub?.calls ?? []).filter((c) => c.path === '/api/auth/email-change/undo');

function backend(undo: StubRoute) {
  stub = stubFetch({ 'POST /api/auth/email-change/undo': undo, 'POST /api/auth/logout': { status: 204 } });
  return stub;
}

beforeEach(() => {
  localStorage.clear();
  initAuth();
});
afterEach(() => {
  stub?.restore();
  stub = undefined;
  act(() => networkStore.set({ online: true }));
});

/** A member signed in on this browser (the session the undo ends on the server). */
function signedInHere() {
  const token = makeToken({ pid: 'p_demo', exp: now() + 3600, typ: 'session' });
  localStorage.setItem(AUTH_KEY, token);
  localStorage.setItem(PROFILE_CACHE_KEY, '{"profile":"cached"}');
  initAuth();
  return token;
}

async function open(path = `/email-change/undo?key=${KEY}`) {
  renderAt(path);
  return screen.findByRole('heading', { level: 1, name: 'Undo the change of your email address' });
}

describe('undoing a change of the sign-in address', () => {
  it('says what undoing does and sends nothing until the member taps', async () => {
    backend({ body: { message: DONE } });
    await open();
    const screenEl = screen.getByRole('region', { name: 'Undo the change of your email address' });
    const what = within(screenEl)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(what).toEqual([
      'Your old address comes back: sign-in links and codes go to it again.',
      'Everyone using your account is signed out, on every device.',
      "The address can't be changed again for 3 days.",
    ]);
    expect(screen.getByRole('button', { name: 'Undo the change' })).toBeInTheDocument();
    await act(async () => {
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(undoCalls()).toEqual([]);
  });

  it('undoes it: the key sent without a session, the server’s message, the session held here forgotten, and Sign in', async () => {
    backend({ body: { message: DONE } });
    signedInHere();
    await open();
    fireEvent.click(screen.getByRole('button', { name: 'Undo the change' }));
    const title = await screen.findByRole('heading', { level: 1, name: 'Your email address is back' });
    await waitFor(() => expect(title).toHaveFocus());
    expect(undoCalls().map((c) => c.body)).toEqual([{ key: KEY }]);
    expect(undoCalls()[0].headers.Authorization).toBeUndefined();
    expect(screen.getByText(DONE)).toBeInTheDocument();
    // The server already ended every session: forgotten here, without another call, and this
    // screen stays (not the Logged out one).
    expect(authStore.get()).toMatchObject({ authenticated: false, loggedOut: false, token: null });
    expect(localStorage.getItem(AUTH_KEY)).toBeNull();
    expect(localStorage.getItem(PROFILE_CACHE_KEY)).toBeNull();
    expect(stub!.calls.filter((c) => c.path === '/api/auth/logout')).toEqual([]);
    expect(window.location.pathname).toBe('/email-change/undo');
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/');
  });

  it('a link that expired or was used (401): says so, and a session held here stays', async () => {
    backend({ status: 401, body: { status: 401, message: UNUSABLE, errors: {}, error: true } });
    const token = signedInHere();
    await open();
    fireEvent.click(screen.getByRole('button', { name: 'Undo the change' }));
    const title = await screen.findByRole('heading', { level: 1, name: "This link can't be used" });
    await waitFor(() => expect(title).toHaveFocus());
    expect(screen.getByText('This link has expired or has already been used.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Undo the change' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/');
    expect(authStore.get()).toMatchObject({ authenticated: true, token });
  });

  it('without a key the link can’t be used, and nothing is asked', async () => {
    backend({ body: { message: DONE } });
    renderAt('/email-change/undo');
    expect(await screen.findByRole('heading', { level: 1, name: "This link can't be used" })).toBeInTheDocument();
    expect(undoCalls()).toEqual([]);
  });

  it('too many attempts (429) or a failure: said, and the member may try again', async () => {
    const replies = [
      { status: 429, body: { status: 429, message: 'Too many attempts', errors: {}, error: true } },
      { networkError: true },
      { body: { message: DONE } },
    ];
    backend(() => replies.shift()!);
    await open();
    fireEvent.click(screen.getByRole('button', { name: 'Undo the change' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts. Please wait a few minutes and try again.');
    fireEvent.click(screen.getByRole('button', { name: 'Undo the change' }));
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent("We couldn't undo the change just now. Please try again."));
    fireEvent.click(screen.getByRole('button', { name: 'Undo the change' }));
    await screen.findByRole('heading', { level: 1, name: 'Your email address is back' });
    expect(undoCalls()).toHaveLength(3);
  });

  it('offline, the button is off with the reason', async () => {
    backend({ body: { message: DONE } });
    await open();
    act(() => networkStore.set({ online: false }));
    const undo = screen.getByRole('button', { name: 'Undo the change' });
    expect(undo).toBeDisabled();
    expect(undo).toHaveAccessibleDescription("You're offline. You can save again when you're back online.");
  });

  it('is in Arabic with the page language, the outcome in the catalog’s words', async () => {
    backend({ body: { message: DONE } });
    await open();
    await act(async () => {
      setLanguage('ar');
    });
    const undo = await screen.findByRole('button', { name: 'التراجع عن التغيير' });
    expect(screen.getByRole('heading', { level: 1, name: 'التراجع عن تغيير بريدك الإلكتروني' })).toBeInTheDocument();
    fireEvent.click(undo);
    expect(await screen.findByRole('heading', { level: 1, name: 'عاد عنوان بريدك الإلكتروني' })).toBeInTheDocument();
    expect(screen.getByText(/^عاد عنوان بريدك الإلكتروني القديم/)).toBeInTheDocument();
    expect(screen.queryByText(DONE)).toBeNull();
    await act(async () => {
      setLanguage('en');
    });
  });
});
