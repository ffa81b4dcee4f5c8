//! The profile service's errors. Each variant's doc says the gRPC code it becomes; storage
//! failures are logged and leave as an opaque `Internal`.
use portal_common::identity::Refused;
use tonic::Status;

#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    /// `NotFound`
    #[error("No profile found")]
    NotFound,
    /// `AlreadyExists` with a field error on `email`
    #[error("An account with this email address already exists")]
    EmailTaken,
    /// `InvalidArgument` with one violation per field
    #[error("Please check the highlighted fields")]
    Fields(std::collections::BTreeMap<String, String>),
    /// `AlreadyExists` with a field error: (field, message)
    #[error("{1}")]
    Conflict(&'static str, &'static str),
    /// `NotFound` with this message (a reward, an offer)
    #[error("{0}")]
    Missing(&'static str),
    /// `FailedPrecondition` (HTTP 409): the request is understood but the state refuses it
    #[error("{0}")]
    Refused(&'static str),
    /// `InvalidArgument` with this message and no field: a standing limit of the member's (e.g.
    /// claims waiting at once), which no other value of a field would pass
    #[error("{0}")]
    Limit(String),
    /// `ResourceExhausted` (HTTP 429) with `retry-after` metadata: (message, seconds until one
    /// more is allowed)
    #[error("{0}")]
    TooMany(String, u64),
    /// `FailedPrecondition`: a debit larger than the points the member holds
    #[error("You don't have enough points for this")]
    NotEnoughPoints,
    /// `Internal`, logged
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    /// As the KV (503 while it is down) or another service said
    #[error(transparent)]
    Upstream(tonic::Status),
    /// `Unauthenticated` (no member), or `PermissionDenied` (a staff view, which sees but never
    /// acts), with the message the identity guard gives
    #[error(transparent)]
    NotAllowed(#[from] Refused),
}

impl ProfileError {
    pub fn field(field: &str, message: &str) -> ProfileError {
        ProfileError::Fields([(field.to_string(), message.to_string())].into())
    }
}

impl From<ProfileError> for Status {
    fn from(e: ProfileError) -> Status {
        match e {
            ProfileError::NotFound => Status::not_found(e.to_string()),
            ProfileError::EmailTaken => portal_common::error::field_status(
                tonic::Code::AlreadyExists,
                &e.to_string(),
                &[("email".to_string(), e.to_string())].into(),
            ),
            ProfileError::Conflict(field, m) => {
                portal_common::error::field_status(tonic::Code::AlreadyExists, m, &[(field.to_string(), m.to_string())].into())
            }
            ProfileError::Missing(m) => Status::not_found(m),
            ProfileError::Refused(m) => Status::failed_precondition(m),
            ProfileError::NotEnoughPoints => Status::failed_precondition(e.to_string()),
            ProfileError::Limit(m) => Status::invalid_argument(m),
            ProfileError::TooMany(m, secs) => {
                let mut s = Status::resource_exhausted(m);
                s.metadata_mut().insert("retry-after", secs.max(1).into());
                s
            }
            ProfileError::Fields(f) => portal_common::error::invalid_fields("Please check the highlighted fields", &f),
            ProfileError::Db(e) => portal_common::error::internal("profile storage", e),
            ProfileError::Upstream(s) => s,
            ProfileError::NotAllowed(r) => r.into(),
        }
    }
}
