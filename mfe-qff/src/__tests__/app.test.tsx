import { act, screen } from '@testing-library/react';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { bootstrap, mount, unmount, update } from '../app';
import { LINKED, backend, resetAll } from './fixtures';

let stub: FetchStub | undefined;
beforeEach(() => resetAll());
afterEach(() => {
  stub?.restore();
  stub = undefined;
});

describe('parcel lifecycles (./app)', () => {
  it('mount the view named by the props (summary by default), switch on update, and unmount cleanly', async () => {
    stub = backend({ 'GET /api/qff/points': { body: LINKED } });
    const host = document.createElement('div');
    document.body.appendChild(host);
    const props = { name: 'mfe_qff:parcel-1', domElement: host };
    await bootstrap();
    await act(() => mount(props));
    expect(await screen.findByText('48,250')).toBeInTheDocument();
    expect(host.querySelector('#single-spa-application\\:mfe_qff\\:parcel-1')).not.toBeNull();

    await act(() => update({ ...props, view: 'full' }));
    expect(await screen.findByRole('region', { name: 'Convert points to Qantas Points' })).toBeInTheDocument();
    expect(screen.getByText('48,250 Qantas Points')).toBeInTheDocument();

    await act(() => unmount(props));
    expect(host).toBeEmptyDOMElement();
    host.remove();
  });

  it('mounts two parcels side by side, each by its own name', async () => {
    stub = backend({ 'GET /api/qff/points': { body: LINKED } });
    const a = document.createElement('div');
    const b = document.createElement('div');
    document.body.append(a, b);
    await act(() => mount({ name: 'mfe_qff:parcel-a', domElement: a, view: 'summary' }));
    await act(() => mount({ name: 'mfe_qff:parcel-b', domElement: b, view: 'identity' }));
    expect(await screen.findByText('48,250')).toBeInTheDocument();
    expect(await screen.findByText('48,250 Qantas Points')).toBeInTheDocument();
    await act(() => unmount({ name: 'mfe_qff:parcel-a', domElement: a }));
    expect(a).toBeEmptyDOMElement();
    expect(b).not.toBeEmptyDOMElement();
    await act(() => unmount({ name: 'mfe_qff:parcel-b', domElement: b }));
    a.remove();
    b.remove();
  });

  it('refuses to mount without an element', async () => {
    await expect(mount({ name: 'mfe_qff:nowhere' })).rejects.toThrow('mfe_qff:nowhere: no DOM element to mount into');
  });
});
