//! Every `/api/auth` route: sign-in by link or code, registration, exchange, logout, and the
//! staff-only search and impersonation. Rate limits live in the auth service, keyed by address
//! and by the client IP this module passes along.
use crate::error::{ApiError, ApiResult};
use crate::extract::{ClientIp, Path, SignInClient, SignedIn, Staff};
use crate::state::AppState;
use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use portal_proto::auth::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub mod activity;
use activity::{CustomFields, EventData};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(request_link))
        .routes(routes!(magic_link))
        .routes(routes!(exchange))
        .routes(routes!(availability))
        .routes(routes!(email_code))
        .routes(routes!(sms_code))
        .routes(routes!(verify_code))
        .routes(routes!(create))
        .routes(routes!(logout))
        .routes(routes!(undo_email_change))
        .routes(routes!(search_by_id))
        .routes(routes!(impersonate))
}

/// `urlParams` as a query string, whether it came as one or as an object of scalars.
fn query_string(v: Option<serde_json::Value>) -> String {
    match v {
        Some(serde_json::Value::String(s)) => s,
        Some(serde_json::Value::Object(map)) => {
            let mut q = url::form_urlencoded::Serializer::new(String::new());
            for (k, v) in map {
                match v {
                    serde_json::Value::String(s) => q.append_pair(&k, &s),
                    serde_json::Value::Null => continue,
                    other => q.append_pair(&k, &other.to_string()),
                };
            }
            q.finish()
        }
        _ => String::new(),
    }
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
    /// Query parameters for the emailed link: `"a=1&b=2"` or `{"a": "1"}`.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub url_params: Option<serde_json::Value>,
    /// Check-in: a location handle (with mode `visit`).
    #[serde(default)]
    pub location: Option<String>,
    /// `visit` (check-in) or `event`.
    #[serde(default)]
    pub mode: Option<String>,
    /// Event sign-up (with mode `event`): which event.
    #[serde(default)]
    pub event_data: Option<EventData>,
    /// Event sign-up: the answers to the event's custom fields, by name.
    #[serde(default)]
    pub custom_fields: Option<CustomFields>,
}

#[derive(Serialize, ToSchema)]
pub struct Message {
    pub message: String,
}

async fn send_link(s: &AppState, ip: &ClientIp, b: SignInRequest) -> ApiResult<Json<Message>> {
    let r = s
        .clients
        .auth
        .clone()
        .request_magic_link(ip.request(pb::RequestMagicLinkRequest {
            email: b.email,
            redirect: b.redirect.unwrap_or_default(),
            external_redirect: b.external_redirect.unwrap_or_default(),
            iframe: b.i_frame.unwrap_or(false),
            url_path: b.url_path.unwrap_or_default(),
            url_params: query_string(b.url_params),
            location: b.location.unwrap_or_default(),
            mode: b.mode.unwrap_or_default(),
            event_data: b.event_data.map(Into::into),
            custom_fields: activity::to_pb(b.custom_fields),
        }))
        .await?
        .into_inner();
    Ok(Json(Message { message: r.message }))
}

/// Emails a one-time sign-in link. Known and unknown addresses get the same answer. With
/// `mode: visit` and a `location` it is a check-in; with `mode: event` an event attendance;
/// either is recorded when the member signs in with the link.
#[utoipa::path(post, path = "/api/auth", tag = "auth", request_body = SignInRequest,
    responses((status = 200, body = Message), (status = 422, description = "Invalid email", body = crate::error::ErrorBody),
        (status = 429, description = "Too many attempts", body = crate::error::ErrorBody)))]
pub async fn request_link(
    State(s): State<AppState>,
    ip: ClientIp,
    body: Result<Json<SignInRequest>, JsonRejection>,
) -> ApiResult<Json<Message>> {
    let Json(b) = body?;
    send_link(&s, &ip, b).await
}

/// The same as `POST /api/auth`: emails a one-time sign-in link.
#[utoipa::path(post, path = "/api/auth/magicLink", tag = "auth", request_body = SignInRequest,
    responses((status = 200, body = Message), (status = 422, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
pub async fn magic_link(
    State(s): State<AppState>,
    ip: ClientIp,
    body: Result<Json<SignInRequest>, JsonRejection>,
) -> ApiResult<Json<Message>> {
    let Json(b) = body?;
    send_link(&s, &ip, b).await
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
    /// Portal path to open now.
    pub redirect: String,
    /// The check-in or event sign-up the link or code carried, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub activity: Option<Activity>,
}

#[derive(Serialize, ToSchema)]
pub struct Activity {
    /// `visit` (a check-in) or `event` (an event sign-up).
    pub kind: String,
    /// The store's handle or the event's key.
    pub key: String,
    /// The store's name or the event's title.
    pub name: String,
    /// False when it had been recorded already: a second check-in at the store the same local
    /// day, or a second sign-up for the event.
    pub recorded: bool,
}

impl From<pb::SessionToken> for Session {
    fn from(r: pb::SessionToken) -> Self {
        Session {
            token: r.token,
            expiry: r.expiry,
            profile_id: r.profile_id,
            redirect: r.redirect,
            activity: r.activity.map(|a| Activity { kind: a.kind, key: a.key, name: a.name, recorded: a.recorded }),
        }
    }
}

/// Redeems a one-time link token (once) for a session token. Given a session token instead (a
/// native wrapper handing one over in a URL), answers a fresh one and revokes the old.
#[utoipa::path(post, path = "/api/auth/exchange", tag = "auth", request_body = ExchangeRequest,
    responses((status = 200, body = Session), (status = 401, description = "Expired, used or invalid link", body = crate::error::ErrorBody),
        (status = 429, body = crate::error::ErrorBody)))]
pub async fn exchange(
    State(s): State<AppState>,
    ip: SignInClient,
    body: Result<Json<ExchangeRequest>, JsonRejection>,
) -> ApiResult<Json<Session>> {
    let Json(b) = body?;
    if b.token.trim().is_empty() {
        return Err(ApiError::field(StatusCode::UNPROCESSABLE_ENTITY, "A sign-in token is required", "token", "Required"));
    }
    let r = s.clients.auth.clone().exchange_link_token(ip.request(pb::ExchangeLinkTokenRequest { token: b.token })).await?.into_inner();
    Ok(Json(r.into()))
}

#[derive(Deserialize, ToSchema)]
pub struct AvailabilityRequest {
    pub email: String,
}

#[derive(Serialize, ToSchema)]
pub struct Availability {
    /// True for every valid address: whether an address already has an account is told only to
    /// its mailbox (`POST /api/auth/create` emails it a sign-in link instead), never here.
    pub available: bool,
}

/// Whether an address can be used to register. It never tells whether the address has an account.
#[utoipa::path(post, path = "/api/auth/availability", tag = "auth", request_body = AvailabilityRequest,
    responses((status = 200, body = Availability), (status = 422, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
pub async fn availability(
    State(s): State<AppState>,
    ip: ClientIp,
    body: Result<Json<AvailabilityRequest>, JsonRejection>,
) -> ApiResult<Json<Availability>> {
    let Json(b) = body?;
    let r = s.clients.auth.clone().check_availability(ip.request(pb::CheckAvailabilityRequest { email: b.email })).await?.into_inner();
    Ok(Json(Availability { available: r.available }))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CodeRequest {
    pub email: String,
    #[serde(default)]
    pub redirect: Option<String>,
    /// Check-in: a location handle (with mode `visit`).
    #[serde(default)]
    pub location: Option<String>,
    #[serde(default)]
    pub mode: Option<String>,
    /// Event sign-up (with mode `event`): which event.
    #[serde(default)]
    pub event_data: Option<EventData>,
    /// Event sign-up: the answers to the event's custom fields, by name.
    #[serde(default)]
    pub custom_fields: Option<CustomFields>,
}

async fn send_code(s: &AppState, ip: &ClientIp, channel: &str, b: CodeRequest) -> ApiResult<Json<Message>> {
    let r = s
        .clients
        .auth
        .clone()
        .send_code(ip.request(pb::SendCodeRequest {
            email: b.email,
            channel: channel.into(),
            redirect: b.redirect.unwrap_or_default(),
            mode: b.mode.unwrap_or_default(),
            event_data: b.event_data.map(Into::into),
            custom_fields: activity::to_pb(b.custom_fields),
            location: b.location.unwrap_or_default(),
        }))
        .await?
        .into_inner();
    Ok(Json(Message { message: r.message }))
}

/// Emails a one-time 6-digit code (valid 10 minutes, 5 attempts). Same answer for unknown addresses.
#[utoipa::path(post, path = "/api/auth/email", tag = "auth", request_body = CodeRequest,
    responses((status = 200, body = Message), (status = 422, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
pub async fn email_code(
    State(s): State<AppState>,
    ip: ClientIp,
    body: Result<Json<CodeRequest>, JsonRejection>,
) -> ApiResult<Json<Message>> {
    let Json(b) = body?;
    send_code(&s, &ip, "email", b).await
}

/// Texts a one-time 6-digit code to the account's phone. Same answer for unknown addresses and
/// for an account without a phone. Only where the tenant offers it (`components.login.sms`).
#[utoipa::path(post, path = "/api/auth/sms", tag = "auth", request_body = CodeRequest,
    responses((status = 200, body = Message),
        (status = 403, description = "The tenant does not offer sign-in by text message", body = crate::error::ErrorBody),
        (status = 422, body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
pub async fn sms_code(State(s): State<AppState>, ip: ClientIp, body: Result<Json<CodeRequest>, JsonRejection>) -> ApiResult<Json<Message>> {
    let Json(b) = body?;
    send_code(&s, &ip, "sms", b).await
}

#[derive(Deserialize, ToSchema)]
pub struct VerifyRequest {
    pub email: String,
    /// The 6-digit code.
    pub code: String,
}

/// Redeems a code for a session token. The 6th wrong attempt locks the code (429).
#[utoipa::path(post, path = "/api/auth/verify", tag = "auth", request_body = VerifyRequest,
    responses((status = 200, body = Session), (status = 401, body = crate::error::ErrorBody), (status = 422, body = crate::error::ErrorBody),
        (status = 429, body = crate::error::ErrorBody)))]
pub async fn verify_code(
    State(s): State<AppState>,
    ip: SignInClient,
    body: Result<Json<VerifyRequest>, JsonRejection>,
) -> ApiResult<Json<Session>> {
    let Json(b) = body?;
    let r = s.clients.auth.clone().verify_code(ip.request(pb::VerifyCodeRequest { email: b.email, code: b.code })).await?.into_inner();
    Ok(Json(r.into()))
}

#[derive(Deserialize, ToSchema)]
pub struct RegistrationRequest {
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    /// International format (`+61 400 000 000`) or the national format of the tenant's
    /// `general.defaultCountry` (`0400 000 000`); kept in E.164.
    #[serde(default)]
    pub phone: Option<String>,
    /// YYYY-MM-DD.
    #[serde(default)]
    pub birth_date: Option<String>,
    #[serde(default)]
    pub redirect: Option<String>,
}

/// Creates a member account and emails a sign-in link. The answer is the same (202) whether or not
/// the address already has an account: an existing member is emailed a sign-in link instead, a
/// staff address nothing. Field errors depend only on what was sent.
#[utoipa::path(post, path = "/api/auth/create", tag = "auth", request_body = RegistrationRequest,
    responses((status = 202, body = Message),
        (status = 422, description = "Field errors", body = crate::error::ErrorBody), (status = 429, body = crate::error::ErrorBody)))]
pub async fn create(
    State(s): State<AppState>,
    ip: ClientIp,
    body: Result<Json<RegistrationRequest>, JsonRejection>,
) -> ApiResult<(StatusCode, Json<Message>)> {
    let Json(b) = body?;
    let r = s
        .clients
        .auth
        .clone()
        .register(ip.request(pb::RegisterRequest {
            email: b.email,
            first_name: b.first_name,
            last_name: b.last_name,
            phone: b.phone.unwrap_or_default(),
            birth_date: b.birth_date.unwrap_or_default(),
            redirect: b.redirect.unwrap_or_default(),
        }))
        .await?
        .into_inner();
    Ok((StatusCode::ACCEPTED, Json(Message { message: r.message })))
}

/// Ends the caller's session: the token is refused from now on. With an impersonation token,
/// ends the impersonation.
/// A staff user's own sign-out ends every view of a member's account it opened.
#[utoipa::path(post, path = "/api/auth/logout", tag = "auth", security(("bearer" = [])),
    responses((status = 204, description = "Logged out"), (status = 401, body = crate::error::ErrorBody)))]
pub async fn logout(State(s): State<AppState>, SignedIn(m): SignedIn) -> ApiResult<StatusCode> {
    s.clients.auth.clone().logout(m.request(pb::LogoutRequest {})).await?;
    Ok(StatusCode::NO_CONTENT)
}

#[derive(Deserialize, ToSchema)]
pub struct UndoEmailChangeRequest {
    /// The `key` of the link in the notice sent to the old address.
    pub key: String,
}

/// Undoes a change of a member's sign-in address, from the link sent to the old address (within
/// 7 days; no session needed): the old address comes back, every session of the account ends,
/// and the address can't be changed again for 3 days.
#[utoipa::path(post, path = "/api/auth/email-change/undo", tag = "auth", request_body = UndoEmailChangeRequest,
    responses((status = 200, body = Message), (status = 401, description = "The link has expired or was used", body = crate::error::ErrorBody),
        (status = 429, body = crate::error::ErrorBody)))]
pub async fn undo_email_change(
    State(s): State<AppState>,
    ip: ClientIp,
    body: Result<Json<UndoEmailChangeRequest>, JsonRejection>,
) -> ApiResult<Json<Message>> {
    let Json(b) = body?;
    let r = s.clients.auth.clone().undo_email_change(ip.request(pb::UndoEmailChangeRequest { token: b.key })).await?.into_inner();
    Ok(Json(Message { message: r.message }))
}

#[derive(Deserialize, ToSchema)]
pub struct SearchRequest {
    /// `id` or `qff_number` (exact), `email` or `name` (any part, any case), `member_number` or
    /// `phone` (any run of digits; spaces ignored). At most one page (20) of members is answered.
    #[serde(rename = "type")]
    pub kind: String,
    pub id: String,
}

#[derive(Serialize, ToSchema)]
pub struct MemberSummary {
    pub id: String,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
}

#[derive(Serialize, ToSchema)]
pub struct MemberList {
    pub data: Vec<MemberSummary>,
}

/// Staff only: finds members by id, email, name, phone, member number or frequent-flyer number.
#[utoipa::path(post, path = "/api/auth/searchById", tag = "auth", request_body = SearchRequest, security(("bearer" = [])),
    responses((status = 200, body = MemberList), (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody)))]
pub async fn search_by_id(
    State(s): State<AppState>,
    Staff(m): Staff,
    body: Result<Json<SearchRequest>, JsonRejection>,
) -> ApiResult<Json<MemberList>> {
    let Json(b) = body?;
    let r = s.clients.auth.clone().search_members(m.request(pb::SearchMembersRequest { r#type: b.kind, id: b.id })).await?.into_inner();
    let data = r
        .members
        .into_iter()
        .map(|p| MemberSummary { id: p.id, email: p.email, first_name: p.first_name, last_name: p.last_name })
        .collect();
    Ok(Json(MemberList { data }))
}

#[derive(Deserialize, ToSchema, Default)]
#[serde(rename_all = "camelCase")]
pub struct ImpersonateRequest {
    /// If sent, must be the signed-in staff member's own id.
    #[serde(default)]
    pub staff_id: Option<String>,
    /// Why the staff member is viewing the account; shown to the member.
    #[serde(default)]
    pub reason: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct ImpersonatedProfile {
    pub first_name: String,
    pub last_name: String,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Impersonation {
    /// A read-only session token for the member, at most 60 minutes.
    pub token: String,
    pub expiry: i64,
    #[serde(rename = "profile_id")]
    pub profile_id: String,
    pub impersonated_profile: ImpersonatedProfile,
}

/// Staff only: a read-only token for viewing a member's account. Recorded in the member's
/// staff-access list.
#[utoipa::path(post, path = "/api/auth/impersonate/{profileId}", tag = "auth", request_body = Option<ImpersonateRequest>, security(("bearer" = [])),
    params(("profileId" = String, Path, description = "The member's profile id")),
    responses((status = 200, body = Impersonation), (status = 401, body = crate::error::ErrorBody), (status = 403, body = crate::error::ErrorBody),
        (status = 404, body = crate::error::ErrorBody)))]
pub async fn impersonate(
    State(s): State<AppState>,
    Staff(m): Staff,
    Path(profile_id): Path<String>,
    // No body (no JSON content type), or `null`, is fine; a JSON body that doesn't parse is
    // refused in the error shape, not in axum's plain text.
    body: Result<Option<Json<Option<ImpersonateRequest>>>, JsonRejection>,
) -> ApiResult<Json<Impersonation>> {
    let b = body?.and_then(|Json(b)| b).unwrap_or_default();
    let r = s
        .clients
        .auth
        .clone()
        .impersonate(m.request(pb::ImpersonateRequest {
            profile_id,
            staff_id: b.staff_id.unwrap_or_default(),
            reason: b.reason.unwrap_or_default(),
        }))
        .await?
        .into_inner();
    Ok(Json(Impersonation {
        token: r.token,
        expiry: r.expiry,
        profile_id: r.profile_id,
        impersonated_profile: ImpersonatedProfile { first_name: r.first_name, last_name: r.last_name },
    }))
}
