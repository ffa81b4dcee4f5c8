//! The refdata service's errors. Each variant's doc says the gRPC code it becomes; storage and
//! tenant file failures are logged and leave as an opaque `Internal`.
use portal_common::error::internal;
use tonic::Status;

#[derive(Debug, thiserror::Error)]
pub enum RefdataError {
    /// `NotFound`: no IP position, no default position in the tenant file and no store
    #[error("No position is known for this address")]
    NoPosition,
    /// `Internal`, logged: the tenant file can't be read and no good one was loaded before
    #[error("reading tenant config: {0:#}")]
    Config(anyhow::Error),
    /// `Internal`, logged with what was being done
    #[error("{0}: {1}")]
    Db(&'static str, #[source] sqlx::Error),
}

/// The storage failure while doing `context`, for `map_err`.
pub fn db(context: &'static str) -> impl FnOnce(sqlx::Error) -> RefdataError {
    move |e| RefdataError::Db(context, e)
}

impl From<RefdataError> for Status {
    fn from(e: RefdataError) -> Status {
        match e {
            RefdataError::NoPosition => Status::not_found(e.to_string()),
            RefdataError::Config(e) => internal("reading tenant config", e),
            RefdataError::Db(context, e) => internal(context, e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tonic::Code;

    #[test]
    fn each_error_becomes_its_code_and_message() {
        let s = Status::from(RefdataError::NoPosition);
        assert_eq!((s.code(), s.message()), (Code::NotFound, "No position is known for this address"));
        let s = Status::from(RefdataError::Config(anyhow::anyhow!("gone")));
        assert_eq!((s.code(), s.message()), (Code::Internal, "Something went wrong on our side"));
        let s = Status::from(RefdataError::Db("listing locations", sqlx::Error::RowNotFound));
        assert_eq!((s.code(), s.message()), (Code::Internal, "Something went wrong on our side"));
    }
}
