import { authStore, forgetDrafts, onSessionChange } from '@portal/runtime';

// Unsaved edits kept for the member in this tab (issue 24): while a form holds some they are in
// sessionStorage under `draft:<form>:<profile id>`, so a session that ends (its time ran out, or
// another device signed it out) does not lose them: once the same member is signed in again and
// opens the form in this tab, it starts from them. Never another member's: only the signed-in
// member's key is read or written, and the others' are removed. Gone when saved, discarded, left
// with "Leave without saving", at an explicit sign-out, and when another account (a staff view
// too) takes the tab.

// The key's form is the runtime's (`draft:`), so an explicit sign-out clears them all.
const keyOf = (form: string, profileId: string) => `draft:${form}:${profileId}`;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null; // blocked: nothing is kept
  }
}

/** What the signed-in member `profileId` left unsaved in `form` in this tab; null when nothing. */
export function readDraft<T>(form: string, profileId: string): T | null {
  if (authStore.get().profile_id !== profileId) return null;
  forgetDrafts(profileId);
  try {
    const raw = storage()?.getItem(keyOf(form, profileId));
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

/** Keeps `draft` for `profileId`, only while that member is the one signed in. */
export function keepDraft(form: string, profileId: string, draft: unknown): void {
  if (authStore.get().profile_id !== profileId) return;
  try {
    storage()?.setItem(keyOf(form, profileId), JSON.stringify(draft));
  } catch {
    /* quota or blocked: the form still works */
  }
}

export function dropDraft(form: string, profileId: string): void {
  try {
    storage()?.removeItem(keyOf(form, profileId));
  } catch {
    /* ignore */
  }
}

let listening = false;

/**
 * Called once when the tab loads: the drafts follow the session. A new sign-in keeps only that
 * member's; a session that ended on its own (expired, or ended elsewhere: `ended`) keeps them for
 * the member's return; an explicit sign-out, and a staff view starting or ending, remove them all.
 */
export function keepDraftsPerMember(): void {
  if (listening) return;
  listening = true;
  onSessionChange((change) => {
    const { profile_id, ended, loggedOut } = authStore.get();
    if (change === 'signed-in') forgetDrafts(profile_id);
    else if (change !== 'signed-out' || (loggedOut && !ended)) forgetDrafts();
  });
}
