import { http } from '@portal/runtime';
import type { CommsHistory, CommsUpdate, ProfileBody } from '../../../api/types';

/** PUT /api/profile/attributes/comms with the preferences that change; answers with the whole profile. */
export const putComms = (change: CommsUpdate) =>
  http<ProfileBody>('/api/profile/attributes/comms', { method: 'PUT', body: change });

/** GET /api/profile/attributes/comms/history: consent changes, newest first. */
export const getCommsHistory = (signal?: AbortSignal) =>
  http<CommsHistory>('/api/profile/attributes/comms/history', { signal });
