// Hand-written REST types for the issue 3 routes (sign-in, sessions, staff impersonation),
// from docs/api-contract.md. They are not in the generated schema.d.ts yet; once the gateway
// documents these routes, `npm run gen:api` replaces them and this file goes away.

/** Decoded JWT payload of a portal token (base64 → JWT → middle part). */
export interface TokenClaims {
  pid: string;
  exp: number;
  iat?: number;
  jti?: string;
  /** 'link' = one-time emailed link (never a session); 'session' = a session token. */
  typ?: 'link' | 'session' | string;
  tenant?: string;
  /** The holder is a staff user (pid is the staff id; staff have no member profile). */
  staff?: boolean;
  /** Present on an impersonation token: the staff member viewing member `pid`. */
  act?: TokenActor;
  /** Link tokens only: where to go after sign-in. */
  redirect?: string;
}

export interface TokenActor {
  sub: string;
  name?: string;
}

/** POST /api/auth/exchange and POST /api/auth/verify answer. */
export interface SessionResponse {
  token: string;
  expiry: number;
  profile_id: string;
  redirect?: string | null;
}

/** POST /api/auth/email and POST /api/auth/sms body. */
export interface CodeRequest {
  email: string;
  redirect?: string;
  mode?: string;
  eventData?: unknown;
  customFields?: unknown;
}

/** POST /api/auth/verify body. */
export interface VerifyRequest {
  email: string;
  code: string;
}

export type MemberSearchType = 'id' | 'email' | 'qff_number';

/** POST /api/auth/searchById body (staff only). */
export interface SearchByIdRequest {
  type: MemberSearchType;
  id: string;
}

export interface MemberSearchResult {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
}

export interface SearchByIdResponse {
  data: MemberSearchResult[];
}

/** POST /api/auth/impersonate/{profileId} body (staff only). */
export interface ImpersonateRequest {
  staffId?: string;
  reason?: string;
}

export interface ImpersonateResponse {
  token?: string | null;
  expiry?: number;
  profile_id?: string;
  impersonatedProfile?: { first_name: string; last_name: string } | null;
}

export type AccessAction = 'start' | 'stop' | 'attempt';

/** One row of GET /api/profile/access-log (newest first). */
export interface AccessLogEntry {
  action: AccessAction;
  staff_id: string;
  staff_name: string;
  reason?: string | null;
  /** RFC 3339 instant. */
  at: string;
}

export interface AccessLogResponse {
  data: AccessLogEntry[];
}
