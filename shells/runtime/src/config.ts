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

function setMeta(name: string, content: string): void {
  let el = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  if (!el) {
    el = document.createElement('meta');
    el.name = name;
    document.head.appendChild(el);
  }
  el.content = content;
}

export function applyConfig(config: PortalConfig): void {
  const general = config.general || ({} as PortalConfig['general']);
  applyTheme(general.theme);
  if (general.background?.color && !general.theme?.background) {
    document.documentElement.style.setProperty('--color-bg', general.background.color);
  }
  document.title = general.siteMeta?.title || DEFAULT_TITLE;
  setMeta('description', general.siteMeta?.description || DEFAULT_DESCRIPTION);
}

export function logoUrl(config: PortalConfig | null = configStore.get().config): string {
  return config?.general?.logo || DEFAULT_LOGO;
}

/** The tenant's IANA time zone (config general.timeZone), default Australia/Melbourne. */
export function timeZone(config: PortalConfig | null = configStore.get().config): string {
  return config?.general?.timeZone || DEFAULT_TIME_ZONE;
}

/**
 * Origins a sign-in link may send the member to (config general.allowedOrigins), normalised.
 * The generated schema may not have the field yet, so it is read defensively here and only here.
 */
export function allowedOrigins(config: PortalConfig | null = configStore.get().config): string[] {
  const raw: unknown = (config?.general as { allowedOrigins?: unknown } | undefined)?.allowedOrigins ?? [];
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

function use(config: PortalConfig): void {
  configStore.set({ config, loaded: true });
  applyConfig(config);
}

/**
 * Uses the cached config first, then re-fetches unless GET /api/config/age shows
 * nothing newer. Failures are only logged (spec 8).
 */
export async function loadConfig(): Promise<PortalConfig | null> {
  const cached = readCache();
  if (cached) use(cached);
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
      use(fresh);
      return fresh;
    }
  } catch (err) {
    console.warn('config load failed', err);
  }
  if (!configStore.get().loaded) configStore.set({ loaded: true });
  return configStore.get().config;
}
