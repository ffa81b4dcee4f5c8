// Test helpers for the native wrapper (docs/native-wrapper.md): what a stand-in bridge recorded,
// split into actions and analytics events, and removing every kind of bridge after a test.

type Posted = Record<string, unknown>;

/** A React Native bridge that records into `posted` (optionally declaring its actions). */
export function installReactNative(posted: Posted[], actions?: string[]): void {
  window.ReactNativeWebView = { postMessage: (m: string) => posted.push(JSON.parse(m)), ...(actions ? { actions } : {}) };
}

/** Everything posted but analytics. */
export const postedActions = (posted: Posted[]): Posted[] => posted.filter((m) => m.action !== 'firebaseAnalytics');

/** The custom analytics events posted, as { name, params }. */
export const postedEvents = (posted: Posted[]): { name: unknown; params: unknown }[] =>
  posted.filter((m) => m.action === 'firebaseAnalytics' && m.type === 'event').map(({ name, params }) => ({ name, params }));

/** Removes every shape of bridge and declaration a test may have installed. */
export function removeNativeWrappers(): void {
  delete window.ReactNativeWebView;
  delete window.webkit;
  delete window.PortalAndroid;
  delete window.PortalNative;
}
