import { http, type BenefitList, type BenefitResponse } from '@portal/runtime';

/** GET /api/profile/benefits: current offers, ending soonest first (text overrides already applied). */
export const getBenefits = (signal?: AbortSignal) => http<BenefitList>('/api/profile/benefits', { signal });

/** POST /api/profile/benefits/{id}/activate: idempotent; answers the offer, activated. */
export const activateBenefit = (id: number) => http<BenefitResponse>(`/api/profile/benefits/${id}/activate`, { method: 'POST' });

/** A banner override that is a picture (an https or same-site address) rather than a line of text. */
export function isImageAddress(value: string): boolean {
  return /^(https:\/\/|\/(?!\/))\S+$/i.test(value.trim());
}
