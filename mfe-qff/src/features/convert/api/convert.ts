import { http } from '@portal/runtime';
import type { ConversionList, ConversionResponse, QffRedeemRequest } from './types';

/**
 * POST /api/qff/redeem: converts `points` (a whole number of blocks) into airline points, exactly
 * once per `idempotencyKey` (the same key again answers the first result; nothing is debited twice).
 */
export function redeemPoints(points: number, idempotencyKey: string): Promise<ConversionResponse> {
  const body: QffRedeemRequest = { points };
  return http<ConversionResponse>('/api/qff/redeem', {
    method: 'POST',
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}

/** GET /api/qff/conversions: the member's conversions, newest first (at most 20). */
export const getConversions = (signal?: AbortSignal) => http<ConversionList>('/api/qff/conversions', { signal });
