// What the shell saw of each tab, told to the gateway (POST /api/mfe/reports): a tab that failed
// to load, failed to draw or refused to mount (version skew), and each load of a canary release
// (the gateway compares a canary's failures with its loads and rolls it back past a threshold).
// Once per tab, version and outcome per page: single-spa's retries are not new members. Never
// in the way: sent in the background (keepalive), and a failure to send is dropped.
import type { MfeManifest } from '@portal/runtime';

export type RemoteOutcome = 'loaded' | 'load_failed' | 'render_failed' | 'incompatible';

export const REPORT_URL = '/api/mfe/reports';

const sent = new Set<string>();

/** Reports `outcome` for the release of `remote` the manifest names (a stable load is not sent). */
export function reportRemote(manifest: MfeManifest, remote: string, outcome: RemoteOutcome): void {
  const release = manifest[remote];
  if (!release || (outcome === 'loaded' && !release.canary)) return;
  const key = `${remote}@${release.version}:${outcome}`;
  if (sent.has(key)) return;
  sent.add(key);
  try {
    void fetch(REPORT_URL, {
      method: 'POST',
      keepalive: true,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ remote, version: release.version, outcome }),
    }).catch(() => undefined);
  } catch {
    // No fetch (an old browser in a test): nothing to report with.
  }
}

/** Tests: forget what was sent. */
export function resetReports(): void {
  sent.clear();
}
