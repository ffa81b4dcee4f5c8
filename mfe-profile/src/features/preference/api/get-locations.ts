import { http, type GeolocationResponse } from '@portal/runtime';

/** GET /api/geolocation: the brand's stores (by name when no position is sent). */
export const getLocations = (signal?: AbortSignal) => http<GeolocationResponse>('/api/geolocation', { signal });
