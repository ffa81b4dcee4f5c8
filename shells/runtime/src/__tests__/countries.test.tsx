import { act, render, screen } from '@testing-library/react';
import { stubFetch } from '@portal/kit/fetch-stub';
import { countriesStore, findCountry, findState, loadCountries, useCountries, type Country } from '@portal/runtime/countries';
import { loadCountries as load, COUNTRIES_KEY } from '../countries-load';

const loadNow = () => load(countriesStore);

const AU: Country = {
  iso_2: 'AU',
  iso_3: 'AUS',
  name: 'Australia',
  states: [
    { iso_2_country_state_code: 'AU-VIC', iso: 'VIC', name: 'Victoria' },
    { iso_2_country_state_code: 'AU-NSW', iso: 'NSW', name: 'New South Wales' },
  ],
};
const NZ: Country = { iso_2: 'NZ', iso_3: 'NZL', name: 'New Zealand', states: [] };

beforeEach(() => countriesStore.set({ countries: null, loaded: false }));

describe('country and state matching (spec 5)', () => {
  it('matches a country case-insensitively on iso_2, iso_3 or name', () => {
    for (const v of ['AU', 'au', 'AUS', 'aus', 'Australia', ' australia ']) expect(findCountry([NZ, AU], v)).toBe(AU);
    expect(findCountry([NZ, AU], 'Austria')).toBeNull();
    expect(findCountry([NZ, AU], '')).toBeNull();
    expect(findCountry(null, 'AU')).toBeNull();
  });

  it('matches a state case-insensitively on code, iso or name', () => {
    for (const v of ['AU-VIC', 'au-vic', 'VIC', 'vic', 'Victoria', 'VICTORIA']) expect(findState(AU, v)?.iso).toBe('VIC');
    expect(findState(AU, 'new south wales')?.iso).toBe('NSW');
    expect(findState(AU, 'Tasmania')).toBeNull();
    expect(findState(NZ, 'VIC')).toBeNull();
    expect(findState(null, 'VIC')).toBeNull();
  });
});

describe('countries loader (cached like the config)', () => {
  it('fetches the list with its age and caches both', async () => {
    const stub = stubFetch({ 'GET /api/countries/age': { body: { age: 50 } }, 'GET /api/countries': { body: { countries: [AU, NZ] } } });
    await expect(loadNow()).resolves.toEqual([AU, NZ]);
    expect(countriesStore.get()).toEqual({ countries: [AU, NZ], loaded: true });
    expect(JSON.parse(localStorage.getItem(COUNTRIES_KEY)!)).toEqual({ age: 50, countries: [AU, NZ] });
    stub.restore();
  });

  it('uses the cached copy first and does not refetch when the age is not newer', async () => {
    localStorage.setItem(COUNTRIES_KEY, JSON.stringify({ age: 50, countries: [AU] }));
    const stub = stubFetch({ 'GET /api/countries/age': { body: { age: 50 } }, 'GET /api/countries': { body: { countries: [AU, NZ] } } });
    const done = loadNow();
    // The cached copy is there before the age check answers.
    expect(countriesStore.get()).toEqual({ countries: [AU], loaded: true });
    await expect(done).resolves.toEqual([AU]);
    expect(stub.calls.map((c) => c.path)).toEqual(['/api/countries/age']);
    stub.restore();
  });

  it('refetches when the server has newer data', async () => {
    localStorage.setItem(COUNTRIES_KEY, JSON.stringify({ age: 50, countries: [AU] }));
    const stub = stubFetch({ 'GET /api/countries/age': { body: { age: 60 } }, 'GET /api/countries': { body: { countries: [AU, NZ] } } });
    await expect(loadNow()).resolves.toEqual([AU, NZ]);
    expect(stub.calls.map((c) => c.path)).toEqual(['/api/countries/age', '/api/countries']);
    expect(JSON.parse(localStorage.getItem(COUNTRIES_KEY)!).age).toBe(60);
    stub.restore();
  });

  it('only logs a failed fetch, keeping the cached copy', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    localStorage.setItem(COUNTRIES_KEY, JSON.stringify({ age: 50, countries: [AU] }));
    const stub = stubFetch({ 'GET /api/countries/age': { body: { age: 60 } }, 'GET /api/countries': { status: 500 } });
    await expect(loadNow()).resolves.toEqual([AU]);
    expect(warn).toHaveBeenCalled();
    expect(countriesStore.get()).toEqual({ countries: [AU], loaded: true });
    stub.restore();
    warn.mockRestore();
  });

  it('marks the store loaded with no countries when nothing could be had', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const stub = stubFetch({ 'GET /api/countries/age': { networkError: true }, 'GET /api/countries': { networkError: true } });
    await expect(loadNow()).resolves.toBeNull();
    expect(countriesStore.get()).toEqual({ countries: null, loaded: true });
    stub.restore();
    warn.mockRestore();
  });
});

describe('useCountries', () => {
  function Names() {
    const { countries, loaded } = useCountries();
    return <p>{loaded ? (countries ?? []).map((c) => c.name).join(', ') : 'waiting'}</p>;
  }

  it('loads the countries the first time a screen asks, once per page', async () => {
    const stub = stubFetch({ 'GET /api/countries/age': { body: { age: 1 } }, 'GET /api/countries': { body: { countries: [AU, NZ] } } });
    render(<Names />);
    expect(screen.getByText('waiting')).toBeInTheDocument();
    expect(await screen.findByText('Australia, New Zealand')).toBeInTheDocument();
    await act(() => loadCountries());
    render(<Names />);
    expect(stub.calls.filter((c) => c.path === '/api/countries')).toHaveLength(1);
    stub.restore();
  });
});
