//! The auth service's errors. Each variant's doc says the gRPC code it becomes (and so the HTTP
//! status the gateway answers); unexpected failures are logged and leave as an opaque `Internal`.
use portal_common::identity::Refused;
use std::collections::BTreeMap;
use tonic::{Code, Status};

#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// `InvalidArgument` (422) with one entry per bad field
    #[error("Please check the highlighted fields")]
    Fields(BTreeMap<String, String>),
    /// `Unauthenticated` (401)
    #[error("This sign-in link has expired or has already been used")]
    LinkUnusable,
    /// `Unauthenticated` (401)
    #[error("That code is wrong or has expired")]
    CodeWrong,
    /// `ResourceExhausted` (429)
    #[error("Too many wrong attempts. Please request a new code.")]
    CodeLocked,
    /// `ResourceExhausted` (429)
    #[error("Too many attempts. Please wait a few minutes and try again.")]
    RateLimited,
    /// `Unauthenticated` (401)
    #[error("Please log in to continue")]
    NotSignedIn,
    /// `PermissionDenied` (403)
    #[error("{0}")]
    Forbidden(&'static str),
    /// `NotFound` (404)
    #[error("{0}")]
    NotFound(&'static str),
    /// `Unauthenticated` (401)
    #[error("{0}")]
    Unauthenticated(&'static str),
    /// `PermissionDenied` (403) with `errors.session: reauthenticate`: a step that needs a sign-in
    /// within the last 15 minutes
    #[error("{0}")]
    Reauthenticate(&'static str),
    /// `FailedPrecondition` (409): a step that needs another one first
    #[error("{0}")]
    Precondition(&'static str),
    /// `PermissionDenied` (403)
    #[error("Not available in production mode")]
    DevOnly,
    /// `Unavailable` (503 with `Retry-After`): without the KV there is no rate limit and no
    /// one-time secret to check, so sign-in refuses rather than guess
    #[error(transparent)]
    Kv(#[from] portal_common::kv::KvError),
    /// `Internal`, logged
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    /// `Internal`, logged
    #[error(transparent)]
    Other(#[from] anyhow::Error),
    /// As the upstream service said
    #[error(transparent)]
    Upstream(#[from] Status),
}

impl AuthError {
    pub fn field(field: &str, problem: &str) -> Self {
        AuthError::Fields(BTreeMap::from([(field.to_string(), problem.to_string())]))
    }
}

/// A common identity guard's refusal, with auth's own codes and messages: no caller is
/// `NotSignedIn` ("Please log in to continue"), a refused staff view or staff user `Forbidden`.
impl From<Refused> for AuthError {
    fn from(r: Refused) -> AuthError {
        match r {
            Refused::NotSignedIn => AuthError::NotSignedIn,
            Refused::StaffView(m) => AuthError::Forbidden(m),
            Refused::NotAMember => AuthError::Forbidden("Only members can do this"),
        }
    }
}

impl From<AuthError> for Status {
    fn from(e: AuthError) -> Status {
        let msg = e.to_string();
        match e {
            AuthError::Fields(ref f) => portal_common::error::invalid_fields(&msg, f),
            AuthError::LinkUnusable | AuthError::CodeWrong | AuthError::NotSignedIn | AuthError::Unauthenticated(_) => {
                Status::unauthenticated(msg)
            }
            AuthError::Reauthenticate(_) => portal_common::error::field_status(
                Code::PermissionDenied,
                &msg,
                &BTreeMap::from([("session".to_string(), portal_common::identity::REAUTHENTICATE_FIELD.to_string())]),
            ),
            AuthError::CodeLocked | AuthError::RateLimited => Status::new(Code::ResourceExhausted, msg),
            AuthError::Forbidden(_) | AuthError::DevOnly => Status::permission_denied(msg),
            AuthError::NotFound(_) => Status::not_found(msg),
            AuthError::Precondition(_) => Status::failed_precondition(msg),
            AuthError::Kv(e) => e.into(),
            AuthError::Db(e) => portal_common::error::internal("auth storage", e),
            AuthError::Other(e) => portal_common::error::internal("auth", e),
            AuthError::Upstream(s) => s,
        }
    }
}
