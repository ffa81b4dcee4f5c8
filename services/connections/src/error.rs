//! The connections service's errors. Each variant's doc says the gRPC code it becomes; field
//! problems travel as field errors (`portal_common::error`), storage failures are logged and
//! leave as an opaque `Internal`.
use portal_common::error::{field_status, internal};
use portal_common::identity::Refused;
use std::collections::BTreeMap;
use tonic::{Code, Status};

#[derive(Debug, thiserror::Error)]
pub enum ConnectionsError {
    /// `InvalidArgument` with this message and a field error: (message, field, problem)
    #[error("{0}")]
    Field(&'static str, &'static str, &'static str),
    /// `AlreadyExists` with this message and a field error: (message, field, problem)
    #[error("{0}")]
    Conflict(&'static str, &'static str, &'static str),
    /// `NotFound`, "No such connection" (a connection, list or list item of another member's, or
    /// none at all)
    #[error("No such {0}")]
    NotFound(&'static str),
    /// `NotFound` with the spec's message for the step that failed (e.g. "Error creating list")
    #[error("{0}")]
    Missing(&'static str),
    /// `InvalidArgument` with no field: the connection holds this many lists, its cap
    #[error("This connection already holds {0} lists, the most it can")]
    TooManyLists(i64),
    /// `InvalidArgument` with no field: the list holds this many items, its cap
    #[error("This list already holds {0} items, the most it can")]
    TooManyItems(i64),
    /// `Internal`, logged with what was being done
    #[error("{0}: {1}")]
    Db(&'static str, #[source] sqlx::Error),
    /// `Internal`, logged: the tenant config refdata answered does not load
    #[error("tenant config: {0}")]
    Tenant(#[source] portal_tenant::ConfigError),
    /// As refdata said (its status passed on)
    #[error(transparent)]
    Upstream(#[from] Status),
    /// `Unauthenticated` (no member), or `PermissionDenied` (a staff view, which sees but never
    /// acts), with the message the identity guard gives
    #[error(transparent)]
    NotAllowed(#[from] Refused),
}

/// The storage failure while doing `context`, for `map_err`.
pub fn db(context: &'static str) -> impl FnOnce(sqlx::Error) -> ConnectionsError {
    move |e| ConnectionsError::Db(context, e)
}

impl ConnectionsError {
    /// A missing connection or list, told with the spec's message for the step that failed.
    pub fn told_as(self, message: &'static str) -> ConnectionsError {
        match self {
            ConnectionsError::NotFound(_) => ConnectionsError::Missing(message),
            e => e,
        }
    }
}

impl From<ConnectionsError> for Status {
    fn from(e: ConnectionsError) -> Status {
        let one = |field: &str, problem: &str| BTreeMap::from([(field.to_string(), problem.to_string())]);
        match e {
            ConnectionsError::Field(m, field, problem) => field_status(Code::InvalidArgument, m, &one(field, problem)),
            ConnectionsError::Conflict(m, field, problem) => field_status(Code::AlreadyExists, m, &one(field, problem)),
            ConnectionsError::NotFound(_) | ConnectionsError::Missing(_) => Status::not_found(e.to_string()),
            ConnectionsError::TooManyLists(_) | ConnectionsError::TooManyItems(_) => Status::invalid_argument(e.to_string()),
            ConnectionsError::Db(context, e) => internal(context, e),
            ConnectionsError::Tenant(e) => internal("tenant config", e),
            ConnectionsError::Upstream(s) => s,
            ConnectionsError::NotAllowed(r) => r.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_error_becomes_its_code_and_message() {
        let s = Status::from(ConnectionsError::NotFound("connection").told_as("Error creating list"));
        assert_eq!((s.code(), s.message()), (Code::NotFound, "Error creating list"));
        let s = Status::from(ConnectionsError::NotFound("list item"));
        assert_eq!((s.code(), s.message()), (Code::NotFound, "No such list item"));
        let s = Status::from(ConnectionsError::TooManyLists(20).told_as("Error creating list"));
        assert_eq!((s.code(), s.message()), (Code::InvalidArgument, "This connection already holds 20 lists, the most it can"));
        let s = Status::from(ConnectionsError::Conflict("You already have this connection", "definition_id", "Taken"));
        assert_eq!((s.code(), s.message()), (Code::AlreadyExists, "You already have this connection"));
        assert_eq!(portal_common::error::field_errors(&s), BTreeMap::from([("definition_id".to_string(), "Taken".to_string())]));
        let s = Status::from(ConnectionsError::Db("listing lists", sqlx::Error::RowNotFound));
        assert_eq!((s.code(), s.message()), (Code::Internal, "Something went wrong on our side"));
    }
}
