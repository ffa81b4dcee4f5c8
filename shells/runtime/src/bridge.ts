// Messages to the native app (native-bridge.ts) and to an embedding page (an iframe; the
// portal's side of that protocol is shells/portal/src/embed/listener.ts).
import { postToNative, type BridgeMessage } from './native-bridge';
import { EMBEDDER_PARAM, PORTAL_ACTIONS } from '@portal/embed/protocol';

export type { BridgeMessage } from './native-bridge';

export { NATIVE_ACTIONS } from './native-bridge';

export function isEmbedded(): boolean {
  return typeof window !== 'undefined' && window.parent !== window;
}

// ---------------------------------------------------------------------------------------------
// The embedding page (iframe). Messages go only to the parent's origin once it has been checked
// against the tenant's allow-list (setParentOrigin, by the shell's embed listener), never to '*'.
// What the portal posts before that check waits (a few); a refused parent gets nothing.

/** What the portal may tell an embedding page (the protocol's actions); analytics stay native. */
const PARENT_ACTIONS: ReadonlySet<string> = new Set(PORTAL_ACTIONS);
const MAX_WAITING = 20;

let parent: { state: 'unknown' } | { state: 'allowed'; origin: string } | { state: 'refused' } = { state: 'unknown' };
let waiting: BridgeMessage[] = [];

/**
 * The embedding page's origin, once checked (null: not allowed, nothing is ever posted to it).
 * Messages waiting for the check are sent now, or dropped.
 */
export function setParentOrigin(origin: string | null): void {
  parent = origin ? { state: 'allowed', origin } : { state: 'refused' };
  const queued = waiting;
  waiting = [];
  if (origin) queued.forEach(postToParent);
}

/** The embedding page's checked origin, if any. */
export function parentOrigin(): string | null {
  return parent.state === 'allowed' ? parent.origin : null;
}

/** For tests: back to "not checked yet". */
export function resetParentOrigin(): void {
  parent = { state: 'unknown' };
  waiting = [];
}

/** Posts a protocol message to the embedding page, on its checked origin only; false if not sent (yet). */
export function postToParent(message: BridgeMessage): boolean {
  if (!isEmbedded() || !PARENT_ACTIONS.has(message.action)) return false;
  if (parent.state === 'allowed') {
    window.parent.postMessage(message, parent.origin);
    return true;
  }
  if (parent.state === 'unknown' && waiting.length < MAX_WAITING) waiting.push(message);
  return false;
}

/** Posts to the native wrapper and/or the embedding page, whichever is present. */
export function postToHost(message: BridgeMessage): void {
  if (typeof window === 'undefined') return;
  postToNative(message);
  postToParent(message);
}

// The embedding page's own address (EMBEDDER_PARAM, set by the client package): where an
// emailed sign-in link made inside the iframe leads. Taken out of the address bar at start.
let embedder: string | null = null;

/** Reads and strips `?embedder=` (once, at start); the value is kept for this page's life. */
export function takeEmbedderParam(loc: Location = window.location): string | null {
  const params = new URLSearchParams(loc.search);
  const value = params.get(EMBEDDER_PARAM);
  if (value === null) return embedder;
  params.delete(EMBEDDER_PARAM);
  const rest = params.toString();
  window.history.replaceState(window.history.state, '', `${loc.pathname}${rest ? `?${rest}` : ''}${loc.hash}`);
  embedder = isEmbedded() ? value : null;
  return embedder;
}

/** The embedding page's address as its client package gave it (unchecked), if any. */
export function embedderUrl(): string | null {
  return embedder;
}
