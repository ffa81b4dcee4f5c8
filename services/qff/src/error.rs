//! The frequent-flyer service's errors. Each variant's doc says the gRPC code it becomes; field
//! problems travel as field errors (`portal_common::error`), storage failures are logged and
//! leave as an opaque `Internal`.
use tonic::{Code, Status};

pub const NOT_LINKED: &str = "Link your Frequent Flyer account first";
pub const PARTNER_DOWN: &str = "Qantas Frequent Flyer isn't answering right now. Nothing was changed; please try again in a few minutes.";
pub(crate) const TAKEN: &str = "This Frequent Flyer account is already linked to another member";
pub(crate) const UNLINK_FIRST: &str = "Unlink your current Frequent Flyer account first";
/// What a member whose sign-in is older than `RECENT_SIGN_IN_SECS` is told on converting.
pub const REAUTHENTICATE: &str = "For your security, please sign in again with a new code or link to convert points.";
pub const STILL_RUNNING: &str = "This conversion is still being processed";

#[derive(Debug, thiserror::Error)]
pub enum QffError {
    /// `InvalidArgument` with a field error: (field, message)
    #[error("{1}")]
    Invalid(&'static str, String),
    /// `AlreadyExists` with a field error on `qff_number`: another member holds the account
    #[error("{}", TAKEN)]
    Taken,
    /// `FailedPrecondition` with a field error on `qff_number`: another account is linked
    #[error("{}", UNLINK_FIRST)]
    UnlinkFirst,
    /// `FailedPrecondition` (HTTP 409) with this message: the state refuses the request
    #[error("{0}")]
    Refused(&'static str),
    /// `Aborted` (HTTP 409): the conversion under this key is still being processed
    #[error("{}", STILL_RUNNING)]
    StillRunning,
    /// `PermissionDenied` with `session: reauthenticate`: the sign-in is too old to move points
    #[error("{}", REAUTHENTICATE)]
    Reauthenticate,
    /// `Unavailable` (HTTP 503) with `retry-after` metadata (these seconds): the airline isn't
    /// answering, nothing was changed
    #[error("{}", PARTNER_DOWN)]
    PartnerDown(u64),
    /// `Internal`, logged
    #[error(transparent)]
    Db(#[from] sqlx::Error),
    /// `Internal`, logged: the tenant config refdata answered can't be read
    #[error(transparent)]
    Tenant(#[from] portal_tenant::ConfigError),
    /// As another service (refdata, the profile service, its ledger) said
    #[error(transparent)]
    Upstream(#[from] Status),
    /// `Unauthenticated` (no member), or `PermissionDenied` (a staff view, which sees but never
    /// acts), with the message the identity guard gives
    #[error(transparent)]
    NotAllowed(#[from] portal_common::identity::Refused),
}

impl QffError {
    pub fn invalid(field: &'static str, message: impl Into<String>) -> QffError {
        QffError::Invalid(field, message.into())
    }
}

fn field(code: Code, message: &str, field: &str) -> Status {
    portal_common::error::field_status(code, message, &[(field.to_string(), message.to_string())].into())
}

impl From<QffError> for Status {
    fn from(e: QffError) -> Status {
        match e {
            QffError::Invalid(f, m) => field(Code::InvalidArgument, &m, f),
            QffError::Taken => field(Code::AlreadyExists, TAKEN, "qff_number"),
            QffError::UnlinkFirst => field(Code::FailedPrecondition, UNLINK_FIRST, "qff_number"),
            QffError::Refused(m) => Status::failed_precondition(m),
            QffError::StillRunning => Status::aborted(STILL_RUNNING),
            QffError::Reauthenticate => portal_common::error::field_status(
                Code::PermissionDenied,
                REAUTHENTICATE,
                &[("session".to_string(), portal_common::identity::REAUTHENTICATE_FIELD.to_string())].into(),
            ),
            QffError::PartnerDown(secs) => {
                let mut s = Status::unavailable(PARTNER_DOWN);
                if let Ok(v) = secs.to_string().parse() {
                    s.metadata_mut().insert("retry-after", v);
                }
                s
            }
            QffError::Db(e) => portal_common::error::internal("frequent-flyer storage", e),
            QffError::Tenant(e) => portal_common::error::internal("tenant config", e),
            QffError::Upstream(s) => s,
            QffError::NotAllowed(r) => r.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_error_keeps_its_code_message_and_field() {
        let s = Status::from(QffError::Taken);
        assert_eq!((s.code(), s.message()), (Code::AlreadyExists, TAKEN));
        assert_eq!(portal_common::error::field_errors(&s)["qff_number"], TAKEN);
        let s = Status::from(QffError::UnlinkFirst);
        assert_eq!((s.code(), portal_common::error::field_errors(&s)["qff_number"].as_str()), (Code::FailedPrecondition, UNLINK_FIRST));
        let s = Status::from(QffError::PartnerDown(30));
        assert_eq!(
            (s.code(), s.message(), s.metadata().get("retry-after").unwrap().to_str().unwrap()),
            (Code::Unavailable, PARTNER_DOWN, "30")
        );
        let s = Status::from(QffError::Reauthenticate);
        assert_eq!((s.code(), portal_common::error::field_errors(&s)["session"].as_str()), (Code::PermissionDenied, "reauthenticate"));
        let s = Status::from(QffError::Db(sqlx::Error::RowNotFound));
        assert_eq!((s.code(), s.message()), (Code::Internal, "Something went wrong on our side"));
    }
}
