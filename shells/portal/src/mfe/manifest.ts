import { authStore, type MfeManifest } from '@portal/runtime';

export const MANIFEST_URL = '/mfe-manifest.json';
export const MANIFEST_TIMEOUT_MS = 5000;

/**
 * Fetches the remote list with a timeout; rejects on timeout, HTTP error or bad shape. With the
 * session's token: the gateway answers each member's release (a canary for some of them).
 */
export async function fetchManifest(timeoutMs = MANIFEST_TIMEOUT_MS): Promise<MfeManifest> {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), timeoutMs);
  try {
    const headers: Record<string, string> = { Accept: 'application/json' };
    const { token } = authStore.get();
    if (token) headers.Authorization = `Bearer ${token}`;
    const res = await fetch(MANIFEST_URL, { cache: 'no-store', signal: ctrl.signal, headers });
    if (!res.ok) throw new Error(`manifest HTTP ${res.status}`);
    const body = (await res.json()) as unknown;
    if (!body || typeof body !== 'object') throw new Error('manifest is not an object');
    const manifest: MfeManifest = {};
    for (const [name, value] of Object.entries(body as Record<string, unknown>)) {
      const v = value as { entry?: unknown; version?: unknown; canary?: unknown };
      if (v && typeof v.entry === 'string')
        manifest[name] = { entry: v.entry, version: String(v.version ?? ''), canary: v.canary === true };
    }
    return manifest;
  } finally {
    clearTimeout(timer);
  }
}
