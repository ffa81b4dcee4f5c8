import { createStore } from './store';
import type { TokenActor } from './api/auth-types';

export interface ImpersonatedProfile {
  first_name: string;
  last_name: string;
}

export interface AuthState {
  profile_id: string | null;
  token: string | null;
  /** Unix seconds, from the token's exp. */
  expiry: number | null;
  authenticated: boolean;
  loading: boolean;
  loggedOut: boolean;
  /** Why the session ended without the member signing out here: its time ran out, or another
   * device signed it out (the API answered 401 with `errors.session: 'revoked'`). */
  ended: 'expired' | 'elsewhere' | null;
  impersonating: boolean;
  impersonation: { impersonatedProfile: ImpersonatedProfile | null } | null;
  /** The token says `staff: true` (a staff user, not a member). */
  staff: boolean;
  /** On an impersonation token: the staff member viewing this account. */
  actor: TokenActor | null;
}

export const SIGNED_OUT: AuthState = {
  profile_id: null,
  token: null,
  expiry: null,
  authenticated: false,
  loading: false,
  loggedOut: false,
  ended: null,
  impersonating: false,
  impersonation: null,
  staff: false,
  actor: null,
};

export const authStore = createStore<AuthState>({ ...SIGNED_OUT });
