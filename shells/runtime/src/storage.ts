// Every browser-storage key the portal writes, in one place, so sign-out can clear them all.

/** localStorage: the session token. */
export const AUTH_KEY = 'portal.auth';
/** localStorage: cached profile data (the profile/query cache). */
export const PROFILE_CACHE_KEY = 'portal.profileCache';
/** localStorage: Rewards' and My Orders' last known data (their query caches), for offline. */
export const REWARDS_CACHE_KEY = 'portal.rewardsCache';
export const ORDERS_CACHE_KEY = 'portal.ordersCache';
/** localStorage: loyalty member details. */
export const LOYALTY_MEMBER_KEY = 'portal.loyaltyMember';
/** localStorage: whether the member card is shown. */
export const CARD_DISPLAY_KEY = 'portal.cardDisplay';
/** localStorage: portal mode (event / visit). */
export const MODE_KEY = 'portal.mode';
/** localStorage: the impersonated member's name while staff view an account. */
export const IMPERSONATION_KEY = 'portal.impersonation';
/** sessionStorage (this tab only): the staff token kept aside while impersonating. */
export const STAFF_SESSION_KEY = 'portal.staffSession';

/**
 * sessionStorage (this tab only): unsaved edits a tab keeps for its member across an ended
 * session, `draft:<form>:<profile id>`. An expiry keeps them; an explicit sign-out removes them
 * all ([`forgetDrafts`]), whether or not the tab that wrote them has loaded since.
 */
export const DRAFT_KEY_PREFIX = 'draft:';

/** What sign-out clears, from both localStorage and sessionStorage. */
export const SESSION_STORAGE_KEYS = [
  AUTH_KEY,
  PROFILE_CACHE_KEY,
  REWARDS_CACHE_KEY,
  ORDERS_CACHE_KEY,
  LOYALTY_MEMBER_KEY,
  CARD_DISPLAY_KEY,
  MODE_KEY,
  IMPERSONATION_KEY,
  STAFF_SESSION_KEY,
] as const;

type Area = 'local' | 'session';

function area(which: Area): Storage | null {
  try {
    return which === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return null; // storage blocked (private mode, sandboxed iframe)
  }
}

export function readKey(key: string, which: Area = 'local'): string | null {
  try {
    return area(which)?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeKey(key: string, value: string, which: Area = 'local'): void {
  try {
    area(which)?.setItem(key, value);
  } catch {
    /* quota or blocked: the in-memory state still works */
  }
}

export function removeKey(key: string, which: Area = 'local'): void {
  try {
    area(which)?.removeItem(key);
  } catch {
    /* ignore */
  }
}

/** Removes every key sign-out owns, from both storage areas. */
export function clearSessionKeys(): void {
  for (const key of SESSION_STORAGE_KEYS) {
    removeKey(key, 'local');
    removeKey(key, 'session');
  }
}

/** Removes every kept draft ([`DRAFT_KEY_PREFIX`]) but those of the member `keep`. */
export function forgetDrafts(keep: string | null = null): void {
  const store = area('session');
  if (!store) return;
  try {
    const keys = Array.from({ length: store.length }, (_, i) => store.key(i)).filter((k): k is string => !!k?.startsWith(DRAFT_KEY_PREFIX));
    // `draft:<form>:<profile id>`: the id is all after the form's name.
    const idOf = (key: string) => key.slice(DRAFT_KEY_PREFIX.length).split(':').slice(1).join(':');
    for (const key of keys) if (!keep || idOf(key) !== keep) store.removeItem(key);
  } catch {
    /* ignore */
  }
}
