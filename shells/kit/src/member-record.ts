// The member's card details and last known points balance, kept in localStorage under the
// runtime's LOYALTY_MEMBER_KEY ("loyalty member details", cleared with the session at sign-out) so
// the card on Home can be shown offline. Written by whoever reads them from the API: the card
// itself (profile and balance) and Rewards (the balance). Only the signed-in member's record is
// ever read back: one for another profile id is ignored. A build-time package (like fields): the
// shell's card chunk and mfe-rewards each bundle it; nothing of it is in the first load.
import { LOYALTY_MEMBER_KEY, type Profile } from '@portal/runtime';

export interface MemberRecord {
  profile_id: string;
  /** The membership number shown on the card (and as its barcode). */
  number?: string;
  points?: number;
  /** When `points` was read from the server (ms since the epoch). */
  points_at?: number;
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null; // blocked (e.g. a third-party iframe): nothing is kept
  }
}

export function readMemberRecord(profileId: string | null | undefined): MemberRecord | null {
  if (!profileId) return null;
  try {
    const record = JSON.parse(storage()?.getItem(LOYALTY_MEMBER_KEY) ?? 'null') as MemberRecord | null;
    return record && record.profile_id === profileId ? record : null;
  } catch {
    return null;
  }
}

/** Merges `patch` into the member's record (another member's record is replaced). */
export function rememberMember(profileId: string | null | undefined, patch: Omit<MemberRecord, 'profile_id'>): void {
  if (!profileId) return;
  const next: MemberRecord = { ...readMemberRecord(profileId), ...patch, profile_id: profileId };
  try {
    storage()?.setItem(LOYALTY_MEMBER_KEY, JSON.stringify(next));
  } catch {
    /* quota: the card still shows what the page has */
  }
}

/** Keeps a points balance just read from the server. */
export function rememberBalance(profileId: string | null | undefined, points: number, at = Date.now()): void {
  if (Number.isFinite(points)) rememberMember(profileId, { points, points_at: at });
}

/**
 * The membership number from the member's identities: their identity of the first of the
 * tenant's own identity handles (config components.profile.identities, e.g. a loyalty card) they
 * have. Empty when they have none: the internal profile id is never a member's number (the card
 * then shows none).
 */
export function membershipNumber(profile: Pick<Profile, 'identities'>, handles: readonly string[]): string {
  for (const handle of handles) {
    const identifier = profile.identities?.find((i) => i.handle === handle)?.identifier;
    if (identifier) return identifier;
  }
  return '';
}
