import { createStore } from './store';

export const NETWORK_POLL_MS = 3000;

// A page drawn ahead of time shows the portal online; the browser's state follows on hydration.
export const networkStore = createStore<{ online: boolean }>(
  { online: typeof navigator === 'undefined' ? true : navigator.onLine !== false },
  { online: true },
);

/** One availability probe; only a failed request (no answer at all) counts as offline. */
export async function probeNetwork(): Promise<boolean> {
  try {
    const res = await fetch('/api/network/available', { headers: { Accept: 'application/json' } });
    let available = true;
    if (res.ok) {
      try {
        const body = await res.json();
        if (body && body.available === false) available = false;
      } catch {
        /* not JSON: the server answered, so we are online */
      }
    }
    networkStore.set({ online: available });
    return available;
  } catch {
    networkStore.set({ online: false });
    return false;
  }
}

/** Follows browser online/offline events and polls the API every 3 s. Returns a stop function. */
export function watchNetwork(intervalMs = NETWORK_POLL_MS): () => void {
  const onOnline = () => {
    networkStore.set({ online: true });
    void probeNetwork();
  };
  const onOffline = () => networkStore.set({ online: false });
  window.addEventListener('online', onOnline);
  window.addEventListener('offline', onOffline);
  const timer = setInterval(() => void probeNetwork(), intervalMs);
  return () => {
    window.removeEventListener('online', onOnline);
    window.removeEventListener('offline', onOffline);
    clearInterval(timer);
  };
}
