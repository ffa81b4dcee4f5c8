import type { PrivacySession } from '../api/privacy';

type T = (key: string, options?: Record<string, unknown>) => string;

/** "Chrome 131 on Android 14", or what is known of it, as plain text (for button names and toasts). */
export function deviceName(s: PrivacySession, t: T): string {
  if (s.browser && s.os) return t('privacy.sessions.browserOnOs', { browser: s.browser, os: s.os });
  return s.browser || s.os || t('privacy.sessions.unknownBrowser');
}

export const DEVICE_TYPES = ['mobile', 'tablet', 'desktop'] as const;

/** The device type's catalog key (an unknown or missing type reads "Unknown device"). */
export function deviceTypeKey(s: PrivacySession): string {
  return `privacy.sessions.device.${s.device && (DEVICE_TYPES as readonly string[]).includes(s.device) ? s.device : 'unknown'}`;
}
