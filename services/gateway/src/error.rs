//! Every error the gateway answers, from any route, has the spec's shape:
//! `{status, message, errors, error: true}`. gRPC codes map to HTTP here and only here;
//! internal details never reach the client. A call that failed on the way (the connection, HTTP/2,
//! a timeout) is told apart from an answer the service chose (see [`is_transport`]) and is always
//! a 503 with a neutral message, whatever code the transport error carried.
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

/// Beginnings of the messages tonic gives the statuses it makes itself from a failed call (an
/// HTTP/2 error, a refused or reset connection, its own timeout, a body it could not read). A
/// service that passes such a status on from a call of its own sends it with this message.
const TRANSPORT_MESSAGES: &[&str] = &[
    "h2 protocol error",
    "transport error",
    "error trying to connect",
    "tcp connect error",
    "connection error",
    "Timeout expired",
    "operation was canceled",
    "Service was not ready",
    "error reading a body from connection",
    "Error, message length too large",
    "Error, decoded message length too large",
];

/// Whether a status was made on the gateway's side of the call from a failure on the way rather
/// than sent by the service. tonic attaches the error it came from as the status's `source`; a
/// status the service sent is decoded from its headers and has none. The message is checked too,
/// for a transport failure a service met on a call of its own and passed on.
pub fn is_transport(s: &tonic::Status) -> bool {
    std::error::Error::source(s).is_some() || TRANSPORT_MESSAGES.iter().any(|m| s.message().starts_with(m))
}

/// The message of every failure on the way to a service.
pub const UNAVAILABLE: &str = "A service is unavailable, please try again shortly";

impl From<tonic::Status> for ApiError {
    fn from(s: tonic::Status) -> Self {
        if is_transport(&s) {
            // Its code says what broke on the wire (a reset stream reads as ResourceExhausted,
            // an oversized header as Internal), nothing the member could act on.
            tracing::warn!(code = ?s.code(), message = s.message(), "service call failed on the way");
            return ApiError {
                status: StatusCode::SERVICE_UNAVAILABLE,
                message: UNAVAILABLE.into(),
                errors: BTreeMap::new(),
                retry_after: Some(RETRY_AFTER_SECS),
            };
        }
        let status = http_status(s.code());
        // A service that says how long to wait answered deliberately (e.g. a partner that is
        // down): its message is for the member. Otherwise Unavailable is the transport's.
        let said = s.metadata().get("retry-after").and_then(|v| v.to_str().ok()).and_then(|v| v.parse::<u64>().ok());
        let message = match s.code() {
            Code::Unavailable if said.is_some() && !s.message().is_empty() => s.message().to_string(),
            Code::Unavailable | Code::DeadlineExceeded => UNAVAILABLE.to_string(),
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_on_the_way_is_a_neutral_503() {
        // As tonic makes them: from an HTTP/2 error, and its own timeout.
        let mut reset = tonic::Status::resource_exhausted("h2 protocol error: http2 error");
        reset.set_source(std::sync::Arc::new(std::io::Error::other("stream reset")));
        let timeout = tonic::Status::from_error(Box::new(std::io::Error::new(std::io::ErrorKind::TimedOut, "Timeout expired")));
        // Passed on by a service that met it on a call of its own: no source, the message tells.
        let passed_on = tonic::Status::internal("h2 protocol error: frame with invalid size");
        for s in [reset, timeout, passed_on] {
            let e = ApiError::from(s);
            assert_eq!(
                (e.status, e.message.as_str(), e.retry_after),
                (StatusCode::SERVICE_UNAVAILABLE, UNAVAILABLE, Some(RETRY_AFTER_SECS))
            );
        }
    }

    /// A stand-in for a service over real HTTP/2: `GetProfile` answers a status whose details
    /// (200 KB) no HTTP/2 connection carries, as 2,000 field errors once did; any other call a
    /// plain `ResourceExhausted`.
    async fn stand_in() -> String {
        use hyper_util::rt::{TokioExecutor, TokioIo};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            while let Ok((s, _)) = listener.accept().await {
                let svc = hyper::service::service_fn(|req: hyper::Request<hyper::body::Incoming>| async move {
                    let huge = req.uri().path().ends_with("/GetProfile");
                    let mut res = hyper::Response::builder().header("content-type", "application/grpc");
                    res = if huge {
                        res.header("grpc-status", "3")
                            .header("grpc-message", "Please check the highlighted fields")
                            .header("grpc-status-details-bin", "A".repeat(200_000))
                    } else {
                        res.header("grpc-status", "8").header("grpc-message", "Too many attempts, try again later")
                    };
                    Ok::<_, std::convert::Infallible>(res.body(http_body_util::Empty::<axum::body::Bytes>::new()).unwrap())
                });
                tokio::spawn(hyper::server::conn::http2::Builder::new(TokioExecutor::new()).serve_connection(TokioIo::new(s), svc));
            }
        });
        url
    }

    #[tokio::test]
    async fn an_answer_the_connection_cannot_carry_is_a_neutral_503() {
        use portal_proto::profile::v1 as pb;
        let url = stand_in().await;
        let mut client = pb::profile_service_client::ProfileServiceClient::new(portal_common::grpc::channel(&url).unwrap());
        let broken = client.get_profile(pb::GetProfileRequest {}).await.unwrap_err();
        assert!(is_transport(&broken), "{broken:?}");
        let e = ApiError::from(broken);
        assert_eq!((e.status, e.message.as_str(), e.errors.len()), (StatusCode::SERVICE_UNAVAILABLE, UNAVAILABLE, 0));
        // The same connection's deliberate answer is the service's.
        let said = client.get_summary(pb::GetSummaryRequest { profile_id: "p".into() }).await.unwrap_err();
        assert!(!is_transport(&said), "{said:?}");
        assert_eq!(ApiError::from(said).status, StatusCode::TOO_MANY_REQUESTS);
    }

    #[test]
    fn a_service_answer_keeps_its_status_and_message() {
        let e = ApiError::from(tonic::Status::resource_exhausted("Too many attempts, try again later"));
        assert_eq!((e.status, e.message.as_str()), (StatusCode::TOO_MANY_REQUESTS, "Too many attempts, try again later"));
        let fields: BTreeMap<String, String> = [("receipt_number".to_string(), "Required".to_string())].into();
        let e = ApiError::from(portal_common::error::invalid_fields("Please check the highlighted fields", &fields));
        assert_eq!((e.status, e.errors), (StatusCode::UNPROCESSABLE_ENTITY, fields));
        let e = ApiError::from(tonic::Status::internal("Something went wrong on our side"));
        assert_eq!((e.status, e.message.as_str()), (StatusCode::INTERNAL_SERVER_ERROR, "An unknown error occurred"));
    }
}
