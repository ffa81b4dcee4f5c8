// The countries loader, its own chunk (see countries.ts). Cached like the config: the cached copy
// is used first and re-fetched only when GET /api/countries/age shows newer data.
import { http, type AgeResponse, type Country, type CountryList, type Store } from '@portal/runtime';

/** localStorage: the countries with the age (unix seconds) they were fetched at. Not cleared at sign-out: not personal. */
export const COUNTRIES_KEY = 'portal.countries';

interface Cached {
  age: number;
  countries: Country[];
}

function readCache(): Cached | null {
  try {
    const parsed = JSON.parse(localStorage.getItem(COUNTRIES_KEY) ?? 'null') as Cached | null;
    return parsed && Array.isArray(parsed.countries) && typeof parsed.age === 'number' ? parsed : null;
  } catch {
    return null;
  }
}

function writeCache(value: Cached): void {
  try {
    localStorage.setItem(COUNTRIES_KEY, JSON.stringify(value));
  } catch {
    /* quota or blocked: the list is still in memory */
  }
}

type CountriesStore = Store<{ countries: Country[] | null; loaded: boolean }>;

export async function loadCountries(store: CountriesStore): Promise<Country[] | null> {
  const cached = readCache();
  if (cached) store.set({ countries: cached.countries, loaded: true });
  try {
    let age = 0;
    try {
      age = (await http<AgeResponse>('/api/countries/age', { quiet: true })).age;
    } catch (err) {
      // Without the age a cached copy is still good; with none, the list itself is still worth asking for.
      if (cached) throw err;
    }
    if (cached && typeof age === 'number' && age <= cached.age) return cached.countries;
    const fresh = await http<CountryList>('/api/countries', { quiet: true });
    if (!fresh || !Array.isArray(fresh.countries)) throw new Error('GET /api/countries: no countries list');
    writeCache({ age: typeof age === 'number' ? age : 0, countries: fresh.countries });
    store.set({ countries: fresh.countries, loaded: true });
    return fresh.countries;
  } catch (err) {
    console.warn('countries load failed', err);
  }
  if (!store.get().loaded) store.set({ loaded: true });
  return store.get().countries;
}
