//! Who is calling. A handler's signature says who may call it: `Member` needs a valid session
//! token, `Staff` a staff member's own session; the identity they carry is the only source of the
//! caller's profile id. The `identify` middleware verifies a bearer token once per request and
//! refuses every write made with an impersonation token (read-only by design).
use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use portal_common::identity::{Caller, CLIENT_IP};
use portal_common::token::{Claims, TokenError, IMPERSONATION_READ_ONLY};
use std::net::SocketAddr;
use std::sync::Arc;

/// Verified claims of the request's bearer token, set by `identify`.
#[derive(Clone)]
struct Verified(Arc<Claims>);

/// The client's address as the gateway saw it.
#[derive(Clone)]
pub struct ClientIp(pub Option<String>);

/// Writes a staff member may make while viewing a member's account: ending that view.
const IMPERSONATION_WRITES: &[&str] = &["/api/auth/logout"];

fn bearer(parts: &axum::http::HeaderMap) -> Option<&str> {
    let v = parts.get(axum::http::header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = v.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

fn rejection(e: TokenError) -> ApiError {
    match e {
        TokenError::Expired => ApiError::unauthorized("Your secure visit has expired. Please log in again"),
        TokenError::Revoked => ApiError::unauthorized("You have been logged out. Please log in again"),
        _ => ApiError::unauthorized("Invalid token"),
    }
}

pub async fn identify(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let ip = req.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip().to_string());
    req.extensions_mut().insert(ClientIp(ip));
    if let Some(token) = bearer(req.headers()) {
        if let Ok(claims) = state.verifier.verify(token).await {
            let write = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
            if claims.is_impersonation() && write && !IMPERSONATION_WRITES.contains(&req.uri().path()) {
                return ApiError::new(StatusCode::FORBIDDEN, IMPERSONATION_READ_ONLY).into_response();
            }
            req.extensions_mut().insert(Verified(claims));
        }
    }
    next.run(req).await
}

pub struct Member(pub Arc<Claims>);

impl Member {
    /// A gRPC request carrying the caller's identity as metadata.
    pub fn request<T>(&self, msg: T) -> tonic::Request<T> {
        let c = &self.0;
        let mut req = tonic::Request::new(msg);
        Caller {
            profile_id: c.pid.clone(),
            actor: c.act.as_ref().map(|a| a.sub.clone()),
            tenant: Some(c.tenant.clone()).filter(|t| !t.is_empty()),
            staff: c.is_staff(),
            token_id: Some(c.jti.clone()),
            token_exp: Some(c.exp),
        }
        .write_to(req.metadata_mut());
        req
    }
}

impl FromRequestParts<AppState> for Member {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        if let Some(Verified(c)) = parts.extensions.get::<Verified>() {
            return Ok(Member(c.clone()));
        }
        let token = bearer(&parts.headers).ok_or_else(|| ApiError::unauthorized("Please log in to continue"))?;
        state.verifier.verify(token).await.map(Member).map_err(rejection)
    }
}

/// A staff member signed in as themselves (not viewing a member's account).
pub struct Staff(pub Member);

impl FromRequestParts<AppState> for Staff {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let m = Member::from_request_parts(parts, state).await?;
        if !m.0.is_staff() {
            return Err(ApiError::new(StatusCode::FORBIDDEN, "Only staff can do this"));
        }
        Ok(Staff(m))
    }
}

impl ClientIp {
    /// A gRPC request carrying the client's IP, for the auth service's rate limits.
    pub fn request<T>(&self, msg: T) -> tonic::Request<T> {
        let mut req = tonic::Request::new(msg);
        if let Some(v) = self.0.as_ref().and_then(|ip| ip.parse().ok()) {
            req.metadata_mut().insert(CLIENT_IP, v);
        }
        req
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(parts.extensions.get::<ClientIp>().cloned().unwrap_or(ClientIp(None)))
    }
}
