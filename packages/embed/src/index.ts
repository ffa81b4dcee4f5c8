// @portal/embed: mounts the member portal in an iframe on a partner page and speaks the message
// protocol of ./protocol.ts with it. No dependencies; docs/embedding.md is the guide.
//
// Security rules kept here: post only to the portal's origin (never '*'); accept only messages
// whose source is our own iframe's window AND whose origin is the portal's; accept only objects
// with a known action. An emailed sign-in link that opens this page (`?token=`) is handed to the
// iframe and removed from the address bar at once.
import {
  EMBEDDER_PARAM,
  PORTAL_ACTIONS,
  type CustomerData,
  type CustomerDataEvent,
  type ErrorEvent,
  type ImpersonateEvent,
  type ImpersonateRequest,
  type LoginEvent,
  type ParentAction,
  type ParentMessage,
  type PortalAction,
  type PortalMessage,
} from './protocol.js';

export * from './protocol.js';

/** The URL parameters of an emailed sign-in link that belong to the portal, not to this page. */
const LINK_PARAMS = ['token', 'redirect', 'externalRedirect'];

export interface MountOptions {
  /** The portal's origin, with an optional base path, e.g. 'https://portal.example'. */
  portalUrl: string;
  /** The portal page shown first, default '/'. */
  path?: string;
  /** Language code passed as `?lang=` (en, it, es, fr, ar, de, el, th). */
  language?: string;
  /** The iframe's accessible name, default 'My account'. */
  title?: string;
  /** Set the iframe's height from the portal's `resize` events (default true). */
  autoResize?: boolean;
  /** Never shorter than this (CSS pixels); also the height until the first `resize`. */
  minHeight?: number;
  /** Hand `?token=…&redirect=…` of this page's URL to the iframe (default true). */
  handOverToken?: boolean;
  /** How long a request waits for its answer, default 10000 ms. */
  requestTimeoutMs?: number;
  /** The iframe's permissions policy, default 'clipboard-write' (add e.g. 'geolocation'). */
  allow?: string;
  onReady?(): void;
  onLogin?(event: LoginEvent): void;
  onLogout?(): void;
  onCustomerData?(data: CustomerData): void;
  /** The portal's address, after every navigation and in answer to getUrl(). */
  onUrl?(url: string): void;
  onResize?(height: number): void;
  onImpersonate?(event: ImpersonateEvent): void;
  onError?(event: ErrorEvent): void;
  /** Every accepted message, before the specific callback. */
  onMessage?(message: PortalMessage): void;
}

export interface ImpersonateOptions {
  /** Why staff open the account (kept in the member's access log). */
  reason?: string;
  /** A staff session token, when staff have not signed in inside the portal. */
  staffToken?: string;
}

export interface PortalHandle {
  readonly iframe: HTMLIFrameElement;
  /** The origin messages go to and must come from. */
  readonly origin: string;
  /** Resolves on the portal's first `ready`; rejects if destroyed before. */
  readonly ready: Promise<void>;
  /** Signs the member out; resolves on the portal's next `logout` event. */
  logout(): Promise<void>;
  /** The signed-in member's details; rejects with 'Not signed in' when nobody is. */
  requestCustomerData(): Promise<CustomerData>;
  /** The portal's current address. */
  getUrl(): Promise<string>;
  /** Staff view a member's account (needs a staff credential). */
  impersonate(profileId: string, options?: ImpersonateOptions): Promise<ImpersonateEvent>;
  /** Posts a message as is (queued until `ready`); answers arrive through the callbacks. */
  send(message: ParentMessage): void;
  /** Removes the listener and the iframe; pending requests reject. */
  destroy(): void;
}

/** A request refused by the portal (`event` is its `error` message) or not answered in time. */
export interface PortalRequestError extends Error {
  event?: ErrorEvent;
}

interface Pending {
  request: ParentAction;
  answer: PortalAction;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

let counter = 0;

function failure(message: string, event?: ErrorEvent): PortalRequestError {
  const error: PortalRequestError = new Error(message);
  error.name = 'PortalRequestError';
  if (event) error.event = event;
  return error;
}

/** Calls a partner's callback; one that throws must not stop the others. */
function call<A>(fn: ((arg: A) => void) | undefined, arg: A): void {
  try {
    fn?.(arg);
  } catch (err) {
    setTimeout(() => {
      throw err;
    });
  }
}

/**
 * Takes an emailed link's `token` and `redirect` off this page's URL (history.replaceState, so
 * they never stay in the address bar or the history) and returns them.
 */
function takeLinkToken(): URLSearchParams | null {
  const url = new URL(location.href);
  const token = url.searchParams.get('token');
  if (token === null) return null;
  const handed = new URLSearchParams();
  // Base64 never holds spaces: a '+' that was not URL-encoded arrives as one.
  handed.set('token', token.replace(/ /g, '+'));
  const redirect = url.searchParams.get('redirect');
  if (redirect !== null) handed.set('redirect', redirect);
  for (const key of LINK_PARAMS) url.searchParams.delete(key);
  history.replaceState(history.state, '', url.href);
  return handed;
}

/** This page's address for the portal's sign-in links: without the link's own parameters. */
function embedderUrl(): string {
  const url = new URL(location.href);
  for (const key of LINK_PARAMS) url.searchParams.delete(key);
  url.hash = '';
  return url.href;
}

/** The iframe's address: the portal's base + `path`, with `embedder`, `lang` and a handed-over token. */
export function portalFrameUrl(portalUrl: string, path = '/', params: Record<string, string> = {}): string {
  const url = new URL(portalUrl);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`portalUrl must be http(s): ${portalUrl}`);
  const page = new URL(path, 'http://x');
  url.pathname = url.pathname.replace(/\/$/, '') + page.pathname;
  url.search = page.search;
  url.hash = page.hash;
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return url.href;
}

/** Mounts the portal in an iframe appended to `element`. */
export function mountPortal(element: HTMLElement, options: MountOptions): PortalHandle {
  // Checked before the token leaves the address bar: a bad portalUrl must not lose it.
  const origin = new URL(portalFrameUrl(options.portalUrl)).origin;
  const timeoutMs = options.requestTimeoutMs ?? 10000;
  const autoResize = options.autoResize !== false;
  const minHeight = options.minHeight ?? 0;

  const params: Record<string, string> = { [EMBEDDER_PARAM]: embedderUrl() };
  if (options.language) params.lang = options.language;
  const link = options.handOverToken !== false ? takeLinkToken() : null;
  link?.forEach((value, key) => {
    params[key] = value;
  });

  const iframe = document.createElement('iframe');
  iframe.title = options.title ?? 'My account';
  iframe.setAttribute('allow', options.allow ?? 'clipboard-write');
  iframe.style.cssText = 'display:block;width:100%;border:0';
  iframe.style.height = `${options.minHeight ?? 600}px`;
  iframe.src = portalFrameUrl(options.portalUrl, options.path, params);

  let isReady = false;
  let destroyed = false;
  const queue: ParentMessage[] = [];
  const pending = new Map<string, Pending>();
  let resolveReady!: () => void;
  let rejectReady!: (e: Error) => void;
  const ready = new Promise<void>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  // A partner who never awaits `ready` must not see an unhandled rejection on destroy().
  ready.catch(() => undefined);

  function post(message: ParentMessage): void {
    iframe.contentWindow?.postMessage(message, origin);
  }

  function send(message: ParentMessage): void {
    if (destroyed) return;
    if (isReady) post(message);
    else queue.push(message);
  }

  function settle(id: string, entry: Pending): Pending {
    clearTimeout(entry.timer);
    pending.delete(id);
    return entry;
  }

  /** The pending request an answer belongs to: by requestId, else the oldest of its kind. */
  function match(requestId: unknown, test: (p: Pending) => boolean): [string, Pending] | undefined {
    if (typeof requestId === 'string') {
      const entry = pending.get(requestId);
      return entry && test(entry) ? [requestId, entry] : undefined;
    }
    for (const found of pending) if (test(found[1])) return found;
    return undefined;
  }

  function answer(message: PortalMessage & { requestId?: string }, value: unknown): void {
    const found = match(message.requestId, (p) => p.answer === message.action);
    if (found) settle(...found).resolve(value);
  }

  function request<T>(message: ParentMessage, answerAction: PortalAction): Promise<T> {
    if (destroyed) return Promise.reject(failure('The portal was unmounted'));
    const requestId = `pe${++counter}-${Math.random().toString(36).slice(2, 10)}`;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(requestId);
        reject(failure(`The portal did not answer ${message.action} within ${timeoutMs} ms`));
      }, timeoutMs);
      pending.set(requestId, { request: message.action, answer: answerAction, resolve: resolve as (v: unknown) => void, reject, timer });
      send({ ...message, requestId });
    });
  }

  function onMessage(event: MessageEvent): void {
    if (event.source !== iframe.contentWindow || event.origin !== origin) return;
    const data: unknown = event.data;
    if (typeof data !== 'object' || data === null) return;
    const message = data as PortalMessage;
    if (typeof message.action !== 'string' || !PORTAL_ACTIONS.includes(message.action)) return;
    call(options.onMessage, message);
    switch (message.action) {
      case 'ready':
        if (!isReady) {
          isReady = true;
          queue.splice(0).forEach(post);
          resolveReady();
        }
        call(options.onReady, undefined);
        break;
      case 'login':
        call(options.onLogin, message);
        break;
      case 'logout':
        for (const found of [...pending]) if (found[1].answer === 'logout') settle(...found).resolve(undefined);
        call(options.onLogout, undefined);
        break;
      case 'customerData': {
        const { email, first_name, last_name, region, tier } = message as CustomerDataEvent;
        const customer: CustomerData = { email, first_name, last_name, region, tier };
        answer(message, customer);
        call(options.onCustomerData, customer);
        break;
      }
      case 'getUrl':
        if (typeof message.url !== 'string') return;
        answer(message, message.url);
        call(options.onUrl, message.url);
        break;
      case 'impersonate':
        answer(message, message);
        call(options.onImpersonate, message);
        break;
      case 'resize': {
        const height = message.height;
        if (typeof height !== 'number' || !Number.isFinite(height) || height < 0) return;
        if (autoResize) iframe.style.height = `${Math.max(Math.ceil(height), minHeight)}px`;
        call(options.onResize, height);
        break;
      }
      case 'error': {
        // By requestId; an error without one belongs to the oldest request of its `request` action.
        const found = match(message.requestId, (p) => typeof message.requestId === 'string' || p.request === message.request);
        if (found) settle(...found).reject(failure(String(message.error), message));
        call(options.onError, message);
        break;
      }
    }
  }

  window.addEventListener('message', onMessage);
  element.appendChild(iframe);

  return {
    iframe,
    origin,
    ready,
    send,
    logout: () => request<void>({ action: 'logout' }, 'logout'),
    requestCustomerData: () => request<CustomerData>({ action: 'requestCustomerData' }, 'customerData'),
    getUrl: () => request<string>({ action: 'getUrl' }, 'getUrl'),
    impersonate(profileId, opts = {}) {
      const message: ImpersonateRequest = { action: 'impersonate', profileId };
      if (opts.reason) message.reason = opts.reason;
      if (opts.staffToken) message.staffToken = opts.staffToken;
      return request<ImpersonateEvent>(message, 'impersonate');
    },
    destroy() {
      if (destroyed) return;
      destroyed = true;
      window.removeEventListener('message', onMessage);
      queue.length = 0;
      for (const found of [...pending]) settle(...found).reject(failure('The portal was unmounted'));
      if (!isReady) rejectReady(failure('The portal was unmounted'));
      iframe.remove();
    },
  };
}
