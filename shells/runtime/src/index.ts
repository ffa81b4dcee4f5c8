// @portal/runtime — the one shared singleton of the page. Small public API:
// stores + hooks for auth, toasts, config, network, progress and language;
// the HTTP helper; i18n; analytics; the native/iframe bridge; a tiny router.

export { createStore, useStore, type Store } from './store';
export { authStore, type AuthState } from './auth-store';
export {
  initAuth,
  validateToken,
  decodeToken,
  setSession,
  exchangeLinkToken,
  logout,
  checkSession,
  expireSession,
  impersonate,
  LOGOUT_DELAY_MS,
} from './auth';
export { toastStore, addToast, removeToast, visibleToasts, type Toast, type ToastInput } from './toasts';
export { http, toHttpError, isHttpError, UNKNOWN_ERROR, type HttpError, type RequestOptions } from './http';
export {
  i18n,
  initI18n,
  setLanguage,
  registerCatalogs,
  languageFromUrl,
  isLanguage,
  LANGUAGES,
  DEFAULT_LANGUAGE,
  type Language,
  type Catalogs,
} from './i18n';
export { configStore, loadConfig, applyTheme, applyConfig, logoUrl, DEFAULT_TITLE, DEFAULT_DESCRIPTION } from './config';
export { networkStore, watchNetwork, probeNetwork } from './network';
export { progressStore, startProgress } from './progress';
export { track, screenView, onAnalytics, TAB_CLICK_EVENTS, type AnalyticsEvent } from './analytics';
export { postToHost, handleEmbedMessage, isEmbedded } from './bridge';
export { usePathname, useSearch, navigate, matchPath, Link, Routes, type RouteDef } from './router';
export { Loading, ErrorState } from './ui';
export { useAuth, useToasts, useConfig, useOnline, useProgress, useLanguage } from './hooks';
export type * from './api/types';
