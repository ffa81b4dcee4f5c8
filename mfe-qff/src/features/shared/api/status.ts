import { http } from '@portal/runtime';
import type { QffStatus } from './types';

/** GET /api/qff/points: linked or not, the airline balance, and the conversion rule. */
export const getQffStatus = (signal?: AbortSignal) => http<QffStatus>('/api/qff/points', { signal });
