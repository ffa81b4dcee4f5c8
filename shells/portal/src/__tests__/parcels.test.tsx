// The shell mounts a remote's ./app as a single-spa parcel wherever a page (its own /home, or a
// micro-frontend) draws the runtime's <RemoteParcel>: the manifest says where the remote lives,
// module federation loads it (stood in for here), single-spa mounts, updates and unmounts it.
import { act, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { RemoteParcel, i18n, initAuth, initI18n, setParcelMounter } from '@portal/runtime';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { makeToken, stubFetch, type FetchStub } from '@portal/kit/fetch-stub';
import { renderAt } from './setup';
import { startFederation } from '../mfe/federation';
import { remoteStatus } from '../mfe/status';

// Module federation stood in for (jest.mock is hoisted above the imports).
jest.mock('@module-federation/enhanced/runtime', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn() }));

const QFF = { entry: '/mfe/mfe-qff/0.2.0/mf-manifest.json', version: '0.2.0' };

function lifecycles(text = 'frequent flyer') {
  const lc = {
    bootstrap: jest.fn(async () => undefined),
    mount: jest.fn(async (props: { domElement: HTMLElement; view?: string }) => {
      const el = document.createElement('p');
      el.className = 'fake-qff';
      el.textContent = `${text}: ${props.view}`;
      props.domElement.appendChild(el);
    }),
    update: jest.fn(async (props: { domElement: HTMLElement; view?: string }) => {
      props.domElement.querySelector('.fake-qff')!.textContent = `${text}: ${props.view}`;
    }),
    unmount: jest.fn(async (props: { domElement: HTMLElement }) => {
      props.domElement.querySelector('.fake-qff')?.remove();
    }),
  };
  return lc;
}

const parcel = (view: string) => (
  <I18nextProvider i18n={i18n}>
    <RemoteParcel remote="mfe_qff" props={{ view }} label="Qantas Frequent Flyer" />
  </I18nextProvider>
);

let stub: FetchStub;
let manifest: Record<string, unknown> = { mfe_qff: QFF };

beforeAll(async () => {
  initI18n('?lang=en');
  stub = stubFetch({
    'GET /mfe-manifest.json': () => ({ body: manifest }),
    'GET /api/profile': { body: { id: 'p_demo', email: 'd@e.x', first_name: 'Dana', last_name: 'Demo' } },
  });
  await startFederation();
});
afterAll(() => {
  stub.restore();
  setParcelMounter(null);
});

describe('parcels', () => {
  it('mounts the remote’s lifecycles with the props, passes new props to update, and unmounts', async () => {
    const lc = lifecycles();
    jest.mocked(loadRemote).mockResolvedValue(lc);
    expect(registerRemotes).toHaveBeenCalledWith([{ name: 'mfe_qff', entry: QFF.entry }]);
    const view = render(parcel('full'));
    expect(await screen.findByText('frequent flyer: full')).toBeInTheDocument();
    expect(loadRemote).toHaveBeenCalledWith('mfe_qff/app');
    const props = lc.mount.mock.calls[0][0] as unknown as Record<string, unknown>;
    expect(props).toMatchObject({ view: 'full', name: expect.stringMatching(/^parcel-\d+$/) });
    expect(props.domElement).toBeInstanceOf(HTMLElement);

    view.rerender(parcel('identity'));
    expect(await screen.findByText('frequent flyer: identity')).toBeInTheDocument();
    view.unmount();
    await waitFor(() => expect(lc.unmount).toHaveBeenCalledTimes(1));
  });

  it('props that change while the remote is loading reach it once it is mounted', async () => {
    let release: (() => void) | undefined;
    const lc = lifecycles();
    jest.mocked(loadRemote).mockImplementation(() => new Promise((resolve) => (release = () => resolve(lc))));
    const view = render(parcel('summary'));
    await waitFor(() => expect(release).toBeDefined());
    view.rerender(parcel('full'));
    await act(async () => release!());
    expect(await screen.findByText('frequent flyer: full')).toBeInTheDocument();
    view.unmount();
    await waitFor(() => expect(lc.unmount).toHaveBeenCalledTimes(1));
  });

  it('two parcels of one remote on a page get names of their own', async () => {
    const lc = lifecycles();
    jest.mocked(loadRemote).mockResolvedValue(lc);
    const a = render(parcel('summary'));
    const b = render(parcel('full'));
    await screen.findByText('frequent flyer: summary');
    await screen.findByText('frequent flyer: full');
    const names = lc.mount.mock.calls.map((c) => (c[0] as unknown as { name: string }).name);
    expect(new Set(names).size).toBe(2);
    a.unmount();
    b.unmount();
    await waitFor(() => expect(lc.unmount).toHaveBeenCalledTimes(2));
  });

  it('a remote that will not load is a small error on the page, and its retry loads it again', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    jest.mocked(loadRemote).mockRejectedValueOnce(new Error('ScriptExternalLoadError'));
    const view = render(parcel('full'));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Qantas Frequent Flyer could not be loaded.');
    jest.mocked(loadRemote).mockResolvedValue(lifecycles());
    await act(async () => alert.querySelector('button')!.click());
    expect(await screen.findByText('frequent flyer: full')).toBeInTheDocument();
    view.unmount();
    error.mockRestore();
  });

  it('/home mounts the summary view', async () => {
    localStorage.setItem('portal.auth', makeToken({ pid: 'p_demo', exp: Math.floor(Date.now() / 1000) + 600 }));
    initAuth();
    const lc = lifecycles('home card');
    jest.mocked(loadRemote).mockResolvedValue(lc);
    const view = renderAt('/home');
    expect(await screen.findByText('home card: summary')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Hello, Dana' })).toBeInTheDocument();
    view.unmount();
    await waitFor(() => expect(lc.unmount).toHaveBeenCalled());
  });

  it('a remote missing from the manifest is the same small error, not a crash', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    manifest = {};
    act(() => remoteStatus.set({ manifest: 'failed' }));
    render(parcel('full'));
    // The retry of a failed manifest reads it again (without mfe_qff now).
    expect(await screen.findByRole('alert')).toHaveTextContent('Qantas Frequent Flyer could not be loaded.');
    expect(remoteStatus.get().manifest).toBe('ready');
    error.mockRestore();
    manifest = { mfe_qff: QFF };
  });
});
