import { storesAroundMe } from '@portal/runtime/geolocation';

/**
 * The brand's stores for the preferred-store picker, nearest first: from the device position
 * when the browser already allows it, else the approximate IP position (GET /api/geolocation/me),
 * then GET /api/geolocation with it. Without any position, by name.
 */
export const getLocations = (signal?: AbortSignal) => storesAroundMe(signal);
