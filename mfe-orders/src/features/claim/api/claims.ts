import { http, type ClaimList, type ClaimRequest, type ClaimResponse, type GeolocationResponse, type PortalConfig } from '@portal/runtime';

/** GET /api/profile/claims: the member's claims, newest first (pending ones are matched again). */
export const getClaims = (signal?: AbortSignal) => http<ClaimList>('/api/profile/claims', { signal });

/** POST /api/profile/claims: 201 with the claim (credited at once or pending); 422/409 with field errors. */
export const postClaim = (body: ClaimRequest) => http<ClaimResponse>('/api/profile/claims', { method: 'POST', body });

/** GET /api/geolocation: the brand's stores (by name when no position is sent). */
export const getLocations = (signal?: AbortSignal) => http<GeolocationResponse>('/api/geolocation', { signal });

/** Tenant config `components.claims.windowDays` (default 30), read defensively: a cached config may predate it. */
export function claimWindowDays(config: PortalConfig | null | undefined): number {
  const days: unknown = config?.components?.claims?.windowDays;
  return typeof days === 'number' && Number.isInteger(days) && days > 0 ? days : 30;
}

/**
 * The amount as the API wants it (dollars, a dot before the cents): a leading `$` and spaces
 * dropped, and a decimal comma as typed in many languages ("59,95") read as a dot. Anything else
 * goes as typed, for the server to judge.
 */
export function normaliseAmount(typed: string): string {
  const text = typed
    .trim()
    .replace(/^\$\s*/, '')
    .replace(/\s+/g, '');
  return /^\d+,\d{1,2}$/.test(text) ? text.replace(',', '.') : text;
}
