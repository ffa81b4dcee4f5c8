// @portal/runtime/native — the native wrapper's actions (spec 9: loadOfferList, gotoShop,
// gotoWishlist, …) for screens that offer them. A separate entry of the runtime, bundled into the
// packages that use it (no state), so the shell's first load carries none of it.
import { NATIVE_ACTIONS } from './bridge';
import { detectNativeBridge, postToNative } from './native-bridge';

export type NativeAction = (typeof NATIVE_ACTIONS)[number];

export { detectNativeBridge, isTopFrame, IOS_HANDLER, ANDROID_INTERFACE, DECLARATION_GLOBAL, type NativeBridge, type NativeBridgeKind } from './native-bridge';

/**
 * Platform-specific actions: no wrapper offers both, so one is available only when the wrapper
 * declares it (docs/native-wrapper.md, "Declaring actions").
 */
export const DECLARED_ONLY: readonly NativeAction[] = ['addAppleWallet', 'addGooglePay'];

/**
 * The spec actions the native wrapper offers: exactly those it declares, or, when it declares
 * none, every spec action but the platform-specific ones. None outside the wrapper, and none in
 * a frame that is not the top one.
 */
export function nativeActions(): NativeAction[] {
  const bridge = detectNativeBridge();
  if (!bridge) return [];
  const declared = bridge.declared;
  return NATIVE_ACTIONS.filter((action) => (declared ? declared.includes(action) : !DECLARED_ONLY.includes(action)));
}

/** True inside the native wrapper when it offers `action`: a screen shows that action's button only then. */
export function nativeActionAvailable(action: string): action is NativeAction {
  return (nativeActions() as string[]).includes(action);
}

/** Asks the native wrapper to run `action` (e.g. open its wish list); false when it does not offer it. */
export function postNativeAction(action: NativeAction, params: Record<string, unknown> = {}): boolean {
  if (!nativeActionAvailable(action)) return false;
  return postToNative({ ...params, action });
}
