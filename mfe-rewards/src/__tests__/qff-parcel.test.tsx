import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { setParcelMounter, type ParcelHandle, type ParcelMounter, type ParcelProps } from '@portal/runtime';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { backend, renderAt, resetAll } from './fixtures';

// The Qantas Frequent Flyer section is mfe-qff's: this MFE only names the remote and its view; the
// shell (here a stand-in mounter) loads and mounts it.

let stub: FetchStub;
beforeEach(() => resetAll());
afterEach(() => {
  stub.restore();
  act(() => setParcelMounter(null));
});

function fakeMounter(outcome: () => Promise<void>) {
  const calls: { remote: string; props: ParcelProps; el: HTMLElement; handle: ParcelHandle }[] = [];
  const mounter: ParcelMounter = (remote, el, props) => {
    const handle = {
      mounted: outcome().then(() => void (el.textContent = 'Frequent flyer parcel')),
      update: jest.fn(),
      unmount: jest.fn(),
    };
    calls.push({ remote, props, el, handle });
    return handle;
  };
  setParcelMounter(mounter);
  return calls;
}

describe('Qantas Frequent Flyer in Rewards', () => {
  it('mounts mfe_qff’s full view as a parcel, after the catalogue and before the history', async () => {
    stub = backend();
    const calls = fakeMounter(() => Promise.resolve());
    const view = await renderAt('/rewards');
    expect(await screen.findByText('Frequent flyer parcel')).toBeInTheDocument();
    expect(calls).toHaveLength(1);
    expect(calls[0].remote).toBe('mfe_qff');
    expect(calls[0].props).toEqual({ view: 'full' });
    const slot = calls[0].el.closest('[data-remote="mfe_qff"]')!;
    const catalogue = screen.getByRole('heading', { name: 'Redeem your points' });
    expect(catalogue.compareDocumentPosition(slot) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(
      slot.compareDocumentPosition(screen.getByRole('heading', { name: 'Points history' })) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    view.unmount();
    expect(calls[0].handle.unmount).toHaveBeenCalledTimes(1);
  });

  it('a remote that fails to load is a small error with a retry; the rest of the page stays', async () => {
    stub = backend();
    let fail = true;
    const calls = fakeMounter(() => (fail ? Promise.reject(new Error('mfe_qff is not in the manifest')) : Promise.resolve()));
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    await renderAt('/rewards');
    // (The name is isolated in a <bdi>: the sentence is split in the DOM.)
    expect(
      await screen.findByText((_, el) => el?.tagName === 'P' && el.textContent === 'Qantas Frequent Flyer could not be loaded.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Points history' })).toBeInTheDocument();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Frequent flyer parcel')).toBeInTheDocument();
    expect(screen.queryByText((_, el) => el?.tagName === 'P' && /could not be loaded/.test(el.textContent ?? ''))).toBeNull();
    expect(calls).toHaveLength(2);
    expect(calls[0].handle.unmount).toHaveBeenCalled();
    await waitFor(() => expect(error).toHaveBeenCalled());
    error.mockRestore();
  });
});
