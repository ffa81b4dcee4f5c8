import { http, type QffPoints } from '@portal/runtime';

export const getQffPoints = (signal?: AbortSignal) => http<QffPoints>('/api/qff/points', { signal });
