//! The auth service's errors. Each variant's doc says the gRPC code it becomes; unexpected
//! failures are logged and leave as an opaque `Internal`.
use std::collections::BTreeMap;
use tonic::Status;

#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    /// `InvalidArgument` with one entry per bad field
    #[error("Please check the highlighted fields")]
    Fields(BTreeMap<String, String>),
    /// `Unauthenticated`
    #[error("This sign-in link has expired or has already been used")]
    LinkUnusable,
    /// `PermissionDenied`
    #[error("Not available in production mode")]
    DevOnly,
    /// `Internal`, logged
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    /// `Internal`, logged
    #[error(transparent)]
    Other(#[from] anyhow::Error),
    /// `Unavailable` or as the upstream said
    #[error(transparent)]
    Upstream(#[from] Status),
}

impl AuthError {
    pub fn field(field: &str, problem: &str) -> Self {
        AuthError::Fields(BTreeMap::from([(field.to_string(), problem.to_string())]))
    }
}

impl From<AuthError> for Status {
    fn from(e: AuthError) -> Status {
        match e {
            AuthError::Fields(ref f) => portal_common::error::invalid_fields(&e.to_string(), f),
            AuthError::LinkUnusable => Status::unauthenticated(e.to_string()),
            AuthError::DevOnly => Status::permission_denied(e.to_string()),
            AuthError::Db(e) => portal_common::error::internal("auth storage", e),
            AuthError::Other(e) => portal_common::error::internal("auth", e),
            AuthError::Upstream(s) => s,
        }
    }
}
