//! The profile service's errors. Each variant's doc says the gRPC code it becomes; storage
//! failures are logged and leave as an opaque `Internal`.
use tonic::Status;

#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    /// `NotFound`
    #[error("No profile found")]
    NotFound,
    /// `AlreadyExists` with a field error on `email`
    #[error("An account with this email address already exists")]
    EmailTaken,
    /// `Internal`, logged
    #[error(transparent)]
    Db(#[from] sqlx::Error),
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
            ProfileError::Db(e) => portal_common::error::internal("profile storage", e),
        }
    }
}
