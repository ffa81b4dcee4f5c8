import type { CommsComponent, PortalConfig, ProfileComponent, SizeChart } from '@portal/runtime';

/** One garment's size chart (`SizeChart`): the size lists of a garment are index-aligned across systems. */
export type GarmentChart = Required<SizeChart>;

/** Tenant config `components.profile` (`ProfileComponent`), with defaults filled in by `profileSettings` below. */
export interface ProfileSettings extends Required<Omit<ProfileComponent, 'comms' | 'sizes'>> {
  comms: Required<CommsComponent>;
  sizes: Record<string, GarmentChart>;
}

/**
 * The order garments are shown in. A JSON object's key order is not something to rely on (the
 * gateway hands the config over with its keys sorted): known garments first, others after.
 */
export const GARMENT_ORDER = ['tops', 'bottoms', 'dresses', 'shoes'];

/** Spec 1: the channels a member can be contacted on, when the tenant config names none. */
export const DEFAULT_CHANNELS = ['email', 'sms', 'push', 'post'];

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

function chart(v: unknown): GarmentChart | null {
  const c = v as Partial<GarmentChart> | null;
  if (!c || typeof c !== 'object' || !c.systems || typeof c.systems !== 'object') return null;
  const systems: Record<string, string[]> = {};
  for (const [system, sizes] of Object.entries(c.systems)) {
    const list = strings(sizes);
    if (list.length) systems[system] = list;
  }
  if (!Object.keys(systems).length) return null;
  return { systems, fits: strings(c.fits), convertible: c.convertible === true };
}

/**
 * The tenant's `components.profile` (identities, comms, sizes), read defensively: a tenant's
 * config may lack the section or parts of it, and a cached copy may predate it.
 */
export function profileSettings(config: PortalConfig | null | undefined): ProfileSettings {
  // Typed, but checked as it is used: a config cached by an older version may hold anything.
  const raw: { identities?: unknown; comms?: { channels?: unknown; topics?: unknown } | null; sizes?: unknown } =
    config?.components?.profile ?? {};
  const comms = raw.comms ?? {};
  const sizes: Record<string, GarmentChart> = {};
  const rank = (g: string) => (GARMENT_ORDER.includes(g) ? GARMENT_ORDER.indexOf(g) : GARMENT_ORDER.length);
  const garments = Object.entries((raw.sizes ?? {}) as Record<string, unknown>).sort(([a], [b]) => rank(a) - rank(b));
  for (const [garment, value] of garments) {
    const c = chart(value);
    if (c) sizes[garment] = c;
  }
  const channels = strings(comms.channels);
  return {
    identities: strings(raw.identities),
    comms: { channels: channels.length ? channels : DEFAULT_CHANNELS, topics: strings(comms.topics) },
    sizes,
  };
}
