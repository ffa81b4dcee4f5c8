import { act, screen } from '@testing-library/react';
import { initI18n } from '@portal/runtime';
import { stubFetch, type FetchStub } from '@portal/build/src/fetch-stub';
import { bootstrap, mount, unmount } from '../app';
import { clearQffPointsCache } from '../features/points/hooks/use-qff-points';

let stub: FetchStub | undefined;
beforeEach(() => initI18n('?lang=en'));
afterEach(() => {
  stub?.restore();
  clearQffPointsCache();
});

it('mounts as a parcel into the given element and unmounts cleanly', async () => {
  stub = stubFetch({ 'GET /api/qff/points': { body: { linked: true, qff_number: '1900123456', points: 1 } } });
  const host = document.createElement('div');
  document.body.appendChild(host);
  const props = { name: 'mfe_qff:home', domElement: host };
  await bootstrap();
  await act(() => mount(props));
  expect(await screen.findByText('1900123456')).toBeInTheDocument();
  await act(() => unmount(props));
  expect(host).toBeEmptyDOMElement();
  host.remove();
});
