import { isHttpError, UNKNOWN_ERROR } from '@portal/runtime';

// How this MFE reads a refusal. The server's sentences are for the member and are shown as they
// are (the partner's field messages, the 503 "isn't answering" sentence, 409 reasons); a server
// fault without such a sentence (5xx other than 503, no answer at all) gets our own text.

/** The server's sentence for the member, or null when there is none worth showing. */
export function serverSentence(err: unknown): string | null {
  if (!isHttpError(err) || !err.message || err.message === UNKNOWN_ERROR) return null;
  if (err.status >= 500 && err.status !== 503) return null;
  return err.message;
}

/** The server's messages for these fields (only those present). */
export function fieldErrors<K extends string>(err: unknown, fields: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  if (!isHttpError(err)) return out;
  for (const f of fields) {
    const message = err.errors[f];
    if (typeof message === 'string' && message) out[f] = message;
  }
  return out;
}

/** Worth trying again with the same request: the partner or the server was unreachable or down. */
export function isTransient(err: unknown): boolean {
  return !isHttpError(err) || err.status >= 500;
}

/** 403 asking for a fresh sign-in before this write (`errors.session: 'reauthenticate'`). */
export function needsSignIn(err: unknown): boolean {
  return isHttpError(err) && err.status === 403 && err.errors.session === 'reauthenticate';
}
