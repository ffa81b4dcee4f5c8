import { http, type BenefitList } from '@portal/runtime';

export const getBenefits = (signal?: AbortSignal) => http<BenefitList>('/api/profile/benefits', { signal });
