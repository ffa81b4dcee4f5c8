import { http, type Profile } from '@portal/runtime';

/**
 * The member's profile for Home's greeting, asked for as the page starts (bootstrap), in
 * parallel with the first render rather than after it: the greeting is the page's largest text,
 * so its paint waits for this answer. Home takes the request once; later visits ask afresh.
 */
let early: Promise<Profile> | null = null;

export function prefetchHomeProfile(): void {
  if (early) return;
  early = http<Profile>('/api/profile');
  // Failing before Home takes it (offline, say) is not an unhandled rejection: Home's own
  // handler still sees the failure when it takes the request.
  early.catch(() => undefined);
}

export function homeProfile(signal: AbortSignal): Promise<Profile> {
  const taken = early;
  early = null;
  return taken ?? http<Profile>('/api/profile', { signal });
}
