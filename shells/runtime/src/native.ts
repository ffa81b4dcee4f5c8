// @portal/runtime/native — the native wrapper's actions (spec 9: loadOfferList, gotoShop,
// gotoWishlist, …) for screens that offer them. A separate entry of the runtime, bundled into the
// packages that use it (no state), so the shell's first load carries none of it.
import { NATIVE_ACTIONS } from './bridge';

export type NativeAction = (typeof NATIVE_ACTIONS)[number];

/** True inside the native wrapper (a React Native WebView) when `action` is one of its actions. */
export function nativeActionAvailable(action: string): action is NativeAction {
  return typeof window !== 'undefined' && !!window.ReactNativeWebView && (NATIVE_ACTIONS as readonly string[]).includes(action);
}

/** Asks the native wrapper to run `action` (e.g. open its wish list); false when there is none. */
export function postNativeAction(action: NativeAction, params: Record<string, unknown> = {}): boolean {
  if (!nativeActionAvailable(action)) return false;
  window.ReactNativeWebView!.postMessage(JSON.stringify({ ...params, action }));
  return true;
}
