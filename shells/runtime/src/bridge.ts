// Messages to the native app (native-bridge.ts) and to an embedding page (iframe, embed.ts).
import { postToNative } from './native-bridge';

export type BridgeMessage = { action: string } & Record<string, unknown>;

export const NATIVE_ACTIONS = [
  'loadOfferList',
  'gotoShop',
  'gotoWishlist',
  'gotoCart',
  'deleteMyAccount',
  'firebaseAnalytics',
  'addGooglePay',
  'addAppleWallet',
  'logout',
] as const;

export function isEmbedded(): boolean {
  return typeof window !== 'undefined' && window.parent !== window;
}

/** Posts to the native wrapper and/or the embedding page, whichever is present. */
export function postToHost(message: BridgeMessage): void {
  if (typeof window === 'undefined') return;
  postToNative(message);
  if (isEmbedded()) window.parent.postMessage(message, '*');
}

export type EmbedHandlers = Record<string, (data: Record<string, unknown>) => unknown>;

/** Validates a message from an embedding page and runs its action. */
export function handleEmbedMessage(data: unknown, handlers: EmbedHandlers): unknown {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new Error('Invalid message data type');
  }
  const action = String((data as Record<string, unknown>).action);
  const handler = Object.prototype.hasOwnProperty.call(handlers, action) ? handlers[action] : undefined;
  if (!handler) throw new Error(`Invalid action ${action}`);
  return handler(data as Record<string, unknown>);
}
