//! The caller's identity as the gateway passes it to services in gRPC metadata. Services trust
//! only these keys (the gateway strips any a client sends) and never a profile id from a body.
use tonic::metadata::MetadataMap;
use tonic::Status;

pub const PID: &str = "x-portal-pid";
pub const ACTOR: &str = "x-portal-actor";
pub const TENANT: &str = "x-portal-tenant";
/// Set to `1` when the caller is a staff member signed in as themselves.
pub const STAFF: &str = "x-portal-staff";
/// The client's IP address as the gateway saw it, for rate limits.
pub const CLIENT_IP: &str = "x-portal-client-ip";
/// The client's `User-Agent` as the gateway saw it, on sign-in calls (a session's device).
pub const USER_AGENT: &str = "x-portal-user-agent";
/// The caller's token id, so a service can revoke it (logout).
pub const TOKEN_ID: &str = "x-portal-jti";
/// Unix seconds at which the caller's token expires.
pub const TOKEN_EXP: &str = "x-portal-exp";
/// Unix seconds at which the caller really signed in (their token's `auth_time`, unchanged by
/// renewals), for steps that need a recent sign-in.
pub const AUTH_TIME: &str = "x-portal-auth-time";

/// How recent a sign-in must be for the steps that move points or change the sign-in address.
pub const RECENT_SIGN_IN_SECS: i64 = 15 * 60;
/// The `errors.session` value that tells the client to have the member sign in again.
pub const REAUTHENTICATE_FIELD: &str = "reauthenticate";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    pub profile_id: String,
    /// Staff member acting as the member, when impersonating.
    pub actor: Option<String>,
    pub tenant: Option<String>,
    /// The caller is staff, signed in as themselves (profile_id is then the staff id).
    pub staff: bool,
    pub token_id: Option<String>,
    pub token_exp: Option<i64>,
    pub auth_time: Option<i64>,
}

impl Caller {
    /// The signed-in member behind a request, or `Unauthenticated`.
    pub fn from_metadata(md: &MetadataMap) -> Result<Caller, Status> {
        let get = |k: &str| md.get(k).and_then(|v| v.to_str().ok()).filter(|s| !s.is_empty()).map(str::to_owned);
        let profile_id = get(PID).ok_or_else(|| Status::unauthenticated("No signed-in member"))?;
        Ok(Caller {
            profile_id,
            actor: get(ACTOR),
            tenant: get(TENANT),
            staff: get(STAFF).as_deref() == Some("1"),
            token_id: get(TOKEN_ID),
            token_exp: get(TOKEN_EXP).and_then(|v| v.parse().ok()),
            auth_time: get(AUTH_TIME).and_then(|v| v.parse().ok()),
        })
    }

    /// Whether the caller really signed in (link or code, not a renewal) within
    /// `RECENT_SIGN_IN_SECS` of `now`.
    pub fn signed_in_recently(&self, now: i64) -> bool {
        self.auth_time.is_some_and(|t| t > 0 && now - t <= RECENT_SIGN_IN_SECS)
    }

    /// The caller's client IP, if the gateway passed one.
    pub fn client_ip(md: &MetadataMap) -> Option<String> {
        md.get(CLIENT_IP).and_then(|v| v.to_str().ok()).map(str::to_owned)
    }

    /// The client's User-Agent, if the gateway passed one.
    pub fn user_agent(md: &MetadataMap) -> Option<String> {
        md.get(USER_AGENT).and_then(|v| v.to_str().ok()).filter(|s| !s.is_empty()).map(str::to_owned)
    }

    pub fn write_to(&self, md: &mut MetadataMap) {
        if let Ok(v) = self.profile_id.parse() {
            md.insert(PID, v);
        }
        if let Some(a) = self.actor.as_ref().and_then(|a| a.parse().ok()) {
            md.insert(ACTOR, a);
        }
        if let Some(t) = self.tenant.as_ref().and_then(|t| t.parse().ok()) {
            md.insert(TENANT, t);
        }
        if self.staff {
            md.insert(STAFF, tonic::metadata::MetadataValue::from_static("1"));
        }
        if let Some(j) = self.token_id.as_ref().and_then(|j| j.parse().ok()) {
            md.insert(TOKEN_ID, j);
        }
        if let Some(e) = self.token_exp.and_then(|e| e.to_string().parse().ok()) {
            md.insert(TOKEN_EXP, e);
        }
        if let Some(t) = self.auth_time.and_then(|t| t.to_string().parse().ok()) {
            md.insert(AUTH_TIME, t);
        }
    }
}
