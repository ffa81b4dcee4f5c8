// The countries reference data is loaded by My Details only (the other screens never ask for it).
import { screen, within } from '@testing-library/react';
import { countriesStore } from '@portal/runtime/countries';
import type { FetchStub } from '@portal/kit/fetch-stub';
import { backend, renderAt, resetAll } from './fixtures';

let stub: FetchStub;

beforeEach(() => {
  resetAll();
  countriesStore.set({ countries: null, loaded: false });
  stub = backend();
});
afterEach(() => stub.restore());

const countryCalls = () => stub.calls.filter((c) => c.path.startsWith('/api/countries')).map((c) => c.path);

it('is not fetched by the other screens', async () => {
  for (const path of ['/size', '/messaging', '/preference']) {
    await renderAt(path);
    await screen.findAllByRole('heading', { level: 2 });
  }
  expect(countryCalls()).toEqual([]);
});

it('is fetched (age check, then the list) when My Details opens, feeding the country picker', async () => {
  await renderAt('/profile');
  const country = await screen.findByLabelText('Country');
  expect(await within(country).findByRole('option', { name: 'New Zealand' })).toBeInTheDocument();
  expect(countryCalls()).toEqual(['/api/countries/age', '/api/countries']);
  expect((country as HTMLSelectElement).value).toBe('AU');
});
