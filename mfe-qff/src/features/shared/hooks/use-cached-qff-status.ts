import { useCallback, useEffect, useState } from 'react';
import { isHttpError, onSessionChange, useAuth } from '@portal/runtime';
import { getQffStatus } from '../api/status';
import type { QffStatus } from '../api/types';

// The summary on /home reads the status without a query library (it is the only remote /home
// loads, and its first load has a budget): a fetch in an effect, with what it used from TanStack
// Query kept: a 30 s cache per account (remounting /home shows it at once), one retry after 1 s
// for network and 5xx errors (a 4xx is an answer, not a hiccup), and refetch for the retry button.
// The account views (react-query) clear it after every write.
export const STALE_MS = 30_000;
export const RETRY_DELAY_MS = 1_000;

export type QffStatusState = { status: 'pending' } | { status: 'error'; error: unknown } | { status: 'success'; data: QffStatus };

let cache: { key: string; data: QffStatus; at: number } | null = null;

/** Forgets the cached answer (after a link, unlink or conversion; tests; a change of account). */
export function clearQffStatusCache(): void {
  cache = null;
}
// Another account (or none) now: nothing of the previous one may stay.
onSessionChange(clearQffStatusCache);

const cached = (key: string) => (cache && cache.key === key ? cache : null);
const retryable = (error: unknown) => !(isHttpError(error) && error.status < 500);

export function useCachedQffStatus() {
  const key = useAuth().profile_id ?? '';
  const [generation, setGeneration] = useState(0);
  const [state, setState] = useState<QffStatusState>(() => {
    const hit = cached(key);
    return hit ? { status: 'success', data: hit.data } : { status: 'pending' };
  });

  useEffect(() => {
    const hit = cached(key);
    // Stale data stays on screen while it is fetched again.
    setState(hit ? { status: 'success', data: hit.data } : { status: 'pending' });
    if (hit && Date.now() - hit.at < STALE_MS) return;
    const ctrl = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const attempt = (tries: number) => {
      getQffStatus(ctrl.signal).then(
        (data) => {
          if (ctrl.signal.aborted) return;
          cache = { key, data, at: Date.now() };
          setState({ status: 'success', data });
        },
        (error: unknown) => {
          if (ctrl.signal.aborted) return;
          if (tries < 1 && retryable(error)) timer = setTimeout(() => attempt(tries + 1), RETRY_DELAY_MS);
          else setState({ status: 'error', error });
        },
      );
    };
    attempt(0);
    return () => {
      ctrl.abort();
      clearTimeout(timer);
    };
  }, [key, generation]);

  const refetch = useCallback(() => {
    if (cached(key)) cache = null;
    setGeneration((g) => g + 1);
  }, [key]);

  return { ...state, refetch };
}
