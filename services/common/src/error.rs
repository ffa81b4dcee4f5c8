//! Error conventions shared by services: field problems travel as a `BadRequest` detail of an
//! `InvalidArgument` status (tonic's richer error model), so the gateway can answer them as the
//! spec's `errors` object. Unexpected errors are logged here and leave as an opaque message.
//! The details ride in a response header (`grpc-status-details-bin`), which HTTP/2 bounds: at
//! most [`MAX_FIELD_ERRORS`] violations travel, each cut to [`MAX_FIELD_TEXT`] characters, and the
//! message says how many problems there were in all.
use std::collections::BTreeMap;
use tonic::{Code, Status};
use tonic_types::{ErrorDetails, StatusExt};

/// An `InvalidArgument` status carrying one violation per field.
pub fn invalid_fields(message: &str, fields: &BTreeMap<String, String>) -> Status {
    field_status(Code::InvalidArgument, message, fields)
}

/// Field violations one status carries at most. Past it the header block that carries them
/// overflowed (a comms update with 2,000 unknown keys), and the caller saw a transport error.
pub const MAX_FIELD_ERRORS: usize = 50;

/// Characters of a field name or problem kept: a field name can be a key the client chose.
pub const MAX_FIELD_TEXT: usize = 100;

fn clip(s: &str) -> String {
    match s.char_indices().nth(MAX_FIELD_TEXT) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s.to_string(),
    }
}

/// A status of any code carrying one violation per field (e.g. `AlreadyExists` on `email`): the
/// first [`MAX_FIELD_ERRORS`] of them, with the count of all in the message when there are more.
pub fn field_status(code: Code, message: &str, fields: &BTreeMap<String, String>) -> Status {
    let mut details = ErrorDetails::new();
    for (field, problem) in fields.iter().take(MAX_FIELD_ERRORS) {
        details.add_bad_request_violation(clip(field), clip(problem));
    }
    let message = if fields.len() > MAX_FIELD_ERRORS {
        format!("{message} ({} problems: the first {MAX_FIELD_ERRORS} are listed)", fields.len())
    } else {
        message.to_string()
    };
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_errors_are_bounded() {
        let many: BTreeMap<String, String> =
            (0..2000).map(|i| (format!("{i:04}{}", "k".repeat(300)), "Unknown messaging preference".to_string())).collect();
        let s = invalid_fields("Please check the highlighted fields", &many);
        assert_eq!(s.message(), "Please check the highlighted fields (2000 problems: the first 50 are listed)");
        let back = field_errors(&s);
        assert_eq!(back.len(), MAX_FIELD_ERRORS);
        assert!(back.keys().all(|k| k.chars().count() == MAX_FIELD_TEXT + 1 && k.ends_with('…')));
        // What travels in the header stays far below HTTP/2's usual 16 KiB header list.
        assert!(s.details().len() < 8 * 1024, "{} bytes of details", s.details().len());

        let few: BTreeMap<String, String> = [("email".to_string(), "Required".to_string())].into();
        let s = invalid_fields("Please check the highlighted fields", &few);
        assert_eq!((s.message(), field_errors(&s)), ("Please check the highlighted fields", few));
    }
}

/// Messages of the spec's error catalogue (section 8) that services answer.
pub mod catalogue {
    /// Linking a purchase to a list item without the arguments it needs.
    pub const INVALID_ARGUMENTS: &str = "Invalid Arguments";
    pub const ERROR_CREATING_LIST: &str = "Error creating list";
    pub const ERROR_CREATING_LIST_ITEM: &str = "Error creating list Item";
    pub const ERROR_ASSIGNING_ITEM: &str = "Error assigning item";
}
