//! Who is calling. A handler's signature says who may call it: `Member` needs a valid session
//! token; the identity it carries is the only source of the caller's profile id.
use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use portal_common::identity::Caller;
use portal_common::token::{Claims, TokenError};
use std::sync::Arc;

pub struct Member(pub Arc<Claims>);

impl Member {
    /// A gRPC request carrying the caller's identity as metadata.
    pub fn request<T>(&self, msg: T) -> tonic::Request<T> {
        let mut req = tonic::Request::new(msg);
        Caller { profile_id: self.0.pid.clone(), actor: None, tenant: Some(self.0.tenant.clone()).filter(|t| !t.is_empty()) }
            .write_to(req.metadata_mut());
        req
    }
}

fn bearer(parts: &Parts) -> Option<&str> {
    let v = parts.headers.get(axum::http::header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = v.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

impl FromRequestParts<AppState> for Member {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let token = bearer(parts).ok_or_else(|| ApiError::unauthorized("Please log in to continue"))?;
        match state.verifier.verify(token).await {
            Ok(c) => Ok(Member(c)),
            Err(TokenError::Expired) => Err(ApiError::unauthorized("Your secure visit has expired. Please log in again")),
            Err(_) => Err(ApiError::unauthorized("Invalid token")),
        }
    }
}
