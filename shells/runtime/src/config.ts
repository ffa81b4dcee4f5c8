import { createStore } from './store';
import { http } from './http';
import type { AgeResponse, PortalConfig, Theme } from './api/types';

export const CONFIG_KEY = 'portal.config';
export const DEFAULT_TITLE = 'My account';
export const DEFAULT_DESCRIPTION = 'Manage your profile, transactions and more';
export const DEFAULT_LOGO = '/assets/logo.svg';
/** Spec 9: the default time zone for showing dates and times. */
export const DEFAULT_TIME_ZONE = 'Australia/Melbourne';

export const configStore = createStore<{ config: PortalConfig | null; loaded: boolean }>({
  config: null,
  loaded: false,
});

/** Design tokens: config theme key → CSS custom property. */
const THEME_VARS: Record<keyof Theme, string> = {
  primary: '--color-primary',
  onPrimary: '--color-on-primary',
  accent: '--color-accent',
  background: '--color-bg',
  surface: '--color-surface',
  text: '--color-text',
  muted: '--color-muted',
  fontFamily: '--font-family',
  radius: '--radius',
  spacing: '--space',
};

/** Writes the theme's tokens as CSS custom properties on :root. */
export function applyTheme(theme: Theme | null | undefined, root: HTMLElement = document.documentElement): void {
  if (!theme) return;
  for (const [key, cssVar] of Object.entries(THEME_VARS)) {
    const value = theme[key as keyof Theme];
    if (typeof value === 'string' && value) root.style.setProperty(cssVar, value);
  }
}

/** Sets (or, given null, removes) `<meta name|property=key content>` in the head. */
function setMeta(key: string, content: string | null, attr: 'name' | 'property' = 'name'): void {
  let el = document.querySelector<HTMLMetaElement>(`meta[${attr}="${key}"]`);
  if (content === null) {
    el?.remove();
    return;
  }
  if (!el) {
    el = document.createElement('meta');
    el.setAttribute(attr, key);
    document.head.appendChild(el);
  }
  el.content = content;
}

/**
 * A URL from the config usable as an image or stylesheet address: an absolute http(s) URL, or a
 * path on the portal (resolved against the page when `absolute`). Anything else (`javascript:`, `data:`, junk) is
 * refused, so a config typo can never run code or break the page's policy.
 */
export function configUrl(value: unknown, absolute = false): string | null {
  if (typeof value !== 'string' || !value.trim()) return null;
  try {
    const url = new URL(value.trim(), typeof location !== 'undefined' ? location.href : 'http://localhost/');
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return absolute ? url.href : value.trim();
  } catch {
    return null;
  }
}

export const TENANT_STYLE_ID = 'tenant-style';
export const DESKTOP_BACKGROUND_VAR = '--bg-desktop-image';

/** The tenant's own stylesheet (general.styleUrl), after the portal's, replaced when it changes. */
function applyStyleUrl(styleUrl: unknown): void {
  const href = configUrl(styleUrl);
  let link = document.getElementById(TENANT_STYLE_ID) as HTMLLinkElement | null;
  if (!href) {
    link?.remove();
    return;
  }
  if (!link) {
    link = document.createElement('link');
    link.id = TENANT_STYLE_ID;
    link.rel = 'stylesheet';
    document.head.appendChild(link);
  }
  if (link.href !== href) link.href = href;
}

/** A tenant text's default: the text itself, or its `en` (the shell shows the page's language). */
function defaultText(value: string | Record<string, string | undefined> | null | undefined): string {
  return (typeof value === 'string' ? value : value?.en) ?? '';
}

/**
 * Page title and description (spec 2 defaults), and the link preview (Open Graph) tags, in the
 * tenant's default language; the shell then keeps the title as "{page} · {site}" in the page's
 * language (shells/portal/src/layout/page-title.ts).
 */
function applySiteMeta(general: PortalConfig['general']): void {
  const meta = general.siteMeta;
  const title = defaultText(meta?.title) || DEFAULT_TITLE;
  const description = defaultText(meta?.description) || DEFAULT_DESCRIPTION;
  document.title = title;
  setMeta('description', description);
  setMeta('og:title', title, 'property');
  setMeta('og:description', description, 'property');
  setMeta('og:type', 'website', 'property');
  setMeta('og:image', configUrl(meta?.ogImageUrl, true), 'property');
  setMeta('og:url', configUrl(meta?.url, true), 'property');
  // The browser's UI colour follows the brand; without one the page's own default stays.
  if (general.theme?.primary) setMeta('theme-color', general.theme.primary);
}

export function applyConfig(config: PortalConfig): void {
  const general = config.general || ({} as PortalConfig['general']);
  const root = document.documentElement.style;
  applyTheme(general.theme);
  if (general.background?.color && !general.theme?.background) {
    root.setProperty('--color-bg', general.background.color);
  }
  // The desktop background image: the stylesheet shows it from the desktop breakpoint up.
  const desktop = configUrl(general.background?.desktop?.url);
  if (desktop) root.setProperty(DESKTOP_BACKGROUND_VAR, `url(${JSON.stringify(desktop)})`);
  else root.removeProperty(DESKTOP_BACKGROUND_VAR);
  applySiteMeta(general);
  applyStyleUrl(general.styleUrl);
}

export function logoUrl(config: PortalConfig | null = configStore.get().config): string {
  return configUrl(config?.general?.logo) || DEFAULT_LOGO;
}

/** A screen's setting the tenant writes as it likes (`components.index` / `components.logout`). */
function componentSetting(config: PortalConfig | null, screen: 'index' | 'logout', key: string): unknown {
  const settings = config?.components?.[screen];
  return settings && typeof settings === 'object' ? (settings as Record<string, unknown>)[key] : undefined;
}

/** The logo on the Logged out screen: components.logout.logo, else the header's logo. */
export function logoutLogoUrl(config: PortalConfig | null = configStore.get().config): string {
  return configUrl(componentSetting(config, 'logout', 'logo')) || logoUrl(config);
}

export interface CoverImage {
  url: string;
  alt: string;
}

/**
 * The login page's cover image (components.index.coverHeader): an image URL, or
 * `{ url | imageUrl, alt }`. Null when not set (the default) or not a usable address.
 */
export function coverHeader(config: PortalConfig | null = configStore.get().config): CoverImage | null {
  const raw = componentSetting(config, 'index', 'coverHeader');
  if (typeof raw === 'string') {
    const url = configUrl(raw);
    return url ? { url, alt: '' } : null;
  }
  if (raw && typeof raw === 'object') {
    const r = raw as { url?: unknown; imageUrl?: unknown; alt?: unknown };
    const url = configUrl(r.url ?? r.imageUrl);
    return url ? { url, alt: typeof r.alt === 'string' ? r.alt : '' } : null;
  }
  return null;
}

/** Whether the header stays at the top while scrolling (general.coverHeader.sticky, default true). */
export function stickyHeader(config: PortalConfig | null = configStore.get().config): boolean {
  return config?.general?.coverHeader?.sticky !== false;
}

/** The tenant's IANA time zone (config general.timeZone), default Australia/Melbourne. */
export function timeZone(config: PortalConfig | null = configStore.get().config): string {
  return config?.general?.timeZone || DEFAULT_TIME_ZONE;
}

/**
 * Origins a sign-in link may send the member to (config general.allowedOrigins), normalised.
 * Checked as it is used: a config cached by an older version may hold anything.
 */
export function allowedOrigins(config: PortalConfig | null = configStore.get().config): string[] {
  const raw: unknown = config?.general?.allowedOrigins ?? [];
  if (!Array.isArray(raw)) return [];
  const origins: string[] = [];
  for (const value of raw) {
    if (typeof value !== 'string') continue;
    try {
      const origin = new URL(value).origin;
      if (origin !== 'null') origins.push(origin);
    } catch {
      /* not a URL: ignored */
    }
  }
  return origins;
}

/** `url` when it is an absolute http(s) URL on an allowed origin; otherwise null. */
export function allowedExternalUrl(url: string | null | undefined, config: PortalConfig | null = configStore.get().config): string | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return null;
  return allowedOrigins(config).includes(parsed.origin) ? parsed.href : null;
}

/** Resolves once the config has loaded (or failed to), or after `timeoutMs`. */
export function whenConfigLoaded(timeoutMs = 5000): Promise<PortalConfig | null> {
  if (configStore.get().loaded) return Promise.resolve(configStore.get().config);
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      unsubscribe();
      resolve(configStore.get().config);
    };
    const timer = setTimeout(done, timeoutMs);
    const unsubscribe = configStore.subscribe((s) => {
      if (s.loaded) done();
    });
  });
}

function readCache(): PortalConfig | null {
  try {
    const raw = localStorage.getItem(CONFIG_KEY);
    return raw ? (JSON.parse(raw) as PortalConfig) : null;
  } catch {
    return null;
  }
}

function adopt(config: PortalConfig): void {
  configStore.set({ config, loaded: true });
  applyConfig(config);
}

/**
 * Uses the cached config first, then re-fetches unless GET /api/config/age shows
 * nothing newer. Failures are only logged (spec 8).
 */
export async function loadConfig(): Promise<PortalConfig | null> {
  const cached = readCache();
  if (cached) adopt(cached);
  try {
    if (cached) {
      const { age } = await http<AgeResponse>('/api/config/age', { quiet: true });
      if (typeof age === 'number' && age <= (cached.lastUpdated ?? 0)) return cached;
    }
    const fresh = await http<PortalConfig>('/api/config', { quiet: true });
    if (fresh && typeof fresh === 'object' && fresh.general) {
      try {
        localStorage.setItem(CONFIG_KEY, JSON.stringify(fresh));
      } catch {
        /* ignore */
      }
      adopt(fresh);
      return fresh;
    }
  } catch (err) {
    console.warn('config load failed', err);
  }
  if (!configStore.get().loaded) configStore.set({ loaded: true });
  return configStore.get().config;
}
