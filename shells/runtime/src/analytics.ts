import { postToHost } from './bridge';

export interface AnalyticsEvent {
  type: 'event' | 'screen_view';
  name: string;
  params?: Record<string, unknown>;
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
  emit({ type: 'event', name, params });
}

/** Screen view with the spec's screen title, e.g. screenView('My Details'). */
export function screenView(title: string): void {
  emit({ type: 'screen_view', name: title });
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
