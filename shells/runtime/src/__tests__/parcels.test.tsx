import { act, fireEvent, render, screen } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { RemoteParcel, i18n, initI18n, setParcelMounter, type ParcelHandle, type ParcelMounter, type ParcelProps } from '../index';

// <RemoteParcel>: another micro-frontend's UI mounted through the mounter the shell registers.

type Call = {
  remote: string;
  el: HTMLElement;
  props: ParcelProps;
  handle: ParcelHandle & { update: jest.Mock; unmount: jest.Mock };
  settle: (ok: boolean) => void;
};

function mounter(): { calls: Call[]; mount: ParcelMounter } {
  const calls: Call[] = [];
  const mount: ParcelMounter = (remote, el, props) => {
    let settle!: (ok: boolean) => void;
    const mounted = new Promise<void>((resolve, reject) => {
      settle = (ok) => (ok ? resolve() : reject(new Error(`${remote} failed`)));
    }).then(() => void (el.textContent = `${remote} is here`));
    const handle = { mounted, update: jest.fn(), unmount: jest.fn() };
    calls.push({ remote, el, props, handle, settle });
    return handle;
  };
  return { calls, mount };
}

const renderParcel = (props: ParcelProps, label?: string) =>
  render(
    <I18nextProvider i18n={i18n}>
      <RemoteParcel remote="mfe_qff" props={props} label={label} className="slot" />
    </I18nextProvider>,
  );

let errors: jest.SpyInstance;
beforeAll(() => initI18n('?lang=en'));
beforeEach(() => {
  errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  act(() => setParcelMounter(null));
  errors.mockRestore();
});

describe('RemoteParcel', () => {
  it('draws nothing until the shell registers its mounter, then mounts the remote with the props', async () => {
    const view = renderParcel({ view: 'summary' });
    expect(view.container.querySelector('.slot')).toHaveTextContent('');
    const { calls, mount } = mounter();
    act(() => setParcelMounter(mount));
    expect(calls).toHaveLength(1);
    expect(calls[0].remote).toBe('mfe_qff');
    expect(calls[0].props).toEqual({ view: 'summary' });
    expect(view.container.querySelector('[data-remote="mfe_qff"]')).toContainElement(calls[0].el);
    await act(async () => calls[0].settle(true));
    expect(screen.getByText('mfe_qff is here')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('passes new props (by value) to the mounted parcel, and unmounts it with the page', async () => {
    const { calls, mount } = mounter();
    setParcelMounter(mount);
    const view = renderParcel({ view: 'summary' });
    await act(async () => calls[0].settle(true));
    view.rerender(
      <I18nextProvider i18n={i18n}>
        <RemoteParcel remote="mfe_qff" props={{ view: 'summary' }} className="slot" />
      </I18nextProvider>,
    );
    expect(calls[0].handle.update).not.toHaveBeenCalled();
    view.rerender(
      <I18nextProvider i18n={i18n}>
        <RemoteParcel remote="mfe_qff" props={{ view: 'full' }} className="slot" />
      </I18nextProvider>,
    );
    expect(calls[0].handle.update).toHaveBeenCalledWith({ view: 'full' });
    expect(calls).toHaveLength(1);
    view.unmount();
    expect(calls[0].handle.unmount).toHaveBeenCalledTimes(1);
  });

  it('a remote that fails is a small error naming it, with a retry that mounts again', async () => {
    const { calls, mount } = mounter();
    setParcelMounter(mount);
    renderParcel({ view: 'full' }, 'Qantas Frequent Flyer');
    await act(async () => calls[0].settle(false));
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Qantas Frequent Flyer could not be loaded.');
    expect(alert.querySelector('bdi')).toHaveTextContent('Qantas Frequent Flyer');
    expect(errors).toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(calls[0].handle.unmount).toHaveBeenCalledTimes(1);
    expect(calls).toHaveLength(2);
    expect(screen.queryByRole('alert')).toBeNull();
    await act(async () => calls[1].settle(true));
    expect(screen.getByText('mfe_qff is here')).toBeInTheDocument();
  });

  it('a mounter that throws is a failure too, never a crash of the page', () => {
    setParcelMounter(() => {
      throw new Error('single-spa is not there');
    });
    renderParcel({});
    expect(screen.getByRole('alert')).toHaveTextContent('This part of the page could not be loaded.');
  });
});
