// @portal/runtime/countries — countries reference data (spec 4 "Config and countries", spec 5
// matching rules). A separate entry of the runtime, shared as its own singleton: only My Details
// imports it, so the shell's first load (login, /home) carries none of it. It reaches the rest of
// the runtime through the package name, i.e. the page's one runtime instance, never a copy.
// The loader (cache, age check, the ~400 KB list) is a further chunk, fetched on first use.
import { useEffect } from 'react';
import { createStore, useStore, type Country, type CountryState } from '@portal/runtime';

export type { Country, CountryState };

export const countriesStore = createStore<{ countries: Country[] | null; loaded: boolean }>({
  countries: null,
  loaded: false,
});

let loading: Promise<Country[] | null> | null = null;

/**
 * Loads the countries once per page: the cached copy first, then GET /api/countries only when
 * GET /api/countries/age says the server has newer data. Failures are only logged (spec 8);
 * a failed load is tried again the next time a screen asks.
 */
export function loadCountries(): Promise<Country[] | null> {
  if (!loading) {
    loading = import(/* webpackChunkName: "countries-load" */ './countries-load').then(
      (m) => m.loadCountries(countriesStore),
      (err: unknown) => {
        // The loader's own chunk could not be fetched (offline, or the page is being left, which
        // Firefox reports as a failed load): only logged, like any failed load, and tried again.
        console.warn('countries load failed', err);
        if (!countriesStore.get().loaded) countriesStore.set({ loaded: true });
        return countriesStore.get().countries;
      },
    );
    void loading.then((countries) => {
      if (!countries) loading = null;
    });
  }
  return loading;
}

/** The countries for a screen that needs them (starts loading them on first use). */
export function useCountries(): { countries: Country[] | null; loaded: boolean } {
  useEffect(() => void loadCountries(), []);
  return useStore(countriesStore);
}

const same = (a: string | null | undefined, b: string) => !!a && a.toLowerCase() === b;

/** Spec 5: a country matches case-insensitively on iso_2, iso_3 or name. */
export function findCountry(countries: readonly Country[] | null | undefined, value: string | null | undefined): Country | null {
  const v = value?.trim().toLowerCase();
  if (!v || !countries) return null;
  return countries.find((c) => same(c.iso_2, v) || same(c.iso_3, v) || same(c.name, v)) ?? null;
}

/** Spec 5: a state matches case-insensitively on its code (AU-VIC), iso (VIC) or name. */
export function findState(country: Country | null | undefined, value: string | null | undefined): CountryState | null {
  const v = value?.trim().toLowerCase();
  if (!v || !country) return null;
  return (country.states ?? []).find((s) => same(s.iso_2_country_state_code, v) || same(s.iso, v) || same(s.name, v)) ?? null;
}
