// Unsaved edits on My Details when the session ends (issue 24): kept in this tab (sessionStorage,
// per member), offered again to the same member once signed in again, with a notice and a way to
// discard them; gone when saved, discarded, left, at an explicit sign-out, or when another member
// signs in, and never shown in another member's form.
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { makeToken, type FetchStub } from '@portal/kit/fetch-stub';
import { authStore, expireSession, logout, type Profile } from '@portal/runtime';
import { setSession } from '@portal/runtime/testing';
import { PROFILE, answersWith, backend, renderAt, resetAll } from './fixtures';

const KEY = 'draft:details:p_demo';
const KEPT = "We kept the changes you hadn't saved.";
/** The runtime ends a session 400 ms after it is asked to (LOGOUT_DELAY_MS). */
const ENDED_AFTER_MS = 450;

let stub: FetchStub;

beforeEach(() => {
  resetAll();
  sessionStorage.clear();
  stub = backend({ 'PUT /api/profile': answersWith((p, body) => ({ ...p, ...(body as Partial<Profile>) })) });
});
afterEach(() => stub.restore());

const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement;
const kept = () => JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
const future = () => Math.floor(Date.now() / 1000) + 3600;

async function openDetails() {
  await renderAt('/profile');
  await screen.findByRole('heading', { level: 2, name: 'Personal details' });
}

/** The session ends (`ending`), then the member's tab is shown afresh to whoever signs in. */
async function sessionEnds(ending: () => unknown) {
  await act(async () => {
    void ending();
    await new Promise((r) => setTimeout(r, ENDED_AFTER_MS));
  });
  expect(authStore.get().authenticated).toBe(false);
  cleanup();
}

const signInAs = (pid: string) => act(() => void setSession(makeToken({ pid, exp: future() })));

describe('unsaved edits kept when the session ends', () => {
  it('are kept while the form is dirty, and gone once undone', async () => {
    await openDetails();
    fireEvent.change(field('First name'), { target: { value: 'Danielle' } });
    expect(kept()).toEqual({ first_name: 'Danielle' });
    fireEvent.change(field('City or suburb'), { target: { value: 'Sydney' } });
    expect(kept()).toEqual({ first_name: 'Danielle', address: { ...PROFILE.address, city: 'Sydney' } });
    fireEvent.change(field('First name'), { target: { value: 'Dana' } });
    fireEvent.change(field('City or suburb'), { target: { value: 'Melbourne' } });
    expect(kept()).toBeNull();
  });

  it('the same member, signed in again after the session expired, gets them back with a notice; saving clears them', async () => {
    await openDetails();
    fireEvent.change(field('First name'), { target: { value: 'Danielle' } });
    await sessionEnds(() => expireSession('expired'));
    expect(kept()).toEqual({ first_name: 'Danielle' });

    await signInAs('p_demo');
    await openDetails();
    expect(field('First name').value).toBe('Danielle');
    expect(field('Last name').value).toBe('Demo');
    expect(screen.getByText(KEPT).closest('[role="status"]')).toContainElement(screen.getByRole('button', { name: 'Discard changes' }));
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Danielle Demo')).toBeInTheDocument();
    expect(screen.queryByText(KEPT)).toBeNull();
    expect(kept()).toBeNull();
  });

  it('"Discard changes" puts the saved values back and forgets them', async () => {
    sessionStorage.setItem(KEY, JSON.stringify({ first_name: 'Danielle', address: { ...PROFILE.address, city: 'Sydney' } }));
    await openDetails();
    expect(field('City or suburb').value).toBe('Sydney');
    fireEvent.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(field('First name').value).toBe('Dana');
    expect(field('City or suburb').value).toBe('Melbourne');
    expect(screen.queryByText(KEPT)).toBeNull();
    expect(kept()).toBeNull();
  });

  it('are kept when another device ends the session, and dropped when another member signs in', async () => {
    await openDetails();
    fireEvent.change(field('First name'), { target: { value: 'Danielle' } });
    await sessionEnds(() => expireSession('elsewhere'));
    expect(kept()).toEqual({ first_name: 'Danielle' });

    await signInAs('p_other');
    expect(kept()).toBeNull();
    await openDetails();
    expect(field('First name').value).toBe('Dana');
    expect(screen.queryByText(KEPT)).toBeNull();
  });

  it("another member's kept edits are never shown, and are removed", async () => {
    sessionStorage.setItem('draft:details:p_other', JSON.stringify({ first_name: 'Olga' }));
    await openDetails();
    expect(field('First name').value).toBe('Dana');
    expect(screen.queryByText(KEPT)).toBeNull();
    expect(sessionStorage.getItem('draft:details:p_other')).toBeNull();
  });

  it('are dropped at an explicit sign-out', async () => {
    await signInAs('p_demo');
    await openDetails();
    fireEvent.change(field('First name'), { target: { value: 'Danielle' } });
    await sessionEnds(() => logout());
    expect(kept()).toBeNull();
  });

  it('are dropped when the member leaves without saving', async () => {
    await openDetails();
    fireEvent.change(field('First name'), { target: { value: 'Danielle' } });
    fireEvent.click(screen.getByRole('link', { name: 'My Size' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Leave without saving' }));
    await waitFor(() => expect(window.location.pathname).toBe('/size'));
    expect(kept()).toBeNull();
  });

  it('are not offered to a staff view of the account (read-only)', async () => {
    sessionStorage.setItem(KEY, JSON.stringify({ first_name: 'Danielle' }));
    act(() => authStore.set({ impersonating: true }));
    await openDetails();
    expect(field('First name').value).toBe('Dana');
    expect(screen.queryByText(KEPT)).toBeNull();
    expect(kept()).toEqual({ first_name: 'Danielle' });
  });
});
