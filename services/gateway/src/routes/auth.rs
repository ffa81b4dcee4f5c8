use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::Json;
use portal_proto::auth::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(request_link)).routes(routes!(exchange))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SignInRequest {
    pub email: String,
    /// Portal path to open after sign-in, e.g. `/profile`.
    #[serde(default)]
    pub redirect: Option<String>,
    #[serde(default)]
    pub external_redirect: Option<String>,
    #[serde(default, rename = "iFrame")]
    pub i_frame: Option<bool>,
    #[serde(default)]
    pub url_path: Option<String>,
    #[serde(default)]
    pub url_params: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct Message {
    pub message: String,
}

/// Emails a one-time sign-in link. Known and unknown addresses get the same answer.
#[utoipa::path(post, path = "/api/auth", tag = "auth", request_body = SignInRequest,
    responses((status = 200, body = Message), (status = 422, description = "Invalid email", body = crate::error::ErrorBody)))]
pub async fn request_link(State(s): State<AppState>, body: Result<Json<SignInRequest>, JsonRejection>) -> ApiResult<Json<Message>> {
    let Json(b) = body?;
    let r = s
        .clients
        .auth
        .clone()
        .request_magic_link(pb::RequestMagicLinkRequest {
            email: b.email,
            redirect: b.redirect.unwrap_or_default(),
            external_redirect: b.external_redirect.unwrap_or_default(),
            iframe: b.i_frame.unwrap_or(false),
            url_path: b.url_path.unwrap_or_default(),
            url_params: b.url_params.unwrap_or_default(),
        })
        .await?
        .into_inner();
    Ok(Json(Message { message: r.message }))
}

#[derive(Deserialize, ToSchema)]
pub struct ExchangeRequest {
    /// The one-time token from the emailed link.
    pub token: String,
}

#[derive(Serialize, ToSchema)]
pub struct Session {
    /// Session token: base64 of a signed JWT with `pid` and `exp`.
    pub token: String,
    /// Unix seconds.
    pub expiry: i64,
    pub profile_id: String,
}

/// Redeems a one-time link token (once) for a session token.
#[utoipa::path(post, path = "/api/auth/exchange", tag = "auth", request_body = ExchangeRequest,
    responses((status = 200, body = Session), (status = 401, description = "Expired, used or invalid link", body = crate::error::ErrorBody)))]
pub async fn exchange(State(s): State<AppState>, body: Result<Json<ExchangeRequest>, JsonRejection>) -> ApiResult<Json<Session>> {
    let Json(b) = body?;
    if b.token.trim().is_empty() {
        return Err(ApiError::field(axum::http::StatusCode::UNPROCESSABLE_ENTITY, "A sign-in token is required", "token", "Required"));
    }
    let r = s.clients.auth.clone().exchange_link_token(pb::ExchangeLinkTokenRequest { token: b.token }).await?.into_inner();
    Ok(Json(Session { token: r.token, expiry: r.expiry, profile_id: r.profile_id }))
}
