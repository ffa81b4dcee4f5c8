import { http } from '@portal/runtime';

// Changing the sign-in address (issue 22): a code to the new address first, then the change.
// Only the member themselves, signed in within the last 15 minutes (else 403 with
// `errors.session: 'reauthenticate'`); staff viewing the account are refused.

/** POST /api/profile/email's answer (202): the same whether or not the address has an account. */
export interface EmailCodeSent {
  message: string;
  /** The new address, masked: `n***@example.com`. */
  email: string;
}

/** POST /api/profile/email/verify's answer. */
export interface EmailChanged {
  /** The sign-in address now. */
  email: string;
  /** How many of the member's other sessions were signed out. */
  signed_out: number;
}

/**
 * POST /api/profile/email: a 6-digit code to `email`. 422 `errors.email` (not an address, or
 * already theirs); 403 reauthenticate, or changes locked after an undo; 429 too many.
 */
export const startEmailChange = (email: string) => http<EmailCodeSent>('/api/profile/email', { method: 'POST', body: { email } });

/**
 * POST /api/profile/email/verify: the change, with the emailed code. 422 `errors.code` (wrong or
 * expired) or `errors.email` (the address was taken meanwhile); 429 after too many wrong codes.
 */
export const confirmEmailChange = (code: string) => http<EmailChanged>('/api/profile/email/verify', { method: 'POST', body: { code } });
