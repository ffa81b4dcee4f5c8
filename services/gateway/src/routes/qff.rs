//! The airline frequent-flyer routes (spec section 7, "Airline"): the link checked with the
//! airline, its balance and activity, and converting points, exactly once per
//! `Idempotency-Key`. When the airline is down, the answer is 503 with `Retry-After`.
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{IdempotencyKey, Member, Query, REPLAYED};
use crate::routes::{iso, iso_opt, text_opt, PageMeta};
use crate::state::AppState;
use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use portal_proto::qff::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(points))
        .routes(routes!(validate))
        .routes(routes!(link, unlink))
        .routes(routes!(history))
        .routes(routes!(conversions))
        .routes(routes!(redeem))
}

/// The tenant's conversion rules (`components.qantas.redemption`).
#[derive(Serialize, ToSchema)]
pub struct RedemptionRules {
    /// `points` (conversion on) or `off`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The member's points per block; a conversion is a whole number of blocks.
    pub block_size: i64,
    /// Airline points per block.
    pub airline_points_per_block: i64,
}

#[derive(Serialize, ToSchema)]
pub struct QffPoints {
    pub linked: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qff_number: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub last_name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub linked_at: Option<String>,
    /// The airline balance; null when the airline could not be read (see `partner_error`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<Option<i64>>,
    /// Why `points` is null, for the member.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partner_error: Option<Option<String>>,
    pub redemption: RedemptionRules,
}

impl From<pb::GetPointsResponse> for QffPoints {
    fn from(r: pb::GetPointsResponse) -> Self {
        let rd = r.redemption.unwrap_or_default();
        let redemption = RedemptionRules {
            kind: if rd.r#type.is_empty() { "off".into() } else { rd.r#type },
            block_size: rd.block_size,
            airline_points_per_block: rd.airline_points_per_block,
        };
        if !r.linked {
            return QffPoints {
                linked: false,
                qff_number: None,
                last_name: None,
                linked_at: None,
                points: None,
                partner_error: None,
                redemption,
            };
        }
        QffPoints {
            linked: true,
            qff_number: Some(r.qff_number),
            last_name: Some(r.last_name),
            linked_at: iso_opt(r.linked_at),
            points: Some(r.points),
            partner_error: Some(text_opt(r.partner_error)),
            redemption,
        }
    }
}

/// The caller's frequent-flyer link and airline balance.
#[utoipa::path(get, path = "/api/qff/points", tag = "qff", security(("bearer" = [])),
    responses((status = 200, body = QffPoints), (status = 401, body = ErrorBody)))]
pub async fn points(State(s): State<AppState>, m: Member) -> ApiResult<Json<QffPoints>> {
    let r = s.clients.qff.clone().get_points(m.request(pb::GetPointsRequest {})).await?.into_inner();
    Ok(Json(r.into()))
}

#[derive(Deserialize, ToSchema)]
pub struct CheckRequest {
    /// 6 to 10 digits; spaces are ignored.
    #[schema(pattern = r"^[\t\n\x0b\x0c\r ]*(?:[0-9][\t\n\x0b\x0c\r ]*){6,10}$")]
    pub qff_number: String,
    /// The last name on the airline account, up to 100 characters; the member's own when absent or empty.
    #[serde(default)]
    #[schema(max_length = 100)]
    pub last_name: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct ValidatedMember {
    pub qff_number: String,
    pub first_name: String,
    pub last_name: String,
}

#[derive(Serialize, ToSchema)]
pub struct ValidateResponse {
    pub data: ValidatedMember,
}

/// Checks a frequent-flyer number and last name with the airline; nothing is stored.
#[utoipa::path(post, path = "/api/qff/validate", tag = "qff", request_body = CheckRequest, security(("bearer" = [])),
    responses((status = 200, body = ValidateResponse),
        (status = 401, body = ErrorBody),
        (status = 409, description = "Linked to another member (`errors.qff_number`)", body = ErrorBody),
        (status = 422, description = "Bad or unknown number, closed account (`errors.qff_number`), last name mismatch (`errors.last_name`)", body = ErrorBody),
        (status = 503, description = "The airline isn't answering (`Retry-After`)", body = ErrorBody)))]
pub async fn validate(
    State(s): State<AppState>,
    m: Member,
    body: Result<Json<CheckRequest>, JsonRejection>,
) -> ApiResult<Json<ValidateResponse>> {
    let Json(b) = body?;
    let req = pb::ValidateRequest { qff_number: b.qff_number, last_name: b.last_name.unwrap_or_default() };
    let r = s.clients.qff.clone().validate(m.request(req)).await?.into_inner();
    Ok(Json(ValidateResponse { data: ValidatedMember { qff_number: r.qff_number, first_name: r.first_name, last_name: r.last_name } }))
}

/// Links the frequent-flyer account after the airline checked it: stored on the profile as the
/// identity `qff_number` and the attributes `qantas.qff_joined_at` and `qantas.qff_last_name`.
/// One airline account links to one member only; linking the same number again changes nothing.
#[utoipa::path(post, path = "/api/qff/link", tag = "qff", request_body = CheckRequest, security(("bearer" = [])),
    responses((status = 200, body = QffPoints),
        (status = 401, body = ErrorBody),
        (status = 403, description = "Staff viewing the account", body = ErrorBody),
        (status = 409, description = "Linked to another member, or another number is linked", body = ErrorBody),
        (status = 422, description = "As for validate", body = ErrorBody),
        (status = 503, description = "The airline isn't answering (`Retry-After`)", body = ErrorBody)))]
pub async fn link(State(s): State<AppState>, m: Member, body: Result<Json<CheckRequest>, JsonRejection>) -> ApiResult<Json<QffPoints>> {
    let Json(b) = body?;
    let req = pb::LinkRequest { qff_number: b.qff_number, last_name: b.last_name.unwrap_or_default() };
    Ok(Json(s.clients.qff.clone().link(m.request(req)).await?.into_inner().into()))
}

/// Why the member unlinks.
#[derive(ToSchema)]
#[allow(dead_code)]
#[schema(rename_all = "snake_case")]
pub enum UnlinkReason {
    WrongAccount,
    NotUsing,
    Privacy,
    Other,
}

#[derive(Deserialize, ToSchema)]
pub struct UnlinkRequest {
    #[schema(value_type = UnlinkReason)]
    pub reason: String,
    /// Up to 500 characters.
    #[serde(default)]
    #[schema(max_length = 500)]
    pub comment: Option<String>,
}

/// Unlinks the frequent-flyer account, keeping the reason.
#[utoipa::path(delete, path = "/api/qff/link", tag = "qff", request_body = UnlinkRequest, security(("bearer" = [])),
    responses((status = 200, body = QffPoints),
        (status = 401, body = ErrorBody),
        (status = 403, description = "Staff viewing the account", body = ErrorBody),
        (status = 409, description = "No account is linked", body = ErrorBody),
        (status = 422, description = "Unknown reason (`errors.reason`)", body = ErrorBody)))]
pub async fn unlink(State(s): State<AppState>, m: Member, body: Result<Json<UnlinkRequest>, JsonRejection>) -> ApiResult<Json<QffPoints>> {
    let Json(b) = body?;
    let req = pb::UnlinkRequest { reason: b.reason, comment: b.comment.unwrap_or_default() };
    Ok(Json(s.clients.qff.clone().unlink(m.request(req)).await?.into_inner().into()))
}

#[derive(Deserialize, IntoParams)]
pub struct HistoryQuery {
    /// 1-based page number (0 is read as 1).
    #[param(value_type = Option<i64>, minimum = 0, maximum = 4294967295_i64)]
    pub page: Option<u32>,
    /// Entries per page: 0 is read as 1, more than 100 as 100 (default 20).
    #[param(value_type = Option<i64>, minimum = 0, maximum = 4294967295_i64)]
    pub per_page: Option<u32>,
}

#[derive(Serialize, ToSchema)]
pub struct ActivityBody {
    pub id: String,
    /// `YYYY-MM-DD`.
    pub date: String,
    pub description: String,
    /// Signed: + earned, − used.
    pub points: i64,
    /// `partner`, `flight` or `other`.
    pub category: String,
}

#[derive(Serialize, ToSchema)]
pub struct HistoryPage {
    pub data: Vec<ActivityBody>,
    pub meta: PageMeta,
}

/// The airline account's activity, newest first (the spec reads `body.data`).
#[utoipa::path(get, path = "/api/qff/history", tag = "qff", params(HistoryQuery), security(("bearer" = [])),
    responses((status = 200, body = HistoryPage),
        (status = 401, body = ErrorBody),
        (status = 409, description = "No account is linked", body = ErrorBody),
        (status = 503, description = "The airline isn't answering (`Retry-After`)", body = ErrorBody)))]
pub async fn history(State(s): State<AppState>, m: Member, Query(q): Query<HistoryQuery>) -> ApiResult<Json<HistoryPage>> {
    let (page, per_page) = (q.page.unwrap_or(1).max(1), q.per_page.unwrap_or(20).clamp(1, 100));
    let r = s.clients.qff.clone().list_history(m.request(pb::ListHistoryRequest { page, per_page })).await?.into_inner();
    let data = r
        .data
        .into_iter()
        .map(|a| ActivityBody { id: a.id, date: a.date, description: a.description, points: a.points, category: a.category })
        .collect();
    Ok(Json(HistoryPage { data, meta: PageMeta { page, per_page, total: r.total } }))
}

#[derive(Serialize, ToSchema)]
pub struct ConversionBody {
    pub id: String,
    /// `completed`, `pending` (the airline has not confirmed; the points are held) or `failed`
    /// (the points were given back).
    pub status: String,
    /// The member's points converted.
    pub points: i64,
    pub airline_points: i64,
    pub blocks: i64,
    pub qff_number: String,
    pub created_at: String,
    pub settled_at: Option<String>,
    /// Why it failed, or what pending means.
    pub message: Option<String>,
    /// The member's points just after this answer (on the answer to a conversion).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub balance: Option<i64>,
}

impl ConversionBody {
    pub(crate) fn new(c: pb::Conversion, with_balance: bool) -> Self {
        ConversionBody {
            id: c.id,
            status: c.status,
            points: c.points,
            airline_points: c.airline_points,
            blocks: c.blocks,
            qff_number: c.qff_number,
            created_at: iso(c.created_at),
            settled_at: iso_opt(c.settled_at),
            message: text_opt(c.message),
            balance: with_balance.then_some(c.balance),
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct ConversionList {
    pub data: Vec<ConversionBody>,
}

/// The caller's conversions, newest first (at most 20).
#[utoipa::path(get, path = "/api/qff/conversions", tag = "qff", security(("bearer" = [])),
    responses((status = 200, body = ConversionList), (status = 401, body = ErrorBody)))]
pub async fn conversions(State(s): State<AppState>, m: Member) -> ApiResult<Json<ConversionList>> {
    let r = s.clients.qff.clone().list_conversions(m.request(pb::ListConversionsRequest {})).await?.into_inner();
    Ok(Json(ConversionList { data: r.conversions.into_iter().map(|c| ConversionBody::new(c, false)).collect() }))
}

#[derive(Deserialize, ToSchema)]
pub struct ConvertRequest {
    /// The member's points to convert: a whole number of blocks
    /// (`components.qantas.redemption.blockSize`, demo 1000); another number answers 422 `errors.points`.
    #[schema(minimum = 1, maximum = 9007199254740991_i64)]
    #[serde(deserialize_with = "whole_number")]
    pub points: i64,
}

/// A JSON number that is a whole number, however it is written: `2000` or `2000.0` (JSON
/// Schema's `integer` is a value, not a spelling). A fraction, or a number beyond ±2^53 written
/// as a float, is refused.
fn whole_number<'de, D: serde::Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Number {
        Int(i64),
        Float(f64),
    }
    const EXACT: f64 = 9_007_199_254_740_992.0;
    match Number::deserialize(d)? {
        Number::Int(n) => Ok(n),
        Number::Float(f) if f.fract() == 0.0 && f.abs() <= EXACT => Ok(f as i64),
        Number::Float(f) => Err(serde::de::Error::custom(format!("points: {f} is not a whole number"))),
    }
}

#[derive(Serialize, ToSchema)]
pub struct ConversionResponse {
    pub data: ConversionBody,
}

/// Converts the member's points to airline points, exactly once per `Idempotency-Key`: the
/// points are held, the airline credited with our reference, then the points are spent (or
/// given back when the airline refuses). 200 completed; 202 pending (the airline did not
/// answer in time; settled automatically); 422 failed (refused; points given back). A retry
/// with the same key gets the first answer again (`Idempotent-Replayed: true`).
#[utoipa::path(post, path = "/api/qff/redeem", tag = "qff", request_body = ConvertRequest,
    params(("Idempotency-Key" = String, Header, description = "New for each conversion; repeat it to retry safely",
        min_length = 1, max_length = 255, pattern = "^[!-~]+$")),
    security(("bearer" = [])),
    responses((status = 200, description = "Completed", body = ConversionResponse, headers(("Idempotent-Replayed" = String, description = "`true` on a retry's answer"))),
        (status = 202, description = "Pending: the airline has not confirmed yet", body = ConversionResponse),
        (status = 400, description = "No or a bad `Idempotency-Key` header (`errors.idempotency_key`)", body = ErrorBody),
        (status = 401, body = ErrorBody),
        (status = 403, description = "Staff viewing the account; or the sign-in is older than 15 minutes (`errors.session: reauthenticate`)", body = ErrorBody),
        (status = 409, description = "Not enough points, not linked, conversion off, or the same key is still being processed", body = ErrorBody),
        (status = 422, description = "Not a whole number of blocks (`errors.points`), the key was used for another request, or the airline refused (points given back)", body = ErrorBody),
        (status = 503, description = "The airline isn't answering; nothing was changed (`Retry-After`)", body = ErrorBody)))]
pub async fn redeem(
    State(s): State<AppState>,
    m: Member,
    IdempotencyKey(key): IdempotencyKey,
    body: Result<Json<ConvertRequest>, JsonRejection>,
) -> ApiResult<Response> {
    let Json(b) = body?;
    let c = s.clients.qff.clone().convert(m.request(pb::ConvertRequest { points: b.points, idempotency_key: key })).await?.into_inner();
    let replayed = c.replayed;
    let mut res = match c.status.as_str() {
        "failed" => ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, c.message).into_response(),
        "pending" => (StatusCode::ACCEPTED, Json(ConversionResponse { data: ConversionBody::new(c, true) })).into_response(),
        _ => Json(ConversionResponse { data: ConversionBody::new(c, true) }).into_response(),
    };
    if replayed {
        res.headers_mut().insert(REPLAYED.clone(), HeaderValue::from_static("true"));
    }
    Ok(res)
}
