//! The caller's identity as the gateway passes it to services in gRPC metadata. Services trust
//! only these keys (the gateway strips any a client sends) and never a profile id from a body.
use tonic::metadata::MetadataMap;
use tonic::{Request, Status};

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

/// The answer to any write made with an impersonation token.
pub const IMPERSONATION_READ_ONLY: &str = "Staff viewing a member's account cannot make changes";
/// The answer to any privacy-centre call (sessions, export, deletion) made with an impersonation
/// token, reads included.
pub const IMPERSONATION_PRIVACY: &str = "Staff viewing an account cannot use the privacy centre";

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

/// Why a guard refused a call. A service maps it into its own error enum, or straight into a
/// `Status` (`Unauthenticated` / `PermissionDenied` with the spec's message).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// No signed-in member in the metadata.
    NotSignedIn,
    /// A staff user viewing the member's account (the message says why they can't).
    StaffView(&'static str),
    /// A staff user signed in as themselves, where only a member may call.
    NotAMember,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Refused::NotSignedIn => "No signed-in member",
            Refused::StaffView(m) => m,
            Refused::NotAMember => "Only members can do this",
        })
    }
}

impl std::error::Error for Refused {}

impl From<Refused> for Status {
    fn from(r: Refused) -> Status {
        match r {
            Refused::NotSignedIn => Status::unauthenticated(r.to_string()),
            Refused::StaffView(_) | Refused::NotAMember => Status::permission_denied(r.to_string()),
        }
    }
}

/// The guards every service uses to say who may call an RPC. Member data is then always looked
/// up by the returned caller's `profile_id`, never by an id from the request body.
/// - [`caller`]: the member, or a staff user viewing that member's account (reads);
/// - [`writer`]: the member's own session: a staff view is read-only;
/// - [`owner`]: the member's own session, for the privacy centre (a staff view is refused with
///   the privacy centre's own message);
/// - [`member_owner`]: as `owner`, and not a staff user signed in as themselves.
pub fn caller<T>(req: &Request<T>) -> Result<Caller, Status> {
    Caller::from_metadata(req.metadata())
}

/// The member's own session (a staff view can't write). See [`caller`].
pub fn writer<T>(req: &Request<T>) -> Result<Caller, Status> {
    Ok(Caller::guard_writer(req.metadata())?)
}

/// The member's own session, for the privacy centre. See [`caller`].
pub fn owner<T>(req: &Request<T>) -> Result<Caller, Status> {
    Ok(Caller::guard_owner(req.metadata())?)
}

/// A member acting as themselves: no staff view, and not a staff user's own session.
pub fn member_owner<T>(req: &Request<T>) -> Result<Caller, Status> {
    Ok(Caller::guard_member_owner(req.metadata())?)
}

impl Caller {
    /// [`caller`] on bare metadata, refusing as [`Refused`] (for a service's own error enum).
    pub fn guard(md: &MetadataMap) -> Result<Caller, Refused> {
        Caller::from_metadata(md).map_err(|_| Refused::NotSignedIn)
    }

    /// [`writer`] on bare metadata.
    pub fn guard_writer(md: &MetadataMap) -> Result<Caller, Refused> {
        let c = Caller::guard(md)?;
        if c.actor.is_some() {
            return Err(Refused::StaffView(IMPERSONATION_READ_ONLY));
        }
        Ok(c)
    }

    /// [`owner`] on bare metadata.
    pub fn guard_owner(md: &MetadataMap) -> Result<Caller, Refused> {
        let c = Caller::guard(md)?;
        if c.actor.is_some() {
            return Err(Refused::StaffView(IMPERSONATION_PRIVACY));
        }
        Ok(c)
    }

    /// [`member_owner`] on bare metadata.
    pub fn guard_member_owner(md: &MetadataMap) -> Result<Caller, Refused> {
        let c = Caller::guard_owner(md)?;
        if c.staff {
            return Err(Refused::NotAMember);
        }
        Ok(c)
    }

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

#[cfg(test)]
mod tests {
    use super::*;

    fn req(c: &Caller) -> Request<()> {
        let mut r = Request::new(());
        c.write_to(r.metadata_mut());
        r
    }

    fn member() -> Caller {
        Caller { profile_id: "prf_1".into(), actor: None, tenant: None, staff: false, token_id: None, token_exp: None, auth_time: None }
    }

    #[test]
    fn guards_say_who_may_call() {
        let m = member();
        let view = Caller { actor: Some("stf_1".into()), ..member() };
        let staff = Caller { staff: true, ..member() };
        assert_eq!(caller(&req(&m)).unwrap(), m);
        assert_eq!(caller(&req(&view)).unwrap().actor.as_deref(), Some("stf_1"));
        assert_eq!(writer(&req(&m)).unwrap(), m);
        assert_eq!(owner(&req(&m)).unwrap(), m);
        assert_eq!(member_owner(&req(&m)).unwrap(), m);

        let w = writer(&req(&view)).unwrap_err();
        assert_eq!((w.code(), w.message()), (tonic::Code::PermissionDenied, IMPERSONATION_READ_ONLY));
        let o = owner(&req(&view)).unwrap_err();
        assert_eq!((o.code(), o.message()), (tonic::Code::PermissionDenied, IMPERSONATION_PRIVACY));
        assert_eq!(Caller::guard_member_owner(req(&staff).metadata()), Err(Refused::NotAMember));
        assert!(owner(&req(&staff)).is_ok());
        for guard in [caller::<()>, writer, owner, member_owner] {
            assert_eq!(guard(&Request::new(())).unwrap_err().code(), tonic::Code::Unauthenticated);
        }
    }
}
