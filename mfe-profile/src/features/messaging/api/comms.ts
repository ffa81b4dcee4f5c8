import { http, type ConsentHistory, type Profile } from '@portal/runtime';

/** PUT /api/profile/attributes/comms body: any subset of the tenant's channels and topics. */
export type CommsUpdate = Record<string, boolean>;

/** PUT /api/profile/attributes/comms with the preferences that change; answers with the whole profile. */
export const putComms = (change: CommsUpdate) => http<Profile>('/api/profile/attributes/comms', { method: 'PUT', body: change });

/** GET /api/profile/attributes/comms/history: consent changes, newest first. */
export const getCommsHistory = (signal?: AbortSignal) => http<ConsentHistory>('/api/profile/attributes/comms/history', { signal });
