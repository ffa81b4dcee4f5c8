import { http } from '@portal/runtime';
import type { GeolocationResponse } from '../../../api/types';

/** GET /api/geolocation: the brand's stores (by name when no position is sent). */
export const getLocations = (signal?: AbortSignal) => http<GeolocationResponse>('/api/geolocation', { signal });
