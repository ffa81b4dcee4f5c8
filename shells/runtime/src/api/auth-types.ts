// Token and sign-in types. The decoded token payload is not a REST shape, so it is written here;
// the REST bodies of the sign-in routes are re-exported from the generated schema.
import type { components } from './schema';

type Schemas = components['schemas'];

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

export type SessionResponse = Schemas['Session'];
export type CodeRequest = Schemas['CodeRequest'];
export type VerifyRequest = Schemas['VerifyRequest'];
export type SearchByIdRequest = Schemas['SearchRequest'];
export type MemberSearchResult = Schemas['MemberSummary'];
export type SearchByIdResponse = Schemas['MemberList'];
export type ImpersonateRequest = Schemas['ImpersonateRequest'];
export type ImpersonateResponse = Schemas['Impersonation'];
export type AccessLogEntry = Schemas['AccessLogEntry'];
export type AccessLogResponse = Schemas['AccessLog'];

export type MemberSearchType = 'id' | 'email' | 'qff_number';
export type AccessAction = 'start' | 'stop' | 'attempt';
