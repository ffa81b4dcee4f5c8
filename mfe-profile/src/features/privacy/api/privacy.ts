import { authStore, expireSession, http, startProgress, toHttpError } from '@portal/runtime';

// The privacy centre's REST calls (the contract: docs of GET/DELETE /api/privacy/…). Every one
// needs the member's own session: staff viewing an account get 403.

/** One signed-in device, as GET /api/privacy/sessions lists it. */
export interface PrivacySession {
  /** The session's token id. */
  id: string;
  /** The session making this request. */
  current: boolean;
  signed_in_at: string;
  last_seen_at?: string | null;
  expires_at: string;
  browser?: string | null;
  os?: string | null;
  device?: 'mobile' | 'tablet' | 'desktop' | null;
  /** Approximate, from the sign-in address (null without a GeoIP database). */
  place?: string | null;
  /** Truncated: the last IPv4 octet zeroed, IPv6 to /48. */
  ip?: string | null;
}

/** A staff member viewing the member's account (read-only) right now. */
export interface StaffView {
  /** End it with DELETE /api/privacy/sessions/{id}. */
  id: string;
  staff_name: string;
  started_at: string;
  last_seen_at?: string | null;
  /** It ends by itself then (at most 60 minutes after it started). */
  expires_at: string;
}

/** One device's live sessions (same browser, system and kind of device, whatever their versions). */
export interface PrivacyDevice {
  /** Sign it out with DELETE /api/privacy/devices/{key}. */
  key: string;
  /** The device making this request. */
  current: boolean;
  /** How many live sessions it holds. */
  sign_ins: number;
  /** Its newest sign-in. */
  signed_in_at: string;
  last_seen_at?: string | null;
  browser?: string | null;
  os?: string | null;
  device?: 'mobile' | 'tablet' | 'desktop' | null;
  place?: string | null;
  /** Newest sign-in first. */
  session_ids: string[];
}

export interface SessionList {
  sessions: PrivacySession[];
  /** The sessions grouped by device: this one first, then the most recently used. */
  devices: PrivacyDevice[];
  staff_views: StaffView[];
}

/**
 * GET /api/privacy/sessions: newest sign-in first, expired, idle and revoked ones left out; and
 * the staff viewing the account now.
 */
export const getSessions = (signal?: AbortSignal) => http<SessionList>('/api/privacy/sessions', { signal });

/**
 * DELETE /api/privacy/sessions/{id}: signs that device out, or ends that staff view (204; 404
 * when it is already gone).
 */
export const revokeSession = (id: string) => http<void>(`/api/privacy/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' });

/** DELETE /api/privacy/devices/{key}: every session of that device (404 when it is already gone). */
export const revokeDevice = (key: string) =>
  http<{ revoked: number }>(`/api/privacy/devices/${encodeURIComponent(key)}`, { method: 'DELETE' });

/** POST /api/privacy/sessions/revoke-others: every session but this one. */
export const revokeOtherSessions = () => http<{ revoked: number }>('/api/privacy/sessions/revoke-others', { method: 'POST' });

/** POST /api/privacy/delete/code: a fresh one-time code to the member's email (answered masked). */
export const sendDeleteCode = () => http<{ sent: boolean; email: string }>('/api/privacy/delete/code', { method: 'POST' });

/** POST /api/privacy/delete: erases the account; a wrong or expired code is a 422 on `code`. */
export const deleteAccount = (code: string) => http<{ deleted: boolean }>('/api/privacy/delete', { method: 'POST', body: { code } });

export interface DataFile {
  filename: string;
  blob: Blob;
}

/** The file name a Content-Disposition header gives (RFC 6266: `filename*` first), without any path. */
export function filenameFrom(disposition: string | null, fallback: string): string {
  const header = disposition ?? '';
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
  let name = '';
  if (extended) {
    try {
      name = decodeURIComponent(extended[2].trim());
    } catch {
      name = '';
    }
  }
  if (!name && plain) name = plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : plain[2].trim();
  name = name.split(/[\\/]/).pop()?.trim() ?? '';
  return name && name !== '.' && name !== '..' ? name : fallback;
}

/**
 * GET /api/privacy/export with the member's token. Not through `http`, which answers parsed JSON
 * only: the file is kept as the server wrote it, with the name from its Content-Disposition. A
 * failure rejects in the spec's error shape, and a 401 for this session ends it as `http` does.
 */
export async function getDataFile(fallbackName: string): Promise<DataFile> {
  const token = authStore.get().token;
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (token) headers.Authorization = `Bearer ${token}`;
  const done = startProgress();
  let res: Response;
  try {
    res = await fetch('/api/privacy/export', { headers });
  } catch {
    done();
    throw toHttpError(undefined, undefined);
  }
  let text: string | undefined;
  try {
    text = await res.text();
  } finally {
    done();
  }
  if (!res.ok) {
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON: the text is the message */
    }
    const error = toHttpError(res.status, body);
    if (res.status === 401 && token && token === authStore.get().token) {
      expireSession(error.errors.session === 'revoked' ? 'elsewhere' : 'expired');
    }
    throw error;
  }
  const type = res.headers.get('Content-Type') || 'application/json';
  return { filename: filenameFrom(res.headers.get('Content-Disposition'), fallbackName), blob: new Blob([text ?? ''], { type }) };
}

/** Hands `file` to the browser as a download (a temporary link on an object URL). */
export function saveFile(file: DataFile): void {
  const url = URL.createObjectURL(file.blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = file.filename;
  a.hidden = true;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Some browsers read the URL after click() returns: let it go a little later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
