// @portal/runtime — the one shared singleton of the page. Small public API:
// stores + hooks for auth, toasts, config, network, progress and language;
// the HTTP helper; i18n; analytics; the native/iframe bridge; a tiny router.
// It exports what the tabs, the shell and @portal/kit import, nothing more: the rest stays
// inside its module. Other entries: ./countries, ./currency, ./geolocation and ./native (each
// loaded only where used), and ./testing for what only tests reach for (setSession, onAnalytics…).

// Module federation shares this package as a singleton, so this runs once per page; the count
// lets the browser tests prove it (a second copy would split auth and toast state).
const page = globalThis as { __portalRuntimeInstances?: number };
page.__portalRuntimeInstances = (page.__portalRuntimeInstances ?? 0) + 1;

export { RUNTIME_API_VERSION } from './version';
export { createStore, useStore, useBrowserValue, useDrawn, DrawnAhead, type Store } from './store';
export { authStore, SIGNED_OUT, type AuthState } from './auth-store';
export {
  initAuth,
  takeUrlToken,
  exchangeToken,
  activityStore,
  verifyCode,
  logout,
  forgetSession,
  signInAgain,
  checkSession,
  expireSession,
  watchSession,
  impersonate,
  stopImpersonation,
  onSessionChange,
} from './auth';
export { sessionWarningStore, staySignedIn, WARN_MS, type SessionWarning } from './session-warning';
export { PROFILE_CACHE_KEY, REWARDS_CACHE_KEY, ORDERS_CACHE_KEY, LOYALTY_MEMBER_KEY, CARD_DISPLAY_KEY, forgetDrafts } from './storage';
export { toastStore, addToast, removeToast } from './toasts';
export { http, toHttpError, isHttpError, UNKNOWN_ERROR } from './http';
export {
  i18n,
  initI18n,
  setLanguage,
  chooseLanguageBeforeSignIn,
  holdLanguage,
  languageReady,
  registerCatalogs,
  catalogsFrom,
  LANGUAGES,
  type Language,
  type Catalogs,
} from './i18n';
export {
  configStore,
  loadConfig,
  logoUrl,
  logoutLogoUrl,
  coverHeader,
  stickyHeader,
  timeZone,
  allowedOrigins,
  allowedExternalUrl,
  whenConfigLoaded,
} from './config';
export { networkStore, watchNetwork } from './network';
export { startProgress } from './progress';
export { track, screenView, TAB_CLICK_EVENTS } from './analytics';
export { postToParent, isEmbedded, setParentOrigin, parentOrigin, takeEmbedderParam, embedderUrl } from './bridge';
export { LOCATION_EVENT } from './router';
export { nativeActionAvailable, postNativeAction, type NativeAction } from './native-bridge';
export {
  usePathname,
  useSearch,
  navigate,
  requestNavigation,
  addLeaveGuard,
  matchPath,
  setServerLocation,
  Link,
  Routes,
  type RouteDef,
  type LeaveGuard,
} from './router';
export { Loading, ErrorState, FieldError } from './ui';
export { Bdi, BdiTrans } from './bidi';
export { RemoteParcel, setParcelMounter, type ParcelMounter, type ParcelHandle, type ParcelProps } from './parcels';
export { useAuth, useToasts, useConfig, useOnline, useProgress, useLanguage } from './hooks';
export type * from './api/types';
export type * from './api/auth-types';
