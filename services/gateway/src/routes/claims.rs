//! Claims for purchases that were not credited (the spec's "Claim Transaction"): filing one and
//! listing the member's own. Matching, quotas and the claim window are the profile service's
//! rules; this module only carries them over REST.
use crate::error::ApiResult;
use crate::extract::Member;
use crate::routes::{iso, text_opt};
use crate::state::AppState;
use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use portal_proto::profile::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_claims, file_claim))
}

#[derive(Deserialize, ToSchema)]
pub struct ClaimRequest {
    /// A location handle (see `GET /api/geolocation`).
    #[schema(min_length = 1)]
    pub store: String,
    /// The purchase's date in the tenant's zone, `YYYY-MM-DD`: not in the future, and within the
    /// claim window (`components.claims.windowDays`, demo 30 days).
    #[schema(pattern = r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")]
    pub date: String,
    /// Letters, digits and hyphens as printed, at most 32.
    #[schema(pattern = r"^[A-Za-z0-9-]{1,32}$")]
    pub receipt_number: String,
    /// Dollars as a decimal string greater than 0: at most 7 whole digits and 2 decimals, e.g.
    /// `59.95`; a leading `$` and thousands separators are allowed (`$1,200.05`).
    #[schema(pattern = r"^\$*(?=[^1-9]*[1-9])(?:,*[0-9]){0,7},*(?:\.(?:,*[0-9]){0,2},*)?$")]
    pub amount: String,
}

#[derive(Serialize, ToSchema)]
pub struct ClaimBody {
    pub id: String,
    pub store: String,
    pub store_name: String,
    pub date: String,
    pub receipt_number: String,
    pub amount_cents: i64,
    /// `credited`, `pending` or `rejected`.
    pub status: String,
    /// Points issued (credited claims).
    pub points: i64,
    /// The purchase on the member's account, once credited.
    pub transaction_id: Option<String>,
    pub message: String,
    pub created_at: String,
    pub updated_at: String,
}

impl From<pb::Claim> for ClaimBody {
    fn from(c: pb::Claim) -> Self {
        ClaimBody {
            id: c.id,
            store: c.store,
            store_name: c.store_name,
            date: c.date,
            receipt_number: c.receipt_number,
            amount_cents: c.amount_cents,
            status: c.status,
            points: c.points,
            transaction_id: text_opt(c.transaction_id),
            message: c.message,
            created_at: iso(c.created_at),
            updated_at: iso(c.updated_at),
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct ClaimResponse {
    pub data: ClaimBody,
}

#[derive(Serialize, ToSchema)]
pub struct ClaimList {
    pub data: Vec<ClaimBody>,
}

/// Claims a purchase that was not credited. A match with the store's record (receipt, date and
/// amount, a sale on nobody's account) is credited at once; anything else is `pending`, with the
/// same answer whether the receipt exists, is someone else's or has other details, and is matched
/// again whenever the member lists their claims. A member has one claim per receipt; nobody
/// else's claim stands in their way. Quotas (`components.claims`): `maxPending` claims waiting at
/// once (422, no field), `maxPerDay` claims in any 24 hours (429).
#[utoipa::path(post, path = "/api/profile/claims", tag = "profile", request_body = ClaimRequest, security(("bearer" = [])),
    responses((status = 201, body = ClaimResponse), (status = 401, body = crate::error::ErrorBody),
        (status = 409, description = "The receipt is already the caller's: a claim of theirs, or the sale on their account (`errors.receipt_number`)", body = crate::error::ErrorBody),
        (status = 422, description = "Field errors in `errors`; or, with no field, too many claims waiting to be checked", body = crate::error::ErrorBody),
        (status = 429, description = "Too many claims in the last 24 hours; try again after `Retry-After` seconds", body = crate::error::ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds until another claim is allowed")))))]
pub async fn file_claim(
    State(s): State<AppState>,
    m: Member,
    body: Result<Json<ClaimRequest>, JsonRejection>,
) -> ApiResult<(StatusCode, Json<ClaimResponse>)> {
    let Json(b) = body?;
    let req = pb::FileClaimRequest { store: b.store, date: b.date, receipt_number: b.receipt_number, amount: b.amount };
    let c = s.clients.profile.clone().file_claim(m.request(req)).await?.into_inner();
    Ok((StatusCode::CREATED, Json(ClaimResponse { data: c.into() })))
}

/// The caller's claims, newest first.
#[utoipa::path(get, path = "/api/profile/claims", tag = "profile", security(("bearer" = [])),
    responses((status = 200, body = ClaimList), (status = 401, body = crate::error::ErrorBody)))]
pub async fn list_claims(State(s): State<AppState>, m: Member) -> ApiResult<Json<ClaimList>> {
    let r = s.clients.profile.clone().list_claims(m.request(pb::ListClaimsRequest {})).await?.into_inner();
    Ok(Json(ClaimList { data: r.claims.into_iter().map(Into::into).collect() }))
}
