// What a sign-in request needs wherever it is made: the login page (features/login) and the store
// and event pages' sign-in (features/stores).
import { embedderUrl, isEmbedded, parentOrigin, type AuthRequest } from '@portal/runtime';

/**
 * Inside an embedding page the emailed link must open that page (which hands the token to the
 * iframe, where the sign-in completes in the iframe's own storage), so the sign-in request says
 * so: `iFrame` and the partner page's address as `urlPath` — the one its client package gave
 * (`embedder`) when it is on the parent's origin, else document.referrer. The server accepts
 * only addresses on the tenant's allowed origins. No `urlParams`. Outside an iframe: neither.
 */
export function embedFields(): Pick<AuthRequest, 'iFrame' | 'urlPath'> {
  if (!isEmbedded()) return {};
  const given = embedderUrl();
  const origin = parentOrigin();
  if (given && origin) {
    try {
      if (new URL(given).origin === origin) return { iFrame: true, urlPath: given };
    } catch {
      /* not a URL: fall back to the referrer */
    }
  }
  const referrer = typeof document !== 'undefined' ? document.referrer : '';
  return referrer ? { iFrame: true, urlPath: referrer } : { iFrame: true };
}

/** What an email address must look like before it is sent (the server has the last word). */
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
