//! Error conventions shared by services: field problems travel as a `BadRequest` detail of an
//! `InvalidArgument` status (tonic's richer error model), so the gateway can answer them as the
//! spec's `errors` object. Unexpected errors are logged here and leave as an opaque message.
use std::collections::BTreeMap;
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

/// An `InvalidArgument` status carrying one violation per field.
pub fn invalid_fields(message: &str, fields: &BTreeMap<String, String>) -> Status {
    field_status(Code::InvalidArgument, message, fields)
}

/// A status of any code carrying one violation per field (e.g. `AlreadyExists` on `email`).
pub fn field_status(code: Code, message: &str, fields: &BTreeMap<String, String>) -> Status {
    let mut details = ErrorDetails::new();
    for (field, problem) in fields {
        details.add_bad_request_violation(field.clone(), problem.clone());
    }
    Status::with_error_details(code, message, details)
}

/// The field violations carried by a status, if any.
pub fn field_errors(status: &Status) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    if let Some(br) = status.get_details_bad_request() {
        for v in br.field_violations {
            out.insert(v.field, v.description);
        }
    }
    out
}

/// Logs an unexpected failure and returns an opaque internal status.
pub fn internal(context: &str, err: impl std::fmt::Display) -> Status {
    tracing::error!(error = %err, "{context}");
    Status::internal("Something went wrong on our side")
}

/// Messages of the spec's error catalogue (section 8) that services answer.
pub mod catalogue {
    /// Linking a purchase to a list item without the arguments it needs.
    pub const INVALID_ARGUMENTS: &str = "Invalid Arguments";
    pub const ERROR_CREATING_LIST: &str = "Error creating list";
    pub const ERROR_CREATING_LIST_ITEM: &str = "Error creating list Item";
    pub const ERROR_ASSIGNING_ITEM: &str = "Error assigning item";
}
