// @portal/runtime/native — the native wrapper's actions (spec 9: loadOfferList, gotoShop,
// gotoWishlist, …) for screens that offer them. A separate entry of the runtime, bundled into the
// packages that use it (no state), so the shell's first load carries none of it.
import { NATIVE_ACTIONS } from './bridge';

export type NativeAction = (typeof NATIVE_ACTIONS)[number];

/**
 * Platform-specific actions: no wrapper offers both, so one is available only when the wrapper
 * declares it in `window.ReactNativeWebView.actions`.
 */
export const DECLARED_ONLY: readonly NativeAction[] = ['addAppleWallet', 'addGooglePay'];

/**
 * The spec actions the native wrapper offers: exactly those it declares in `actions`, or, when it
 * declares none, every spec action but the platform-specific ones. None outside the wrapper.
 */
export function nativeActions(): NativeAction[] {
  const bridge = typeof window === 'undefined' ? undefined : window.ReactNativeWebView;
  if (!bridge) return [];
  const declared = Array.isArray(bridge.actions) ? bridge.actions : null;
  return NATIVE_ACTIONS.filter((action) => (declared ? declared.includes(action) : !DECLARED_ONLY.includes(action)));
}

/** True inside the native wrapper (a React Native WebView) when it offers `action`. */
export function nativeActionAvailable(action: string): action is NativeAction {
  return (nativeActions() as string[]).includes(action);
}

/** Asks the native wrapper to run `action` (e.g. open its wish list); false when it does not offer it. */
export function postNativeAction(action: NativeAction, params: Record<string, unknown> = {}): boolean {
  if (!nativeActionAvailable(action)) return false;
  window.ReactNativeWebView!.postMessage(JSON.stringify({ ...params, action }));
  return true;
}
