import { stubFetch, type FetchStub } from '@portal/kit/fetch-stub';
import {
  directionsUrl,
  findStore,
  formatDistance,
  locate,
  openingState,
  roundCoordinate,
  storesNear,
  zoneName,
  type Hours,
} from '../geolocation';

const HOURS: Hours = {
  mon: [['10:00', '19:00']],
  tue: [['10:00', '19:00']],
  wed: [['10:00', '19:00']],
  thu: [['10:00', '21:00']],
  fri: [['10:00', '21:00']],
  sat: [['10:00', '19:00']],
  sun: [],
};

type Nav = { geolocation?: unknown; permissions?: unknown };
const nav = navigator as unknown as Nav;

function fakeBrowser(permission: PermissionState | 'unsupported', device: 'ok' | 'refuse' | 'none') {
  Object.defineProperty(navigator, 'permissions', {
    configurable: true,
    value: permission === 'unsupported' ? undefined : { query: jest.fn(async () => ({ state: permission })) },
  });
  const getCurrentPosition = jest.fn((ok: PositionCallback, fail: PositionErrorCallback) => {
    if (device === 'ok') ok({ coords: { latitude: -37.818321, longitude: 144.967142 } } as GeolocationPosition);
    else fail({ code: 1, message: 'User denied Geolocation' } as GeolocationPositionError);
  });
  Object.defineProperty(navigator, 'geolocation', { configurable: true, value: device === 'none' ? undefined : { getCurrentPosition } });
  return getCurrentPosition;
}

let stub: FetchStub | undefined;
afterEach(() => {
  stub?.restore();
  stub = undefined;
  delete nav.geolocation;
  delete nav.permissions;
});

const ME = {
  latitude: -31.9811,
  longitude: 115.82,
  source: 'ip',
  country_code: 'AU',
  city: 'Crawley',
  credit: { text: 'IP Geolocation by DB-IP', url: 'https://db-ip.com' },
};

describe('where the member is', () => {
  it('uses the device position, rounded to about 100 m, when the browser already allows it', async () => {
    const ask = fakeBrowser('granted', 'ok');
    stub = stubFetch({ 'GET /api/geolocation/me': { body: ME } });
    await expect(locate()).resolves.toEqual({ latitude: -37.818, longitude: 144.967, source: 'device' });
    expect(ask).toHaveBeenCalledWith(expect.any(Function), expect.any(Function), expect.objectContaining({ timeout: 10_000 }));
    expect(stub.calls).toHaveLength(0);
  });

  it('does not prompt on its own: without permission it takes the IP position, with its credit', async () => {
    const ask = fakeBrowser('prompt', 'ok');
    stub = stubFetch({ 'GET /api/geolocation/me': { body: ME } });
    await expect(locate()).resolves.toEqual({ latitude: -31.9811, longitude: 115.82, source: 'ip', credit: ME.credit });
    expect(ask).not.toHaveBeenCalled();
  });

  it('asks when told to, and falls back to the IP position when the member refuses', async () => {
    const ask = fakeBrowser('prompt', 'refuse');
    stub = stubFetch({ 'GET /api/geolocation/me': { body: { latitude: -37.8136, longitude: 144.9631, source: 'default' } } });
    await expect(locate({ ask: true })).resolves.toEqual({ latitude: -37.8136, longitude: 144.9631, source: 'default', credit: null });
    expect(ask).toHaveBeenCalledTimes(1);
  });

  it('never asks once the member has refused for good, nor where there is no geolocation', async () => {
    const ask = fakeBrowser('denied', 'ok');
    stub = stubFetch({ 'GET /api/geolocation/me': { body: ME } });
    expect((await locate({ ask: true })).source).toBe('ip');
    expect(ask).not.toHaveBeenCalled();
    fakeBrowser('unsupported', 'none');
    expect((await locate({ ask: true })).source).toBe('ip');
  });
});

describe('stores', () => {
  it('asks for the stores nearest a rounded position, or by name without one', async () => {
    stub = stubFetch({ 'GET /api/geolocation': { body: { latitude: null, longitude: null, locations: [] } } });
    await storesNear({ latitude: -37.8183219, longitude: 144.96714 });
    await storesNear(null);
    expect(stub.calls.map((c) => c.url)).toEqual(['/api/geolocation?latitude=-37.818&longitude=144.967', '/api/geolocation']);
    expect(roundCoordinate(-0.00049)).toBe(-0);
  });

  it('finds a store by handle (any case) or by id', () => {
    const stores = [
      { id: 1, handle: 'melbourne-central', name: 'Melbourne Central' },
      { id: 2, handle: 'chadstone', name: 'Chadstone' },
    ] as Parameters<typeof findStore>[0];
    expect(findStore(stores, { handle: 'Chadstone' })?.id).toBe(2);
    expect(findStore(stores, { id: '1' })?.handle).toBe('melbourne-central');
    expect(findStore(stores, { handle: 'atlantis' })).toBeNull();
    expect(findStore(stores, { id: 'x' })).toBeNull();
  });

  it('formats distances in the page language and a sensible unit', () => {
    expect(formatDistance(966, 'en')).toBe('950 m');
    expect(formatDistance(42, 'en')).toBe('40 m');
    expect(formatDistance(13_534, 'en')).toBe('14 km');
    expect(formatDistance(2_449, 'en')).toBe('2.4 km');
    expect(formatDistance(2_449, 'de')).toBe('2,4 km');
    expect(formatDistance(2_449, 'ar')).toMatch(/٢٫٤|2[.,٫]4/);
  });
});

describe('opening hours in the store’s time zone', () => {
  // Thursday 26 November 2026, 09:30 UTC = 20:30 in Melbourne (AEDT, +11) and 17:30 in Perth (+8).
  const now = new Date('2026-11-26T09:30:00Z');

  it('is open now in Melbourne until 21:00, and closed after', () => {
    expect(openingState(HOURS, 'Australia/Melbourne', now)).toEqual({ open: true, closesAt: '21:00' });
    expect(openingState(HOURS, 'Australia/Melbourne', new Date('2026-11-26T10:30:00Z'))).toEqual({
      open: false,
      opensAt: { day: 'fri', time: '10:00', today: false },
    });
  });

  it('uses each store’s own clock: the same instant is 17:30 in Perth', () => {
    expect(openingState(HOURS, 'Australia/Perth', now)).toEqual({ open: true, closesAt: '21:00' });
    // Early Thursday morning in Perth: opens later today.
    expect(openingState(HOURS, 'Australia/Perth', new Date('2026-11-25T23:00:00Z'))).toEqual({
      open: false,
      opensAt: { day: 'thu', time: '10:00', today: true },
    });
  });

  it('skips a closed day and says when it opens next', () => {
    // Saturday 28 November 2026, 20:00 in Melbourne: Sunday is closed, so Monday.
    expect(openingState(HOURS, 'Australia/Melbourne', new Date('2026-11-28T09:00:00Z'))).toEqual({
      open: false,
      opensAt: { day: 'mon', time: '10:00', today: false },
    });
    expect(openingState({}, 'Australia/Melbourne', now)).toEqual({ open: false, opensAt: null });
  });
});

describe('time zone names', () => {
  it('names the store’s zone in the member’s language, and keeps the id for an unknown one', () => {
    const now = new Date('2026-11-26T09:30:00Z');
    expect(zoneName('Australia/Melbourne', 'en', now)).toBe('Australian Eastern Time');
    const ar = zoneName('Australia/Perth', 'ar', now);
    expect(ar).not.toBe('Australia/Perth');
    expect(ar).toMatch(/[\u0600-\u06FF]/);
    expect(zoneName('Mars/Olympus_Mons', 'en', now)).toBe('Mars/Olympus_Mons');
  });
});

describe('directions', () => {
  const store = { latitude: -37.81029, longitude: 144.96284, name: 'Melbourne Central' };
  it('opens Apple Maps on Apple devices and Google Maps elsewhere', () => {
    expect(directionsUrl(store, 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X)')).toBe(
      'https://maps.apple.com/?daddr=-37.81029%2C144.96284&q=Melbourne%20Central',
    );
    expect(directionsUrl(store, 'Mozilla/5.0 (Linux; Android 15; Pixel 9)')).toBe(
      'https://www.google.com/maps/dir/?api=1&destination=-37.81029%2C144.96284',
    );
  });
});
