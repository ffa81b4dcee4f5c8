//! `/api/profile/email`: changing the member's sign-in address, a code to the new address first.
//! The member's own (`Owner`): staff viewing the account and staff sessions are refused. The
//! undo link the old address receives is `POST /api/auth/email-change/undo` (no session).
use crate::error::ApiResult;
use crate::extract::{ClientIp, Owner};
use crate::state::AppState;
use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use portal_proto::auth::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(start)).routes(routes!(confirm))
}

/// An email address as `portal_common::email::Email::parse` takes it, in any case, at most 254
/// characters: the parser's rule as a pattern (`portal_common::email::PATTERN`), which the
/// contract test holds to the parser.
#[derive(Deserialize)]
#[serde(transparent)]
pub struct EmailAddress(pub String);

impl utoipa::PartialSchema for EmailAddress {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, Type};
        ObjectBuilder::new().schema_type(Type::String).max_length(Some(254)).pattern(Some(portal_common::email::PATTERN)).into()
    }
}

impl ToSchema for EmailAddress {}

#[derive(Deserialize, ToSchema)]
pub struct NewEmail {
    /// The new address; not the current one (422 `errors.email`).
    pub email: EmailAddress,
}

#[derive(Serialize, ToSchema)]
pub struct EmailCodeSent {
    pub message: String,
    /// The new address, masked: `n***@example.com`.
    pub email: String,
}

/// Starts changing the caller's sign-in address: a 6-digit code goes to the new address (valid
/// 10 minutes); nothing changes until it is confirmed. Needs a sign-in (link or code) within the
/// last 15 minutes. The answer is the same whether or not the address belongs to someone.
#[utoipa::path(post, path = "/api/profile/email", tag = "profile", request_body = NewEmail, security(("bearer" = [])),
    responses((status = 202, body = EmailCodeSent), (status = 401, body = crate::error::ErrorBody),
        (status = 403, description = "Staff; or the sign-in is older than 15 minutes (`errors.session: reauthenticate`); or changes are locked after an undo", body = crate::error::ErrorBody),
        (status = 422, description = "Not a valid address, or already the caller's (`errors.email`)", body = crate::error::ErrorBody),
        (status = 429, body = crate::error::ErrorBody)))]
pub async fn start(
    State(s): State<AppState>,
    Owner(m): Owner,
    ip: ClientIp,
    body: Result<Json<NewEmail>, JsonRejection>,
) -> ApiResult<(StatusCode, Json<EmailCodeSent>)> {
    let Json(b) = body?;
    let mut req = m.request(pb::StartEmailChangeRequest { email: b.email.0 });
    ip.tag(&mut req);
    let r = s.clients.auth.clone().start_email_change(req).await?.into_inner();
    Ok((StatusCode::ACCEPTED, Json(EmailCodeSent { message: r.message, email: r.email })))
}

#[derive(Deserialize, ToSchema)]
pub struct EmailCode {
    /// The 6-digit code sent to the new address.
    #[schema(pattern = "^[0-9]{6}$")]
    pub code: String,
}

#[derive(Serialize, ToSchema)]
pub struct EmailChanged {
    /// The caller's sign-in address now.
    pub email: String,
    /// How many of the caller's other sessions were signed out.
    pub signed_out: u32,
}

/// Confirms the new address with its code: it becomes the sign-in address at once, the old
/// address is told (with a link to undo the change for 7 days), and every other session ends.
#[utoipa::path(post, path = "/api/profile/email/verify", tag = "profile", request_body = EmailCode, security(("bearer" = [])),
    responses((status = 200, body = EmailChanged), (status = 401, body = crate::error::ErrorBody),
        (status = 403, description = "Staff; or the sign-in is older than 15 minutes (`errors.session: reauthenticate`)", body = crate::error::ErrorBody),
        (status = 422, description = "Wrong or expired code (`errors.code`); the address was taken meanwhile (`errors.email`)", body = crate::error::ErrorBody),
        (status = 429, description = "Too many attempts; the 6th wrong code locks it", body = crate::error::ErrorBody)))]
pub async fn confirm(
    State(s): State<AppState>,
    Owner(m): Owner,
    ip: ClientIp,
    body: Result<Json<EmailCode>, JsonRejection>,
) -> ApiResult<Json<EmailChanged>> {
    let Json(b) = body?;
    let mut req = m.request(pb::ConfirmEmailChangeRequest { code: b.code });
    ip.tag(&mut req);
    let r = s.clients.auth.clone().confirm_email_change(req).await?.into_inner();
    Ok(Json(EmailChanged { email: r.email, signed_out: r.signed_out }))
}
