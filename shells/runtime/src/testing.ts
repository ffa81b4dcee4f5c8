// @portal/runtime/testing — what only tests reach for: setting a session or a tenant config
// directly, forgetting the embedding page's origin between tests, and watching the analytics
// events a screen sends. Never imported by a tab's or the shell's own code (nor shared by module
// federation: no build includes it).
export { setSession } from './auth';
export { AUTH_KEY } from './storage';
export { applyConfig } from './config';
export { resetParentOrigin as resetParentOriginForTests } from './bridge';
export { onAnalytics, type AnalyticsEvent } from './analytics';
