//! The profile service's errors. Each variant's doc says the gRPC code it becomes; storage
//! failures are logged and leave as an opaque `Internal`.
use tonic::Status;

#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    /// `NotFound`
    #[error("No profile found")]
    NotFound,
    /// `Internal`, logged
    #[error(transparent)]
    Db(#[from] sqlx::Error),
}

impl From<ProfileError> for Status {
    fn from(e: ProfileError) -> Status {
        match e {
            ProfileError::NotFound => Status::not_found(e.to_string()),
            ProfileError::Db(e) => portal_common::error::internal("profile storage", e),
        }
    }
}
