import { http, type AccessLogResponse } from '@portal/runtime';

/** GET /api/profile/access-log: staff views of this account, newest first. */
export const getAccessLog = (signal?: AbortSignal) => http<AccessLogResponse>('/api/profile/access-log', { signal });
