//! Every error the gateway answers, from any route, has the spec's shape:
//! `{status, message, errors, error: true}`. gRPC codes map to HTTP here and only here;
//! internal details never reach the client.
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::collections::BTreeMap;
use tonic::Code;
use utoipa::ToSchema;

/// The spec's error body.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    /// HTTP status code, repeated in the body.
    pub status: u16,
    pub message: String,
    /// Problems by field name; empty when the error is not about a field.
    pub errors: BTreeMap<String, String>,
    /// Always true.
    pub error: bool,
}

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
    pub errors: BTreeMap<String, String>,
    /// Seconds to wait before trying again (`Retry-After`), when a service said so.
    pub retry_after: Option<u64>,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self { status, message: message.into(), errors: BTreeMap::new(), retry_after: None }
    }
    pub fn unauthorized(message: &str) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, message)
    }
    pub fn not_found() -> Self {
        Self::new(StatusCode::NOT_FOUND, "Not found")
    }
    pub fn field(status: StatusCode, message: &str, field: &str, problem: &str) -> Self {
        let mut e = Self::new(status, message);
        e.errors.insert(field.into(), problem.into());
        e
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody { status: self.status.as_u16(), message: self.message, errors: self.errors, error: true };
        let mut res = (self.status, axum::Json(body)).into_response();
        if let Some(v) = self.retry_after.and_then(|s| axum::http::HeaderValue::from_str(&s.to_string()).ok()) {
            res.headers_mut().insert(axum::http::header::RETRY_AFTER, v);
        }
        res
    }
}

/// What a member is told to wait when a service is down or slow.
pub const RETRY_AFTER_SECS: u64 = 5;

/// The HTTP status for a gRPC code.
pub fn http_status(code: Code) -> StatusCode {
    match code {
        Code::Ok => StatusCode::OK,
        Code::InvalidArgument | Code::OutOfRange => StatusCode::UNPROCESSABLE_ENTITY,
        Code::Unauthenticated => StatusCode::UNAUTHORIZED,
        Code::PermissionDenied => StatusCode::FORBIDDEN,
        Code::NotFound => StatusCode::NOT_FOUND,
        Code::AlreadyExists | Code::Aborted | Code::FailedPrecondition => StatusCode::CONFLICT,
        Code::ResourceExhausted => StatusCode::TOO_MANY_REQUESTS,
        Code::Unimplemented => StatusCode::NOT_IMPLEMENTED,
        Code::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        // A service that is down or too slow: the member may try again shortly.
        Code::DeadlineExceeded => StatusCode::SERVICE_UNAVAILABLE,
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

impl From<tonic::Status> for ApiError {
    fn from(s: tonic::Status) -> Self {
        let status = http_status(s.code());
        // A service that says how long to wait answered deliberately (e.g. a partner that is
        // down): its message is for the member. Otherwise Unavailable is the transport's.
        let said = s.metadata().get("retry-after").and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
        let message = match s.code() {
            Code::Unavailable if said.is_some() && !s.message().is_empty() => s.message().to_string(),
            Code::Unavailable | Code::DeadlineExceeded => "A service is unavailable, please try again shortly".to_string(),
            Code::Internal | Code::Unknown | Code::DataLoss => "An unknown error occurred".to_string(),
            _ if s.message().is_empty() => "An unknown error occurred".to_string(),
            _ => s.message().to_string(),
        };
        if status.is_server_error() {
            tracing::warn!(code = ?s.code(), message = s.message(), "service call failed");
        }
        // A service down or not answering in time: the channel reconnects on its own, so a few
        // seconds is a fair wait.
        let retry_after = said.or(matches!(s.code(), Code::Unavailable | Code::DeadlineExceeded).then_some(RETRY_AFTER_SECS));
        ApiError { status, message, errors: portal_common::error::field_errors(&s), retry_after }
    }
}

/// A body the gateway can't read as the call's JSON: 400 with what was wrong in `errors.body`,
/// the same whatever the cause, so a client needs one rule.
impl From<axum::extract::rejection::JsonRejection> for ApiError {
    fn from(r: axum::extract::rejection::JsonRejection) -> Self {
        use axum::extract::rejection::JsonRejection as R;
        let message = match &r {
            R::MissingJsonContentType(_) => "Send the request body as JSON, with Content-Type: application/json",
            R::JsonDataError(_) => "The request body does not have the fields this call needs",
            _ => "The request body is not valid JSON for this call",
        };
        ApiError::field(StatusCode::BAD_REQUEST, message, "body", &r.body_text())
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
