// The native wrapper's bridge (spec 7, 9): how the portal posts to the app that hosts it in a
// WebView. Every message is an object with an `action` (docs/native-wrapper.md).
import type { BridgeMessage } from './bridge';

declare global {
  interface Window {
    ReactNativeWebView?: {
      postMessage(message: string): void;
      /**
       * The spec actions this wrapper offers, when it says (e.g. an iOS build lists
       * 'addAppleWallet', an Android one 'addGooglePay'); see `nativeActionAvailable`.
       */
      actions?: readonly string[];
    };
  }
}

/** Posts to the native wrapper when the portal runs in one; false otherwise. */
export function postToNative(message: BridgeMessage): boolean {
  if (typeof window === 'undefined' || !window.ReactNativeWebView) return false;
  window.ReactNativeWebView.postMessage(JSON.stringify(message));
  return true;
}
