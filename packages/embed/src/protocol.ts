// The message protocol between the portal in an iframe and the page that embeds it (spec 5, 6,
// 7). One source of truth: the portal (shells/runtime/src/embed.ts) and the client package
// (./index.ts) both use these types. docs/embedding.md describes every message.
//
// Both directions: plain objects posted with window.postMessage, never to '*'. The portal
// listens only to its direct parent, and only when the parent's origin is on the tenant's
// allow-list (config general.allowedOrigins); the client package only to its own iframe's window
// on the portal's origin.

/** The portal's answer to a message that is not an object (spec 5). */
export const INVALID_DATA_TYPE = 'Invalid message data type';
/** The portal's answer to an object whose action it does not know (spec 5). */
export const invalidAction = (action: unknown): string => `Invalid action ${String(action)}`;
/** requestCustomerData while nobody is signed in in the portal. */
export const NOT_SIGNED_IN = 'Not signed in';

/** Query parameter: the embedding page's own address (where an emailed sign-in link leads). */
export const EMBEDDER_PARAM = 'embedder';

/** Optional on every request: echoed on its answer (or error) so the caller can match them. */
export interface Correlated {
  requestId?: string;
}

// ---------------------------------------------------------------------------------------------
// Embedding page → portal

/** Sign the member out (the portal answers with the `logout` event once done). */
export interface LogoutRequest extends Correlated {
  action: 'logout';
}
/** The signed-in member's details (answered with `customerData`). */
export interface CustomerDataRequest extends Correlated {
  action: 'requestCustomerData';
}
/** The portal's current address (answered with `getUrl`). */
export interface GetUrlRequest extends Correlated {
  action: 'getUrl';
}
/**
 * Staff view a member's account. Needs a staff credential: the staff session signed in inside
 * the portal, or `staffToken` (a staff session token). The staff id always comes from that
 * credential; a `staffId` in the message is ignored.
 */
export interface ImpersonateRequest extends Correlated {
  action: 'impersonate';
  profileId: string;
  /** Why staff open the account (kept in the member's access log). */
  reason?: string;
  staffToken?: string;
}

export type ParentMessage = LogoutRequest | CustomerDataRequest | GetUrlRequest | ImpersonateRequest;
export type ParentAction = ParentMessage['action'];
export const PARENT_ACTIONS: readonly ParentAction[] = ['logout', 'requestCustomerData', 'getUrl', 'impersonate'];

// ---------------------------------------------------------------------------------------------
// Portal → embedding page

/** The portal is listening (sent once it has checked the embedding page's origin). */
export interface ReadyEvent {
  action: 'ready';
}
/** A member (or staff user) signed in inside the portal. */
export interface LoginEvent {
  action: 'login';
  profile_id: string;
}
/** The session ended (signed out, expired, or asked by `logout`). */
export interface LogoutEvent {
  action: 'logout';
}
export interface CustomerData {
  email: string;
  first_name: string;
  last_name: string;
  /** Region handle, e.g. `vic`. */
  region: string | null;
  /** Tier handle, e.g. `gold`. */
  tier: string | null;
}
export interface CustomerDataEvent extends CustomerData, Correlated {
  action: 'customerData';
}
/** The portal's address: after every navigation, and in answer to `getUrl`. */
export interface UrlEvent extends Correlated {
  action: 'getUrl';
  url: string;
}
/** Impersonation started: the portal now shows the member's account. */
export interface ImpersonateEvent extends Correlated {
  action: 'impersonate';
  profile_id: string;
  impersonatedProfile: { first_name: string; last_name: string } | null;
}
/** The height the portal's content needs, in CSS pixels (sent when it changes). */
export interface ResizeEvent {
  action: 'resize';
  height: number;
}
/** A request was refused: `error` is e.g. 'Invalid message data type' or 'Invalid action foo'. */
export interface ErrorEvent extends Correlated {
  action: 'error';
  error: string;
  /** The action of the refused request, when it had a known one. */
  request?: string;
}

export type PortalMessage =
  ReadyEvent | LoginEvent | LogoutEvent | CustomerDataEvent | UrlEvent | ImpersonateEvent | ResizeEvent | ErrorEvent;
export type PortalAction = PortalMessage['action'];
/** Every action the portal may send an embedding page; the client package drops anything else. */
export const PORTAL_ACTIONS: readonly PortalAction[] = [
  'ready',
  'login',
  'logout',
  'customerData',
  'getUrl',
  'impersonate',
  'resize',
  'error',
];
