// Per-tab delivery in the shell: the release of each tab comes from the gateway's manifest for
// the signed-in member (asked with the session's token), and the shell reports what happened to a
// tab (POST /api/mfe/reports): each load of a canary, and every failure to load or to draw, or a
// refusal to mount (version skew), once per tab, version and outcome per page.
import { act, render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { RemoteParcel, i18n, initAuth, initI18n, setParcelMounter } from '@portal/runtime';
import { loadRemote, registerRemotes } from '@module-federation/enhanced/runtime';
import { makeToken, stubFetch, type FetchStub } from '@portal/kit/fetch-stub';
import { startFederation } from '../mfe/federation';
import { fetchManifest } from '../mfe/manifest';
import { REPORT_URL, resetReports } from '../mfe/report';
import { retryRemotes } from '../mfe/status';

jest.mock('@module-federation/enhanced/runtime', () => ({ registerRemotes: jest.fn(), loadRemote: jest.fn() }));

const STABLE = { entry: '/mfe/mfe-qff/0.2.0/mf-manifest.json', version: '0.2.0', canary: false };
const CANARY = { entry: '/mfe/mfe-qff/0.3.0/mf-manifest.json', version: '0.3.0', canary: true };

let stub: FetchStub;
let served: Record<string, unknown> = { mfe_qff: CANARY };
const token = makeToken({ pid: 'prf_1', exp: Math.floor(Date.now() / 1000) + 600, typ: 'session' });

const reports = () => stub.calls.filter((c) => c.path === REPORT_URL).map((c) => c.body);

function lifecycles(mount: (props: Record<string, unknown> & { domElement: HTMLElement }) => Promise<void>) {
  return { bootstrap: async () => undefined, mount: jest.fn(mount), unmount: jest.fn(async () => undefined) };
}

const parcel = (view: string) => (
  <I18nextProvider i18n={i18n}>
    <RemoteParcel remote="mfe_qff" props={{ view }} label="Qantas Frequent Flyer" />
  </I18nextProvider>
);

beforeAll(async () => {
  initI18n('?lang=en');
  localStorage.setItem('portal.auth', token);
  initAuth();
  stub = stubFetch({
    'GET /mfe-manifest.json': () => ({ body: served }),
    [`POST ${REPORT_URL}`]: { status: 204 },
  });
  await startFederation();
});
afterAll(() => {
  stub.restore();
  setParcelMounter(null);
});
beforeEach(() => {
  resetReports();
  stub.calls.length = 0;
});

describe('the manifest', () => {
  it('is asked for with the session, and says which release is a canary', async () => {
    await expect(fetchManifest()).resolves.toEqual({ mfe_qff: CANARY });
    const ask = stub.calls.find((c) => c.path === '/mfe-manifest.json')!;
    expect(ask.headers.Authorization).toBe(`Bearer ${token}`);
  });

  it('is the version the shell loads: the canary entry is the one registered', () => {
    expect(registerRemotes).toHaveBeenCalledWith([{ name: 'mfe_qff', entry: CANARY.entry }]);
  });
});

describe('reports', () => {
  it('a canary that loads is reported once, with its version; mount gets reportProblem', async () => {
    const lc = lifecycles(async (props) => {
      props.domElement.append('frequent flyer');
    });
    jest.mocked(loadRemote).mockResolvedValue(lc);
    const a = render(parcel('summary'));
    const b = render(parcel('full'));
    await screen.findAllByText('frequent flyer');
    await waitFor(() => expect(lc.mount).toHaveBeenCalledTimes(2));
    expect(reports()).toEqual([{ remote: 'mfe_qff', version: '0.3.0', outcome: 'loaded' }]);
    expect(typeof lc.mount.mock.calls[0][0].reportProblem).toBe('function');

    // The tab tells of an error its boundary caught while drawing.
    act(() => (lc.mount.mock.calls[0][0].reportProblem as (o: string) => void)('render_failed'));
    expect(reports()).toContainEqual({ remote: 'mfe_qff', version: '0.3.0', outcome: 'render_failed' });
    a.unmount();
    b.unmount();
  });

  it('a tab that fails to load is reported (the stable release too), and a mount that throws', async () => {
    const quiet = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    served = { mfe_qff: STABLE };
    retryRemotes();
    await waitFor(() => expect(registerRemotes).toHaveBeenLastCalledWith([{ name: 'mfe_qff', entry: STABLE.entry }], { force: true }));
    jest.mocked(loadRemote).mockRejectedValue(new Error('ChunkLoadError'));
    const view = render(parcel('summary'));
    await waitFor(() => expect(reports()).toEqual([{ remote: 'mfe_qff', version: '0.2.0', outcome: 'load_failed' }]));
    view.unmount();

    retryRemotes();
    const lc = lifecycles(async () => {
      throw new Error('cannot draw');
    });
    jest.mocked(loadRemote).mockResolvedValue(lc);
    const again = render(parcel('summary'));
    await waitFor(() => expect(reports()).toContainEqual({ remote: 'mfe_qff', version: '0.2.0', outcome: 'render_failed' }));
    // A stable release that loads is not reported: only canaries need their loads counted.
    expect(reports()).not.toContainEqual(expect.objectContaining({ outcome: 'loaded' }));
    again.unmount();
    quiet.mockRestore();
  });
});
