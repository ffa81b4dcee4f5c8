// @portal/runtime/native — the native wrapper's actions (spec 9: loadOfferList, gotoShop,
// gotoWishlist, …) and its bridge. The same functions are exported by the runtime itself (the
// shared singleton), which is what the shell and the MFEs use; this entry stays for code that
// runs without the shared runtime.
export {
  NATIVE_ACTIONS,
  DECLARED_ONLY,
  nativeActions,
  nativeActionAvailable,
  postNativeAction,
  detectNativeBridge,
  isTopFrame,
  IOS_HANDLER,
  ANDROID_INTERFACE,
  DECLARATION_GLOBAL,
  type NativeAction,
  type NativeBridge,
  type NativeBridgeKind,
} from './native-bridge';
