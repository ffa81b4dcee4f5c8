import { localeFor } from '@portal/kit/format';

/** What a session or a device says of itself. */
type Described = { browser?: string | null; os?: string | null; device?: string | null };

type T = (key: string, options?: Record<string, unknown>) => string;

/** "Chrome 131 on Android 14", or what is known of it, as plain text (for button names and toasts). */
export function deviceName(s: Described, t: T): string {
  if (s.browser && s.os) return t('privacy.sessions.browserOnOs', { browser: s.browser, os: s.os });
  return s.browser || s.os || t('privacy.sessions.unknownBrowser');
}

export const DEVICE_TYPES = ['mobile', 'tablet', 'desktop'] as const;

/** The device type's catalog key (an unknown or missing type reads "Unknown device"). */
export function deviceTypeKey(s: Described): string {
  return `privacy.sessions.device.${s.device && (DEVICE_TYPES as readonly string[]).includes(s.device) ? s.device : 'unknown'}`;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/** "5 minutes ago", "yesterday", "now" in the page language, for a device's last use. */
export function relativeTime(iso: string, lang: string, nowMs = Date.now()): string {
  const secs = Math.round((new Date(iso).getTime() - nowMs) / 1000);
  const rtf = new Intl.RelativeTimeFormat(localeFor(lang), { numeric: 'auto' });
  for (const [unit, size] of UNITS) {
    if (Math.abs(secs) >= size) return rtf.format(Math.round(secs / size), unit);
  }
  return rtf.format(0, 'minute');
}
