import { createStore } from '@portal/runtime';

export type ManifestState = 'loading' | 'ready' | 'failed';

/** Load state of the manifest and of each remote; the layout draws fallbacks from it. */
export const remoteStatus = createStore<{ manifest: ManifestState; failed: string[] }>({
  manifest: 'loading',
  failed: [],
});

type Mounter = (el: HTMLElement) => () => void;
let homeParcel: Mounter | null = null;
let retryHandler: (() => void) | null = null;

export function setHomeParcelMounter(fn: Mounter | null): void {
  homeParcel = fn;
}
export function getHomeParcelMounter(): Mounter | null {
  return homeParcel;
}
export function setRetryHandler(fn: (() => void) | null): void {
  retryHandler = fn;
}
export function retryRemotes(): void {
  retryHandler?.();
}
