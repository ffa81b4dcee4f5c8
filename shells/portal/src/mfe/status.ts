import { createStore } from '@portal/runtime';

export type ManifestState = 'loading' | 'ready' | 'failed';

/** Load state of the manifest and of each remote; the layout draws fallbacks from it. */
export const remoteStatus = createStore<{ manifest: ManifestState; failed: string[] }>({
  manifest: 'loading',
  failed: [],
});

let retryHandler: (() => void) | null = null;

export function setRetryHandler(fn: (() => void) | null): void {
  retryHandler = fn;
}
export function retryRemotes(): void {
  retryHandler?.();
}
