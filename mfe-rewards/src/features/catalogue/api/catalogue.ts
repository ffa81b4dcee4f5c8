import { http, type Catalogue, type RedeemRequest, type RedemptionResponse } from '@portal/runtime';

/** GET /api/profile/rewards/catalogue: what points can buy, cheapest first, with what the member still needs. */
export const getCatalogue = (signal?: AbortSignal) => http<Catalogue>('/api/profile/rewards/catalogue', { signal });

/**
 * POST /api/profile/rewards/redeem: debits the points and issues the voucher, exactly once per
 * `idempotencyKey` (the same key again answers the first result; nothing is debited twice).
 */
export function redeem(catalogueId: string, idempotencyKey: string): Promise<RedemptionResponse> {
  const body: RedeemRequest = { catalogue_id: catalogueId };
  return http<RedemptionResponse>('/api/profile/rewards/redeem', {
    method: 'POST',
    body,
    headers: { 'Idempotency-Key': idempotencyKey },
  });
}
