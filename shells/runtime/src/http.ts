import { authStore } from './auth-store';
import { startProgress } from './progress';

export const UNKNOWN_ERROR = 'An unknown error occurred';

/** The spec's error object: every failed call rejects with one of these. */
export interface HttpError {
  status: number;
  message: string;
  errors: Record<string, string>;
  error: true;
  body: unknown;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  body?: unknown;
  signal?: AbortSignal;
  /** Skip the top progress bar (used by background polling). */
  quiet?: boolean;
  /** Send this token instead of the signed-in one (null: send none). */
  token?: string | null;
  /** Let the request outlive the page (sign-out on the way to another page). */
  keepalive?: boolean;
  /**
   * Extra request headers, e.g. `{ 'Idempotency-Key': key }`. They cannot replace the ones this
   * helper owns (Content-Type of a JSON body, Authorization: use `token` for that).
   */
  headers?: Record<string, string>;
}

/** Set by this helper only (the `headers` option cannot replace them). */
const OWN_HEADERS = ['authorization', 'content-type'];

let unauthorizedHandler: ((error: HttpError) => void) | null = null;
let activityHandler: (() => void) | null = null;
let forbiddenWriteHandler: ((error: HttpError) => void) | null = null;

/** The auth module registers what to do when a signed-in call answers 401 (with its error). */
export function onUnauthorized(handler: ((error: HttpError) => void) | null): void {
  unauthorizedHandler = handler;
}

/** The session watch registers what to do when the server accepted the session (it is in use). */
export function onSessionUsed(handler: (() => void) | null): void {
  activityHandler = handler;
}

/** The auth module registers what to do when a write (non-GET) answers 403. */
export function onForbiddenWrite(handler: ((error: HttpError) => void) | null): void {
  forbiddenWriteHandler = handler;
}

export function isHttpError(value: unknown): value is HttpError {
  return typeof value === 'object' && value !== null && (value as HttpError).error === true;
}

/** Builds the error object from a status and whatever body came back (maybe none). */
export function toHttpError(status: number | undefined, body: unknown): HttpError {
  const obj = body && typeof body === 'object' ? (body as Record<string, unknown>) : null;
  const message = (obj && typeof obj.message === 'string' && obj.message) || (typeof body === 'string' && body.trim()) || UNKNOWN_ERROR;
  const resolvedStatus = (obj && typeof obj.status === 'number' && obj.status) || status || 500;
  if (body === undefined || body === null || body === '') {
    const errors = { request: UNKNOWN_ERROR };
    return { status: resolvedStatus, message, errors, error: true, body: { message, errors } };
  }
  const errors = obj && obj.errors && typeof obj.errors === 'object' ? (obj.errors as Record<string, string>) : {};
  return { status: resolvedStatus, message, errors, error: true, body };
}

async function readBody(res: Response): Promise<unknown> {
  let text: string;
  try {
    text = await res.text();
  } catch {
    return undefined;
  }
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** fetch wrapper: JSON in and out, Bearer token when signed in, spec error shape on failure. */
export async function http<T = unknown>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, signal, quiet, keepalive } = options;
  const signedIn = authStore.get().token;
  const token = options.token === undefined ? signedIn : options.token;
  const headers: Record<string, string> = { Accept: 'application/json' };
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    if (!OWN_HEADERS.includes(name.toLowerCase())) headers[name] = value;
  }
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const done = quiet ? () => undefined : startProgress();
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
      ...(keepalive ? { keepalive: true } : {}),
    });
  } catch {
    done();
    throw toHttpError(undefined, undefined);
  }
  const parsed = await readBody(res);
  done();
  if (!res.ok) {
    const error = toHttpError(res.status, parsed);
    // Only the session that made the call is ended: a late answer for an older token is ignored.
    if (res.status === 401 && token && token === authStore.get().token && unauthorizedHandler) unauthorizedHandler(error);
    if (res.status === 403 && method !== 'GET' && forbiddenWriteHandler) forbiddenWriteHandler(error);
    throw error;
  }
  if (token && token === authStore.get().token) activityHandler?.();
  return parsed as T;
}
