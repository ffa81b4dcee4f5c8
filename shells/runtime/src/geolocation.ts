// @portal/runtime/geolocation — where the member is and which stores are near (spec 4
// "Geolocation": locations ordered by distance using the device position, falling back to the IP
// position; spec 8: a failed geolocation falls back to the IP lookup). A separate entry of the
// runtime, bundled into each package that imports it (no state of its own): it reaches the rest
// of the runtime through the package name, so the page's one `http` and auth are used.
//
// Privacy: the device position is rounded to about 100 m before it leaves the browser, is sent
// only as the query of GET /api/geolocation (the server computes distances and keeps nothing; its
// logs carry paths, not query strings) and is never stored here either.
import { http, type GeolocationResponse, type StoreLocation, type Whereabouts } from '@portal/runtime';

export type { StoreLocation };

/** Where distances are measured from, and how that was learned. */
export interface Here {
  latitude: number;
  longitude: number;
  /** `device`: the browser's position; `ip`: from the internet address; `default`: the brand's. */
  source: 'device' | 'ip' | 'default';
  /** The IP database's credit, shown wherever an IP position is used (its licence asks it). */
  credit?: { text: string; url?: string | null } | null;
}

/** How long the browser may take to find the device before the IP position is used instead. */
export const DEVICE_TIMEOUT_MS = 10_000;

/** Three decimals of a degree: about 110 m of latitude, enough to order stores. */
export function roundCoordinate(v: number): number {
  return Math.round(v * 1000) / 1000;
}

export type PermissionStateLike = 'granted' | 'denied' | 'prompt' | 'unknown';

/** Whether the page may already read the device position (without asking). */
export async function geolocationPermission(): Promise<PermissionStateLike> {
  try {
    if (typeof navigator === 'undefined' || !navigator.permissions?.query) return 'unknown';
    const status = await navigator.permissions.query({ name: 'geolocation' as PermissionName });
    return status.state as PermissionStateLike;
  } catch {
    return 'unknown';
  }
}

/** The device position, rounded; rejects when refused, unavailable or slower than `timeoutMs`. */
export function devicePosition(timeoutMs = DEVICE_TIMEOUT_MS): Promise<{ latitude: number; longitude: number }> {
  return new Promise((resolve, reject) => {
    const geo = typeof navigator !== 'undefined' ? navigator.geolocation : undefined;
    if (!geo) {
      reject(new Error('Geolocation is not available'));
      return;
    }
    geo.getCurrentPosition(
      (p) => resolve({ latitude: roundCoordinate(p.coords.latitude), longitude: roundCoordinate(p.coords.longitude) }),
      (err) => reject(err),
      { enableHighAccuracy: false, timeout: timeoutMs, maximumAge: 5 * 60_000 },
    );
  });
}

/** GET /api/geolocation/me: the IP position, or the brand's default position. */
export async function ipPosition(signal?: AbortSignal): Promise<Here> {
  const r = await http<Whereabouts>('/api/geolocation/me', { signal, quiet: true });
  return {
    latitude: r.latitude,
    longitude: r.longitude,
    source: r.source === 'ip' ? 'ip' : 'default',
    credit: r.credit ?? null,
  };
}

/**
 * Where the member is. The device position when `ask` is true (the browser may prompt) or when
 * the permission is already granted; otherwise — and whenever the device refuses, fails or takes
 * too long — the IP position. Asking without a gesture on every visit would nag; a page offers a
 * button that calls this with `ask: true`.
 */
export async function locate({ ask = false, signal }: { ask?: boolean; signal?: AbortSignal } = {}): Promise<Here> {
  const permission = await geolocationPermission();
  if (ask ? permission !== 'denied' : permission === 'granted') {
    try {
      const p = await devicePosition();
      return { ...p, source: 'device' };
    } catch {
      /* refused, unavailable or timed out: the IP position */
    }
  }
  return ipPosition(signal);
}

/** The brand's stores, nearest first from `here` (all of them, by name, without a position). */
export async function storesNear(here: Pick<Here, 'latitude' | 'longitude'> | null, signal?: AbortSignal): Promise<StoreLocation[]> {
  const q = here ? `?latitude=${roundCoordinate(here.latitude)}&longitude=${roundCoordinate(here.longitude)}` : '';
  const r = await http<GeolocationResponse>(`/api/geolocation${q}`, { signal });
  return r.locations;
}

/** The brand's stores nearest first from wherever the member is (`locate`), by name when no position can be had. */
export async function storesAroundMe(signal?: AbortSignal): Promise<{ here: Here | null; stores: StoreLocation[] }> {
  let here: Here | null = null;
  try {
    here = await locate({ signal });
  } catch {
    /* no position at all: the stores without distances */
  }
  return { here, stores: await storesNear(here, signal) };
}

/** A store's page in the portal (spec 2: /loc/{handle}). */
export function storePath(handle: string): string {
  return `/loc/${encodeURIComponent(handle)}`;
}

/** One store from a location page's address: its handle, or its id (`?location_id=`). */
export function findStore(stores: StoreLocation[], key: { handle?: string | null; id?: string | null }): StoreLocation | null {
  const handle = key.handle?.trim().toLowerCase();
  if (handle) return stores.find((s) => s.handle.toLowerCase() === handle) ?? null;
  const id = key.id?.trim();
  if (id && /^\d+$/.test(id)) return stores.find((s) => String(s.id) === id) ?? null;
  return null;
}

/** Metres in the page's language: "850 m", "2.4 km", "13 km" (Intl unit formatting). */
export function formatDistance(metres: number, lang: string): string {
  if (metres < 1000) {
    const m = metres < 100 ? Math.max(10, Math.round(metres / 10) * 10) : Math.round(metres / 50) * 50;
    return new Intl.NumberFormat(lang, { style: 'unit', unit: 'meter', unitDisplay: 'short' }).format(m);
  }
  const km = metres / 1000;
  return new Intl.NumberFormat(lang, {
    style: 'unit',
    unit: 'kilometer',
    unitDisplay: 'short',
    maximumFractionDigits: km < 10 ? 1 : 0,
  }).format(km);
}

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export type Hours = Partial<Record<Weekday, [string, string][]>>;

/** The store's local weekday and minutes since midnight at `now`. */
export function localTime(timeZone: string, now: Date): { day: Weekday; minutes: number } {
  const partsIn = (zone: string) =>
    new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    }).formatToParts(now);
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = partsIn(timeZone);
  } catch {
    // An unknown zone: the default one (spec 9), as the server counts a visit's day.
    parts = partsIn('Australia/Melbourne');
  }
  const get = (t: string) => parts.find((p) => p.type === t)?.value ?? '';
  const day = get('weekday').slice(0, 3).toLowerCase() as Weekday;
  return { day, minutes: Number(get('hour')) * 60 + Number(get('minute')) };
}

/** A time zone's everyday name in the member's language ("Australian Eastern Time"), else its id. */
export function zoneName(timeZone: string, lang: string, now: Date = new Date()): string {
  try {
    const part = new Intl.DateTimeFormat(lang, { timeZone, timeZoneName: 'longGeneric' })
      .formatToParts(now)
      .find((p) => p.type === 'timeZoneName');
    return part?.value || timeZone;
  } catch {
    return timeZone;
  }
}

const toMinutes = (hhmm: string) => {
  const [h, m] = hhmm.split(':').map(Number);
  return h * 60 + m;
};

export type OpeningState =
  { open: true; closesAt: string } | { open: false; opensAt: { day: Weekday; time: string; today: boolean } | null };

/** Open now (until when) or closed (opening when next), in the store's own time zone. */
export function openingState(hours: Hours, timeZone: string, now: Date = new Date()): OpeningState {
  const { day, minutes } = localTime(timeZone, now);
  const today = WEEKDAYS.indexOf(day);
  for (const [from, to] of hours[day] ?? []) {
    if (minutes >= toMinutes(from) && minutes < toMinutes(to)) return { open: true, closesAt: to };
  }
  for (let ahead = 0; ahead < 7; ahead += 1) {
    const d = WEEKDAYS[(today + ahead) % 7];
    const next = (hours[d] ?? []).map(([from]) => from).find((from) => ahead > 0 || toMinutes(from) > minutes);
    if (next) return { open: false, opensAt: { day: d, time: next, today: ahead === 0 } };
  }
  return { open: false, opensAt: null };
}

/** Whether this looks like an Apple device, whose maps app opens maps.apple.com links. */
export function isApplePlatform(ua: string = typeof navigator !== 'undefined' ? navigator.userAgent : ''): boolean {
  return /iPhone|iPad|iPod|Macintosh/.test(ua) && !/Android/.test(ua);
}

/** Directions to the store in the device's maps app: Apple Maps on Apple devices, else Google Maps. */
export function directionsUrl(store: Pick<StoreLocation, 'latitude' | 'longitude' | 'name'>, ua?: string): string {
  const dest = `${store.latitude},${store.longitude}`;
  if (isApplePlatform(ua)) return `https://maps.apple.com/?daddr=${encodeURIComponent(dest)}&q=${encodeURIComponent(store.name)}`;
  return `https://www.google.com/maps/dir/?api=1&destination=${encodeURIComponent(dest)}`;
}
