import { http } from '@portal/runtime';
import type { QffStatus } from '../../shared/api/types';
import type { QffLinkRequest, QffValidateResponse } from './types';

/**
 * POST /api/qff/validate: asks the airline whose number it is. Refusals: 422 (or 409 when it is
 * linked to another member) with `errors.qff_number` or `errors.last_name`; 503 partner down.
 */
export const validateQff = (body: QffLinkRequest) => http<QffValidateResponse>('/api/qff/validate', { method: 'POST', body });

/** POST /api/qff/link: the same checks, then links; answers the new status. */
export const linkQff = (body: QffLinkRequest) => http<QffStatus>('/api/qff/link', { method: 'POST', body });
