// Contract types for the REST API (docs/api-contract.md).
// Code imports types from this file only; once openapi.json exists this file will
// re-export from the generated schema.d.ts (`npm run gen:api`).

export interface ApiErrorBody {
  status: number;
  message: string;
  errors: Record<string, string>;
  error: true;
}

export interface NetworkAvailable {
  available: boolean;
}

export interface AgeResponse {
  age: number;
}

export interface Theme {
  primary?: string;
  onPrimary?: string;
  accent?: string;
  background?: string;
  surface?: string;
  text?: string;
  muted?: string;
  fontFamily?: string;
  radius?: string;
  spacing?: string;
}

export interface SiteMeta {
  title?: string | null;
  description?: string | null;
  ogImageUrl?: string | null;
  url?: string | null;
}

export interface PortalConfig {
  general: {
    tenant: string;
    siteMeta?: SiteMeta | null;
    styleUrl?: string | null;
    publicAssetUrl?: string | null;
    background?: { desktop?: { url?: string | null } | null; color?: string | null } | null;
    logo?: string | null;
    coverHeader?: { sticky?: boolean } | null;
    theme?: Theme | null;
  };
  events?: Record<string, unknown>;
  components?: Record<string, unknown>;
  languages?: string[];
  lastUpdated: number;
}

export interface AuthRequest {
  email: string;
  redirect?: string;
}

export interface MessageResponse {
  message: string;
}

export interface ExchangeRequest {
  token: string;
}

export interface ExchangeResponse {
  token: string;
  expiry: number;
  profile_id: string;
}

export interface Identity {
  handle: string;
  identifier: string;
}

export interface Profile {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  region?: { handle: string } | null;
  tier_handle?: string | null;
  identities?: Identity[];
  custom_attributes?: Record<string, Record<string, unknown>>;
  attributes?: { comms?: Record<string, boolean> } & Record<string, unknown>;
}

export interface TransactionItem {
  id: string;
  name: string;
  quantity: number;
  amount_cents: number;
  product?: { id: string; name: string } | null;
}

export interface Transaction {
  id: string;
  transacted_at: string;
  store?: string | null;
  total_cents: number;
  currency: string;
  items: TransactionItem[];
}

export interface PageMeta {
  page: number;
  per_page: number;
  total: number;
}

export interface TransactionList {
  data: Transaction[];
  meta?: PageMeta;
}

export interface Reward {
  id: number;
  name: string;
  description?: string | null;
  points_cost: number;
  issued_at?: string | null;
  expires_at?: string | null;
}

export interface RewardList {
  data: Reward[];
}

export interface Benefit {
  id: number;
  name: string;
  description?: string | null;
  ends_at?: string | null;
}

export interface BenefitList {
  data: Benefit[];
}

export interface Balances {
  data: { points: number; currency: string };
}

export interface Tier {
  handle: string;
  name: string;
}

export interface TierList {
  data: Tier[];
}

export interface PointsEntry {
  id: number;
  points: number;
  reason?: string | null;
  issued_at?: string | null;
}

export interface PointsList {
  data: PointsEntry[];
}

export type QffPoints =
  | { linked: false }
  | { linked: true; qff_number: string; points: number };

export interface MfeManifestEntry {
  entry: string;
  version: string;
}

export type MfeManifest = Record<string, MfeManifestEntry>;
