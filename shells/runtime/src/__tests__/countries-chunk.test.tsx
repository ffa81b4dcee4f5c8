// The countries loader is a chunk of its own: when it can't be fetched (offline, or a page being
// left, which Firefox reports as a failed load), the failure is only logged, a screen waiting for
// the list stops waiting, and the next screen that asks tries again (issue 27).
import { countriesStore, loadCountries } from '@portal/runtime/countries';

let chunkFails = true;
jest.mock('../countries-load', () => {
  if (chunkFails) throw new Error('Loading chunk countries-load failed');
  return { loadCountries: async () => [{ iso_2: 'AU', iso_3: 'AUS', name: 'Australia', states: [] }] };
});

it('a failed loader chunk is logged, not thrown; the store is loaded with no list; the next ask tries again', async () => {
  const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  const unhandled = jest.fn();
  process.on('unhandledRejection', unhandled);
  try {
    await expect(loadCountries()).resolves.toBeNull();
    expect(countriesStore.get()).toEqual({ countries: null, loaded: true });
    expect(warn).toHaveBeenCalledWith('countries load failed', expect.any(Error));
    await new Promise((r) => setTimeout(r, 0));
    expect(unhandled).not.toHaveBeenCalled();

    chunkFails = false;
    jest.resetModules();
    await expect(loadCountries()).resolves.toEqual([expect.objectContaining({ iso_2: 'AU' })]);
  } finally {
    process.off('unhandledRejection', unhandled);
    warn.mockRestore();
  }
});
