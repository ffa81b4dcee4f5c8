import type { StoreLocation } from '@portal/runtime';
import { locate, storesNear, type Here } from '@portal/runtime/geolocation';

export interface StoresNearby {
  /** Where the distances are from; null when no position could be had (stores by name). */
  here: Here | null;
  locations: StoreLocation[];
}

/**
 * The brand's stores for the preferred-store picker, nearest first: from the device position
 * when the browser already allows it, else the approximate IP position (GET /api/geolocation/me),
 * then GET /api/geolocation with it. Without any position, by name.
 */
export async function getLocations(signal?: AbortSignal): Promise<StoresNearby> {
  let here: Here | null = null;
  try {
    here = await locate({ signal });
  } catch {
    /* no position: by name */
  }
  return { here, locations: await storesNear(here, signal) };
}
