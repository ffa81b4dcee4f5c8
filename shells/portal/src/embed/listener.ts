// The portal's side of the iframe protocol (packages/embed/src/protocol.ts, docs/embedding.md).
// Loaded only inside an iframe. The embedding page is listened to, and posted to, only when its
// origin is the portal's own or on the tenant's allow-list (config general.allowedOrigins);
// anything from another window or origin is ignored without an answer.
import {
  LOCATION_EVENT,
  allowedOrigins,
  authStore,
  http,
  impersonate,
  logout,
  postToParent,
  setParentOrigin,
  whenConfigLoaded,
  type Profile,
} from '@portal/runtime';
import {
  INVALID_DATA_TYPE,
  NOT_SIGNED_IN,
  invalidAction,
  type CustomerDataEvent,
  type ImpersonateEvent,
  type PortalMessage,
  type UrlEvent,
} from '@portal/embed/protocol';

type Handlers = Record<string, (data: Record<string, unknown>) => unknown>;

/** Validates a message from the embedding page and runs its action (spec 5's error texts). */
export function handleEmbedMessage(data: unknown, handlers: Handlers): unknown {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new Error(INVALID_DATA_TYPE);
  }
  const action = (data as Record<string, unknown>).action;
  const handler = typeof action === 'string' && Object.prototype.hasOwnProperty.call(handlers, action) ? handlers[action] : undefined;
  if (!handler) throw new Error(invalidAction(action));
  return handler(data as Record<string, unknown>);
}

/** The spec's error for a request without the arguments it needs. */
const INVALID_ARGUMENTS = 'Invalid Arguments';

/**
 * Where the embedding page says it is: the browser's record of the parent (ancestorOrigins,
 * Chromium and WebKit), else the referrer, else the client package's `embedder`. Used only as the
 * target of postMessage, which the browser delivers only if the parent really is on that origin.
 */
export function parentOriginCandidate(embedder: string | null, doc: Document = document): string | null {
  const ancestors = (doc.location as Location & { ancestorOrigins?: DOMStringList }).ancestorOrigins;
  if (ancestors && ancestors.length > 0) return ancestors[0];
  for (const url of [doc.referrer, embedder]) {
    if (!url) continue;
    try {
      const origin = new URL(url).origin;
      if (origin !== 'null') return origin;
    } catch {
      /* not a URL */
    }
  }
  return null;
}

function requestIdOf(data: unknown): string | undefined {
  const id = (data as { requestId?: unknown } | null)?.requestId;
  return typeof id === 'string' && id.length <= 200 ? id : undefined;
}

/** The portal's address without what must not leave it. */
function currentUrl(): string {
  return window.location.href;
}

export interface EmbedListener {
  /** Resolves once the parent's origin has been checked: true when it may talk to the portal. */
  ready: Promise<boolean>;
  stop(): void;
}

/**
 * Starts listening to the embedding page. `embedder` is the address the client package gave
 * (takeEmbedderParam). Posts `ready` once the parent's origin is known to be allowed.
 */
export function startEmbedListener(embedder: string | null): EmbedListener {
  const stops: (() => void)[] = [];
  let allowed: string[] | null = null;
  const loaded = whenConfigLoaded().then((config) => {
    allowed = [window.location.origin, ...allowedOrigins(config)];
    return allowed;
  });

  const reply = (origin: string, message: PortalMessage) => window.parent.postMessage(message, origin);

  const handlers = {
    logout: async () => {
      await logout(); // posts the `logout` event when done
    },
    requestCustomerData: async (data: Record<string, unknown>) => {
      if (!authStore.get().authenticated) throw new Error(NOT_SIGNED_IN);
      const p = await http<Profile>('/api/profile', { quiet: true });
      const answer: CustomerDataEvent = {
        action: 'customerData',
        requestId: requestIdOf(data),
        email: p.email ?? '',
        first_name: p.first_name ?? '',
        last_name: p.last_name ?? '',
        region: p.region?.handle ?? null,
        tier: p.tier_handle ?? null,
      };
      return answer;
    },
    getUrl: (data: Record<string, unknown>): UrlEvent => ({ action: 'getUrl', requestId: requestIdOf(data), url: currentUrl() }),
    impersonate: async (data: Record<string, unknown>) => {
      const profileId =
        typeof data.profileId === 'string' ? data.profileId.trim() : typeof data.profileId === 'number' ? String(data.profileId) : '';
      if (!profileId) throw new Error(INVALID_ARGUMENTS);
      const reason = typeof data.reason === 'string' ? data.reason : undefined;
      const staffToken = typeof data.staffToken === 'string' && data.staffToken ? data.staffToken : undefined;
      // `data.staffId` is never read: the staff id comes from the credential.
      await impersonate(profileId, reason, { staffToken });
      const s = authStore.get();
      const answer: ImpersonateEvent = {
        action: 'impersonate',
        requestId: requestIdOf(data),
        profile_id: s.profile_id ?? profileId,
        impersonatedProfile: s.impersonation?.impersonatedProfile ?? null,
      };
      return answer;
    },
  };

  const onMessage = async (event: MessageEvent) => {
    // Only the direct parent; other frames on the page (even the parent's own children) are ignored.
    if (event.source !== window.parent) return;
    const origins = allowed ?? (await loaded);
    if (!origins.includes(event.origin)) return;
    const data: unknown = event.data;
    const requestId = requestIdOf(data);
    const action = typeof (data as { action?: unknown } | null)?.action === 'string' ? (data as { action: string }).action : undefined;
    try {
      const answer = (await handleEmbedMessage(data, handlers)) as PortalMessage | undefined;
      if (answer) reply(event.origin, answer);
    } catch (err) {
      // Errors and the HTTP helper's error objects both carry a message.
      const text = (err as { message?: unknown } | null)?.message;
      const error = typeof text === 'string' && text ? text : String(err);
      reply(event.origin, { action: 'error', error, ...(requestId ? { requestId } : {}), ...(action ? { request: action } : {}) });
    }
  };
  window.addEventListener('message', onMessage);
  stops.push(() => window.removeEventListener('message', onMessage));

  const candidate = parentOriginCandidate(embedder);
  const ready = loaded.then((origins) => {
    const ok = candidate !== null && origins.includes(candidate);
    setParentOrigin(ok ? candidate : null);
    if (!ok) return false;
    document.documentElement.classList.add('embedded');
    postToParent({ action: 'ready' });
    // Already signed in here (this iframe's storage kept the session): the page learns who.
    const signedIn = authStore.get();
    if (signedIn.authenticated && signedIn.profile_id) postToParent({ action: 'login', profile_id: signedIn.profile_id });
    // The address after every navigation (same address: once).
    let last = '';
    const postUrl = () => {
      const url = currentUrl();
      if (url === last) return;
      last = url;
      postToParent({ action: 'getUrl', url });
    };
    postUrl();
    window.addEventListener(LOCATION_EVENT, postUrl);
    window.addEventListener('popstate', postUrl);
    stops.push(() => {
      window.removeEventListener(LOCATION_EVENT, postUrl);
      window.removeEventListener('popstate', postUrl);
    });
    // The height the content needs, so the page can size the iframe (no inner scrollbar).
    if (typeof ResizeObserver !== 'undefined') {
      let height = -1;
      const measure = () => {
        const h = Math.ceil(document.body.getBoundingClientRect().height);
        if (h !== height) {
          height = h;
          postToParent({ action: 'resize', height: h });
        }
      };
      const observer = new ResizeObserver(measure);
      observer.observe(document.body);
      measure();
      stops.push(() => observer.disconnect());
    }
    return true;
  });

  return { ready, stop: () => stops.forEach((s) => s()) };
}
