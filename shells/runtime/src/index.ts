// @portal/runtime — the one shared singleton of the page. Small public API:
// stores + hooks for auth, toasts, config, network, progress and language;
// the HTTP helper; i18n; analytics; the native/iframe bridge; a tiny router.

// Module federation shares this package as a singleton, so this runs once per page; the count
// lets the browser tests prove it (a second copy would split auth and toast state).
const page = globalThis as { __portalRuntimeInstances?: number };
page.__portalRuntimeInstances = (page.__portalRuntimeInstances ?? 0) + 1;

export { createStore, useStore, useBrowserValue, useDrawn, DrawnAhead, type Store } from './store';
export { authStore, SIGNED_OUT, type AuthState, type ImpersonatedProfile } from './auth-store';
export {
  initAuth,
  validateToken,
  decodeToken,
  setSession,
  takeUrlToken,
  exchangeToken,
  exchangeLinkToken,
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
  LOGOUT_DELAY_MS,
  IMPERSONATION_NO_TOKEN,
  STAFF_ONLY,
  SESSION_STORAGE_KEYS,
  type UrlToken,
  type SessionChange,
} from './auth';
export {
  AUTH_KEY,
  PROFILE_CACHE_KEY,
  LOYALTY_MEMBER_KEY,
  CARD_DISPLAY_KEY,
  MODE_KEY,
  IMPERSONATION_KEY,
  STAFF_SESSION_KEY,
} from './storage';
export { toastStore, addToast, removeToast, visibleToasts, type Toast, type ToastInput } from './toasts';
export { http, toHttpError, isHttpError, UNKNOWN_ERROR, type HttpError, type RequestOptions } from './http';
export {
  i18n,
  initI18n,
  setLanguage,
  holdLanguage,
  languageReady,
  registerCatalogs,
  catalogsFrom,
  languageFromUrl,
  isLanguage,
  LANGUAGES,
  DEFAULT_LANGUAGE,
  type Language,
  type Catalog,
  type Catalogs,
  type CatalogSource,
} from './i18n';
export {
  configStore,
  loadConfig,
  applyTheme,
  applyConfig,
  logoUrl,
  logoutLogoUrl,
  coverHeader,
  stickyHeader,
  configUrl,
  timeZone,
  allowedOrigins,
  allowedExternalUrl,
  whenConfigLoaded,
  DEFAULT_TITLE,
  DEFAULT_DESCRIPTION,
  DEFAULT_TIME_ZONE,
  TENANT_STYLE_ID,
  DESKTOP_BACKGROUND_VAR,
  type CoverImage,
} from './config';
export { networkStore, watchNetwork, probeNetwork } from './network';
export { progressStore, startProgress } from './progress';
export { track, screenView, onAnalytics, TAB_CLICK_EVENTS, type AnalyticsEvent } from './analytics';
export {
  postToHost,
  postToParent,
  isEmbedded,
  setParentOrigin,
  resetParentOrigin as resetParentOriginForTests,
  parentOrigin,
  takeEmbedderParam,
  embedderUrl,
} from './bridge';
export { LOCATION_EVENT } from './router';
export { NATIVE_ACTIONS, nativeActions, nativeActionAvailable, postNativeAction, type NativeAction } from './native-bridge';
export { usePathname, useSearch, navigate, matchPath, setServerLocation, Link, Routes, type RouteDef } from './router';
export { Loading, ErrorState, FieldError } from './ui';
export { Bdi, BdiTrans, isolateValues } from './bidi';
export { RemoteParcel, setParcelMounter, type ParcelMounter, type ParcelHandle, type ParcelProps } from './parcels';
export { useAuth, useToasts, useConfig, useOnline, useProgress, useLanguage } from './hooks';
export type * from './api/types';
export type * from './api/auth-types';
