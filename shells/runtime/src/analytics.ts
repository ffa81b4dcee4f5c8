import { postToHost } from './bridge';

// Analytics for the native wrapper (not for an embedding page): each event goes as
// `{ action: 'firebaseAnalytics', type, name, params }` (docs/native-wrapper.md). Screen views
// carry the spec's screen titles (section 2); custom events are named with their screen's prefix
// (section 9: my_details_, my_size_, my_orders_, …). No personal data ever goes in params.

export type AnalyticsParam = string | number | boolean;

export interface AnalyticsEvent {
  type: 'event' | 'screen_view';
  name: string;
  params: Record<string, AnalyticsParam>;
}

/** Keys that would name a person or reach them: never sent, whatever a caller passes. */
const PERSONAL_KEYS = new Set([
  'email',
  'first_name',
  'last_name',
  'name',
  'full_name',
  'phone',
  'mobile',
  'birth_date',
  'address',
  'token',
]);

/**
 * The params as an analytics backend takes them (flat strings, numbers and booleans), without
 * personal data: a personal key, or a text that holds an email address, is left out.
 */
export function safeParams(params: Record<string, unknown> = {}): Record<string, AnalyticsParam> {
  const out: Record<string, AnalyticsParam> = {};
  for (const [key, value] of Object.entries(params)) {
    if (PERSONAL_KEYS.has(key.toLowerCase())) continue;
    if (typeof value === 'string' ? value.includes('@') : typeof value !== 'number' && typeof value !== 'boolean') continue;
    if (typeof value === 'number' && !Number.isFinite(value)) continue;
    out[key] = value as AnalyticsParam;
  }
  return out;
}

const listeners = new Set<(event: AnalyticsEvent) => void>();

/** Observe analytics events (tests, debugging). */
export function onAnalytics(listener: (event: AnalyticsEvent) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(event: AnalyticsEvent): void {
  listeners.forEach((l) => l(event));
  postToHost({ action: 'firebaseAnalytics', ...event });
}

/** Custom event, e.g. track('my_details_click'). */
export function track(name: string, params?: Record<string, unknown>): void {
  emit({ type: 'event', name, params: safeParams(params) });
}

/** Screen view with the spec's screen title, e.g. screenView('My Details'). */
export function screenView(title: string): void {
  emit({ type: 'screen_view', name: title, params: {} });
}

/** Click event per tab route (spec section 9). */
export const TAB_CLICK_EVENTS: Record<string, string> = {
  '/profile': 'my_details_click',
  '/size': 'my_size_click',
  '/transactions': 'my_orders_click',
  '/messaging': 'messaging_preferences_click',
  '/claim-transaction': 'claim_transaction_click',
  '/rewards': 'rewards_click',
  '/offers': 'offers_click',
};
