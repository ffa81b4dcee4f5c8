// The native wrapper's bridge (spec 7, 9): how the portal posts to the app that hosts it in a
// WebView. Every message is an object with an `action`; the protocol, the three shapes of bridge
// and how a wrapper declares its actions are in docs/native-wrapper.md.
//
// Only the top frame talks to the wrapper: a portal page framed inside another page (even inside
// the wrapper's WebView, whose bridge an iframe may see too) posts nothing to it.

/** One message to the native app or an embedding page: an `action` and its details. */
export type BridgeMessage = { action: string } & Record<string, unknown>;

/** The WKWebView message handler the iOS app registers: `webkit.messageHandlers.portal`. */
export const IOS_HANDLER = 'portal';
/** The name the Android app gives its JavaScript interface: `window.PortalAndroid`. */
export const ANDROID_INTERFACE = 'PortalAndroid';
/** The global any wrapper may set before the page loads to declare its actions: `window.PortalNative`. */
export const DECLARATION_GLOBAL = 'PortalNative';

export type NativeBridgeKind = 'react-native' | 'ios' | 'android';

/** A wrapper's bridge, found in this window. */
export interface NativeBridge {
  kind: NativeBridgeKind;
  /** Sends one message in the shape this bridge takes (a JSON string, or an object for iOS). */
  post(message: BridgeMessage): void;
  /** The actions the wrapper declares (any strings), or null when it declares none. */
  declared: readonly string[] | null;
}

declare global {
  interface Window {
    /** react-native-webview's bridge. */
    ReactNativeWebView?: {
      postMessage(message: string): void;
      /**
       * The spec actions this wrapper offers, when it says (e.g. an iOS build lists
       * 'addAppleWallet', an Android one 'addGooglePay'); see `nativeActionAvailable`.
       */
      actions?: readonly string[];
    };
    /** WKWebView: `webkit.messageHandlers.portal.postMessage(object)`. */
    webkit?: { messageHandlers?: Record<string, { postMessage(message: unknown): void } | undefined> };
    /** Android's JavaScript interface (`addJavascriptInterface(…, "PortalAndroid")`). */
    PortalAndroid?: {
      postMessage(message: string): void;
      /** The actions it offers, as a JSON array in a string (a @JavascriptInterface returns strings). */
      getActions?(): string;
    };
    /** Set by any wrapper before the page loads: the actions it offers. */
    PortalNative?: { actions?: readonly string[] };
  }
}

/** True when this window is the page's top frame (an iframe's window is not). */
export function isTopFrame(win: Window = window): boolean {
  try {
    return win.top === win;
  } catch {
    return false;
  }
}

const isList = (value: unknown): value is readonly string[] => Array.isArray(value) && value.every((a) => typeof a === 'string');

/** An Android `getActions()` answer: a JSON array of strings; anything else declares nothing. */
function androidDeclared(android: NonNullable<Window['PortalAndroid']>): readonly string[] | null {
  if (typeof android.getActions !== 'function') return null;
  try {
    const parsed: unknown = JSON.parse(String(android.getActions()));
    return isList(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/**
 * The wrapper's bridge in `win`, or null outside a wrapper and in any frame but the top one.
 * Shapes, first found wins: React Native (`ReactNativeWebView`), iOS (`webkit.messageHandlers.portal`),
 * Android (`PortalAndroid`). Declared actions: `PortalNative.actions` when it is a list, else the
 * shape's own (`ReactNativeWebView.actions`, `PortalAndroid.getActions()`), else none.
 */
export function detectNativeBridge(win: Window | undefined = typeof window === 'undefined' ? undefined : window): NativeBridge | null {
  if (!win || !isTopFrame(win)) return null;
  const global = win[DECLARATION_GLOBAL];
  const uniform = global && isList(global.actions) ? global.actions : null;

  const rn = win.ReactNativeWebView;
  if (rn && typeof rn.postMessage === 'function') {
    return {
      kind: 'react-native',
      post: (m) => rn.postMessage(JSON.stringify(m)),
      declared: uniform ?? (isList(rn.actions) ? rn.actions : null),
    };
  }
  const ios = win.webkit?.messageHandlers?.[IOS_HANDLER];
  if (ios && typeof ios.postMessage === 'function') {
    return {
      kind: 'ios',
      // WKWebView hands the app a dictionary; a JSON round trip leaves only what it can carry.
      post: (m) => ios.postMessage(JSON.parse(JSON.stringify(m))),
      declared: uniform,
    };
  }
  const android = win[ANDROID_INTERFACE];
  if (android && typeof android.postMessage === 'function') {
    return {
      kind: 'android',
      post: (m) => android.postMessage(JSON.stringify(m)),
      declared: uniform ?? androidDeclared(android),
    };
  }
  return null;
}

/** Posts to the native wrapper when the portal runs in one (top frame only); false otherwise. */
export function postToNative(message: BridgeMessage): boolean {
  const bridge = detectNativeBridge();
  if (!bridge) return false;
  try {
    bridge.post(message);
  } catch {
    // A bridge that throws (a wrapper being torn down) must not break the page.
    return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// The spec's actions (section 9) and which of them this wrapper offers.

export const NATIVE_ACTIONS = [
  'loadOfferList',
  'gotoShop',
  'gotoWishlist',
  'gotoCart',
  'deleteMyAccount',
  'firebaseAnalytics',
  'addGooglePay',
  'addAppleWallet',
  'logout',
] as const;

export type NativeAction = (typeof NATIVE_ACTIONS)[number];

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
