// Hand-written from docs/api-contract.md, "Issue 4: the profile tab", until the generated schema
// (shells/runtime/src/api/schema.d.ts) has these routes; then they come from @portal/runtime and
// this file goes.
import type { Profile as GeneratedProfile } from '@portal/runtime';

export interface Address {
  line1: string;
  line2: string;
  city: string;
  /** The subdivision's `iso`, e.g. `VIC`. */
  state: string;
  postcode: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

export interface ProfileIdentity {
  handle: string;
  identifier: string;
}

/** GET /api/profile and the answer of every profile write. */
export type ProfileBody = Omit<GeneratedProfile, 'identities'> & {
  /** `""` when unset. */
  phone: string;
  /** `YYYY-MM-DD`, `""` when unset. */
  birth_date: string;
  /** Always an object; empty strings when unset. */
  address: Address;
  identities: ProfileIdentity[];
};

/** PUT /api/profile: every key optional, only sent keys change. */
export interface ProfileUpdate {
  email?: string;
  first_name?: string;
  last_name?: string;
  phone?: string;
  birth_date?: string;
  address?: Address;
  identities?: ProfileIdentity[];
}

/** PUT /api/profile/attributes/custom/{namespace}:{handle}; empty removes it. */
export interface CustomAttributeUpdate {
  value: string;
}

/** PUT /api/profile/attributes/comms: any subset of the tenant's channels and topics. */
export type CommsUpdate = Record<string, boolean>;

export interface CommsHistoryEntry {
  channel: string;
  value: boolean;
  source: 'member' | 'staff' | 'import' | string;
  /** RFC 3339. */
  at: string;
}

/** GET /api/profile/attributes/comms/history, newest first. */
export interface CommsHistory {
  data: CommsHistoryEntry[];
}

export interface Location {
  id: number;
  handle: string;
  name: string;
  external_code?: string;
  external_id?: string;
  latitude: number;
  longitude: number;
  distance: number | null;
}

/** GET /api/geolocation. */
export interface GeolocationResponse {
  latitude: number | null;
  longitude: number | null;
  locations: Location[];
}

/** One garment's size chart: lists of one garment are index-aligned across systems. */
export interface GarmentChart {
  systems: Record<string, string[]>;
  fits: string[];
  convertible: boolean;
}

/** Tenant config `components.profile`. */
export interface ProfileSettings {
  identities: string[];
  comms: { channels: string[]; topics: string[] };
  sizes: Record<string, GarmentChart>;
}

/** The JSON text stored in `size:<garment>`. */
export interface SizeValue {
  system: string;
  size: string;
  fit: string;
}
