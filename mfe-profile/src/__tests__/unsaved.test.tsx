// Leaving My Details with unsaved edits (issue 24): a link in the portal, or the browser's Back,
// asks first, in a dialog that keeps the focus; a reload or closing the tab gets the browser's own
// question.
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { navigate, type Profile } from '@portal/runtime';
import { answersWith, backend, renderAt, resetAll } from './fixtures';

let stub: FetchStub;

beforeEach(() => {
  resetAll();
  stub = backend({ 'PUT /api/profile': answersWith((p, body) => ({ ...p, ...(body as Partial<Profile>) })) });
});
afterEach(() => stub.restore());

const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement;
/** Whether a reload or closing the tab would be asked about (beforeunload cancelled). */
const unloadAsks = () => !window.dispatchEvent(new Event('beforeunload', { cancelable: true }));

async function openDetails() {
  await renderAt('/profile');
  await screen.findByRole('heading', { level: 2, name: 'Personal details' });
}

describe('unsaved edits on My Details', () => {
  it('a link asks first; "Stay" keeps the edits and the focus on the link, "Leave" goes', async () => {
    await openDetails();
    fireEvent.change(field('First name'), { target: { value: 'Danielle' } });
    const size = screen.getByRole('link', { name: 'My Size' });
    size.focus();
    fireEvent.click(size);

    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    expect(dialog).toHaveAccessibleDescription(
      "You've changed your details but haven't saved them. If you leave now, your changes are lost.",
    );
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Stay and keep editing' }));
    expect(window.location.pathname).toBe('/profile');

    fireEvent.click(screen.getByRole('button', { name: 'Stay and keep editing' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(window.location.pathname).toBe('/profile');
    expect(field('First name').value).toBe('Danielle');
    expect(document.activeElement).toBe(size);

    fireEvent.click(size);
    fireEvent.click(await screen.findByRole('button', { name: 'Leave without saving' }));
    await waitFor(() => expect(window.location.pathname).toBe('/size'));
  });

  it('Escape stays', async () => {
    await openDetails();
    fireEvent.change(field('City or suburb'), { target: { value: 'Sydney' } });
    fireEvent.click(screen.getByRole('link', { name: 'Messaging Preferences' }));
    const dialog = await screen.findByRole('dialog', { name: 'Leave without saving?' });
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(window.location.pathname).toBe('/profile');
    expect(field('City or suburb').value).toBe('Sydney');
  });

  it('asks nothing with no edits, once an edit is undone, or once it is saved; the reload question follows', async () => {
    await openDetails();
    expect(unloadAsks()).toBe(false);
    fireEvent.change(field('First name'), { target: { value: 'Danielle' } });
    expect(unloadAsks()).toBe(true);
    fireEvent.change(field('First name'), { target: { value: 'Dana' } });
    expect(unloadAsks()).toBe(false);

    fireEvent.change(field('First name'), { target: { value: 'Danielle' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Danielle Demo')).toBeInTheDocument();
    expect(unloadAsks()).toBe(false);
    await act(async () => fireEvent.click(screen.getByRole('link', { name: 'My Size' })));
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(window.location.pathname).toBe('/size'));
  });

  it('the browser\'s Back asks too: "Stay" keeps the address and the edits, "Leave" goes back', async () => {
    await renderAt('/size');
    await act(async () => navigate('/profile'));
    await screen.findByRole('heading', { level: 2, name: 'Personal details' });
    fireEvent.change(field('First name'), { target: { value: 'Danielle' } });

    await act(async () => window.history.back());
    fireEvent.click(await screen.findByRole('button', { name: 'Stay and keep editing' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(window.location.pathname).toBe('/profile');
    expect(field('First name').value).toBe('Danielle');

    await act(async () => window.history.back());
    fireEvent.click(await screen.findByRole('button', { name: 'Leave without saving' }));
    await waitFor(() => expect(window.location.pathname).toBe('/size'));
    expect(await screen.findByRole('link', { name: 'My Size', current: 'page' })).toBeInTheDocument();
    expect(screen.queryByLabelText('First name')).toBeNull();
  });
});
