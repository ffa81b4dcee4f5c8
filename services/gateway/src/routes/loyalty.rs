//! The member's loyalty: points balance and ledger, points expiring next, tiers and progress,
//! rewards (issued, the catalogue, redemption); their offers are `offers`. The profile id always
//! comes from the session token; a redemption needs an `Idempotency-Key` header and happens once
//! per key. Each text the tenant writes (a tier's, a reward's, a catalogue item's name, a ledger
//! entry's reason) comes in its default language with the item's `translations` beside it
//! (`portal_tenant::Phrasebook`): the browser shows the member's language.
use crate::error::{ApiError, ApiResult};
use crate::extract::{IdempotencyKey, Member, Path, Query, REPLAYED};
use crate::routes::{iso, iso_opt, numeric_id, text_opt};
use crate::state::AppState;
use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use portal_proto::profile::v1 as pb;
use portal_tenant::Phrasebook;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(balances))
        .routes(routes!(points))
        .routes(routes!(expiring))
        .routes(routes!(tiers))
        .routes(routes!(tier_progress))
        .routes(routes!(rewards))
        .routes(routes!(catalogue))
        .routes(routes!(reward))
        .routes(routes!(redeem))
}

#[derive(Serialize, ToSchema)]
pub struct BalancesBody {
    pub points: i64,
    pub currency: String,
}

#[derive(Serialize, ToSchema)]
pub struct BalancesResponse {
    pub data: BalancesBody,
}

/// The caller's points balance: the sum of their ledger, after any points due to expire have.
#[utoipa::path(get, path = "/api/profile/balances", tag = "loyalty", security(("bearer" = [])),
    responses((status = 200, body = BalancesResponse), (status = 401, body = crate::error::ErrorBody)))]
pub async fn balances(State(s): State<AppState>, m: Member) -> ApiResult<Json<BalancesResponse>> {
    let r = s.clients.loyalty.clone().get_balances(m.request(pb::GetBalancesRequest {})).await?.into_inner();
    Ok(Json(BalancesResponse { data: BalancesBody { points: r.points, currency: r.currency } }))
}

#[derive(Deserialize, IntoParams)]
pub struct PointsQuery {
    /// `issued_at` (oldest first, the default) or `-issued_at` (newest first).
    #[param(pattern = "^-?issued_at$")]
    pub sort: Option<String>,
    /// 1-based page number (0 is read as 1).
    #[param(value_type = Option<i64>, minimum = 0, maximum = 4294967295_i64)]
    pub page: Option<u32>,
    /// Entries per page: 0 is read as 20 (the default), more than 100 as 100.
    #[param(value_type = Option<i64>, minimum = 0, maximum = 4294967295_i64)]
    pub per_page: Option<u32>,
}

#[derive(Serialize, ToSchema)]
pub struct PointsBody {
    pub id: String,
    /// Signed: + earn, − spend or expire, either for adjust.
    pub points: i64,
    /// `earn`, `spend`, `expire` or `adjust`.
    pub kind: String,
    /// `purchase`, `claim`, `bonus`, `redemption`, `conversion`, `expiry`, `staff` or `import`.
    pub source: String,
    /// A detail to show after the source: a store, a reward, a bonus, a note; may be empty.
    pub reason: String,
    /// `reason` in other languages: language → `reason` → text; a language left out shows `reason`.
    pub translations: BTreeMap<String, BTreeMap<String, String>>,
    /// The operation that posted it; unique.
    pub reference: String,
    pub issued_at: String,
    /// When a credit's points expire; null for debits and points that never expire.
    pub expires_at: Option<String>,
}

/// As held (the data export): no translations.
impl From<pb::PointsEntry> for PointsBody {
    fn from(e: pb::PointsEntry) -> Self {
        PointsBody::new(e, &Phrasebook::default())
    }
}

impl PointsBody {
    fn new(e: pb::PointsEntry, book: &Phrasebook) -> Self {
        PointsBody {
            translations: book.fields(&[("reason", e.reason.as_str())]),
            id: e.id,
            points: e.points,
            kind: e.kind,
            source: e.source,
            reason: e.reason,
            reference: e.reference,
            issued_at: iso(e.issued_at),
            expires_at: iso_opt(e.expires_at),
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct PointsPage {
    pub data: Vec<PointsBody>,
    pub meta: crate::routes::PageMeta,
}

/// The caller's points ledger, one page, sorted by `issued_at`.
#[utoipa::path(get, path = "/api/profile/points", tag = "loyalty", params(PointsQuery), security(("bearer" = [])),
    responses((status = 200, body = PointsPage), (status = 401, body = crate::error::ErrorBody),
        (status = 422, description = "Unknown sort (`errors.sort`)", body = crate::error::ErrorBody)))]
pub async fn points(State(s): State<AppState>, m: Member, Query(q): Query<PointsQuery>) -> ApiResult<Json<PointsPage>> {
    let newest_first = match q.sort.as_deref() {
        None | Some("issued_at") => false,
        Some("-issued_at") => true,
        Some(_) => {
            return Err(ApiError::field(
                StatusCode::UNPROCESSABLE_ENTITY,
                "Please check the highlighted fields",
                "sort",
                "Use issued_at or -issued_at",
            ))
        }
    };
    let req = pb::ListPointsRequest { page: q.page.unwrap_or(1), per_page: q.per_page.unwrap_or(20), newest_first };
    let r = s.clients.loyalty.clone().list_points(m.request(req)).await?.into_inner();
    let book = s.tenant.phrasebook(s.clients.refdata.clone()).await;
    let data = r.entries.into_iter().map(|e| PointsBody::new(e, &book)).collect();
    Ok(Json(PointsPage { data, meta: crate::routes::PageMeta { page: r.page, per_page: r.per_page, total: r.total } }))
}

#[derive(Serialize, ToSchema)]
pub struct ExpiringBody {
    pub points: i64,
    /// The day, `YYYY-MM-DD` in the tenant's zone.
    pub date: String,
    /// The first moment that day when points expire.
    pub expires_at: String,
}

#[derive(Serialize, ToSchema)]
pub struct ExpiringList {
    pub data: Vec<ExpiringBody>,
}

/// The next (at most three) days on which some of the caller's points expire, soonest first.
#[utoipa::path(get, path = "/api/profile/points/expiring", tag = "loyalty", security(("bearer" = [])),
    responses((status = 200, body = ExpiringList), (status = 401, body = crate::error::ErrorBody)))]
pub async fn expiring(State(s): State<AppState>, m: Member) -> ApiResult<Json<ExpiringList>> {
    let r = s.clients.loyalty.clone().list_expiring(m.request(pb::ListExpiringRequest {})).await?.into_inner();
    let data = r.expiring.into_iter().map(|e| ExpiringBody { points: e.points, date: e.date, expires_at: iso(e.expires_at) }).collect();
    Ok(Json(ExpiringList { data }))
}

#[derive(Serialize, ToSchema)]
pub struct TierBody {
    pub handle: String,
    pub name: String,
    /// `name` in other languages: language → `name` → text; a language left out shows `name`.
    pub translations: BTreeMap<String, BTreeMap<String, String>>,
    /// Points, or cents when tiers are measured by spend.
    pub threshold: i64,
    /// The caller's tier.
    pub current: bool,
}

#[derive(Serialize, ToSchema)]
pub struct TierList {
    pub data: Vec<TierBody>,
}

impl TierBody {
    fn new(t: pb::Tier, book: &Phrasebook) -> Self {
        TierBody {
            translations: book.fields(&[("name", t.name.as_str())]),
            handle: t.handle,
            name: t.name,
            threshold: t.threshold,
            current: t.current,
        }
    }
}

/// The tenant's tiers, lowest first, the caller's own marked `current`.
#[utoipa::path(get, path = "/api/profile/tiers", tag = "loyalty", security(("bearer" = [])),
    responses((status = 200, body = TierList), (status = 401, body = crate::error::ErrorBody)))]
pub async fn tiers(State(s): State<AppState>, m: Member) -> ApiResult<Json<TierList>> {
    let r = s.clients.loyalty.clone().list_tiers(m.request(pb::ListTiersRequest {})).await?.into_inner();
    let book = s.tenant.phrasebook(s.clients.refdata.clone()).await;
    Ok(Json(TierList { data: r.tiers.into_iter().map(|t| TierBody::new(t, &book)).collect() }))
}

#[derive(Serialize, ToSchema)]
pub struct TierRef {
    pub handle: String,
    pub name: String,
    /// `name` in other languages: language → `name` → text; a language left out shows `name`.
    pub translations: BTreeMap<String, BTreeMap<String, String>>,
    pub threshold: i64,
}

#[derive(Serialize, ToSchema)]
pub struct TierProgressBody {
    /// `points` (earned in the window) or `spend` (cents spent in the window).
    pub measure: String,
    pub window_days: i64,
    /// What counts towards the tier in the window: points, or cents.
    pub qualifying: i64,
    pub current: TierRef,
    /// Null at the top tier.
    pub next: Option<TierRef>,
    /// How much more reaches `next`; 0 at the top tier.
    pub needed: i64,
    /// 0–100, from the current tier's threshold to the next one's; 100 at the top.
    pub progress_percent: i64,
    /// When the current tier is lost if nothing more is earned; null for the lowest tier.
    pub kept_until: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct TierProgressResponse {
    pub data: TierProgressBody,
}

fn tier_ref(t: pb::Tier, book: &Phrasebook) -> TierRef {
    TierRef { translations: book.fields(&[("name", t.name.as_str())]), handle: t.handle, name: t.name, threshold: t.threshold }
}

/// The caller's tier, what the next one needs, and until when the current one is kept.
#[utoipa::path(get, path = "/api/profile/tiers/progress", tag = "loyalty", security(("bearer" = [])),
    responses((status = 200, body = TierProgressResponse), (status = 401, body = crate::error::ErrorBody),
        (status = 404, description = "The programme has no tiers", body = crate::error::ErrorBody)))]
pub async fn tier_progress(State(s): State<AppState>, m: Member) -> ApiResult<Json<TierProgressResponse>> {
    let r = s.clients.loyalty.clone().get_tier_progress(m.request(pb::GetTierProgressRequest {})).await?.into_inner();
    let book = s.tenant.phrasebook(s.clients.refdata.clone()).await;
    Ok(Json(TierProgressResponse {
        data: TierProgressBody {
            measure: r.measure,
            window_days: r.window_days,
            qualifying: r.qualifying,
            current: tier_ref(r.current.unwrap_or_default(), &book),
            next: r.next.map(|t| tier_ref(t, &book)),
            needed: r.needed,
            progress_percent: r.progress_percent,
            kept_until: iso_opt(r.kept_until),
        },
    }))
}

#[derive(Serialize, ToSchema)]
pub struct RewardBody {
    /// A whole number below 2^53.
    pub id: i64,
    pub name: String,
    pub description: String,
    pub terms: String,
    /// `name`, `description` and `terms` in other languages: language → field → text; a language
    /// or field left out shows the default above.
    pub translations: BTreeMap<String, BTreeMap<String, String>>,
    /// Points paid for it (0 for a gift).
    pub points_cost: i64,
    /// `gift` or `redemption`.
    pub source: String,
    /// The catalogue item it was redeemed for.
    pub catalogue_id: Option<String>,
    /// The voucher code the till scans.
    pub code: Option<String>,
    /// `available`, `used` or `expired`.
    pub status: String,
    pub issued_at: String,
    /// Null: no end.
    pub expires_at: Option<String>,
    pub used_at: Option<String>,
}

/// As held (the data export): no translations.
impl From<pb::Reward> for RewardBody {
    fn from(w: pb::Reward) -> Self {
        RewardBody::new(w, &Phrasebook::default())
    }
}

impl RewardBody {
    fn new(w: pb::Reward, book: &Phrasebook) -> Self {
        RewardBody {
            translations: book.fields(&[("name", w.name.as_str()), ("description", w.description.as_str()), ("terms", w.terms.as_str())]),
            id: w.id,
            name: w.name,
            description: w.description,
            terms: w.terms,
            points_cost: w.points_cost,
            source: w.source,
            catalogue_id: text_opt(w.catalogue_id),
            code: text_opt(w.code),
            status: w.status,
            issued_at: iso(w.issued_at),
            expires_at: iso_opt(w.expires_at),
            used_at: iso_opt(w.used_at),
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct RewardList {
    pub data: Vec<RewardBody>,
}

#[derive(Serialize, ToSchema)]
pub struct RewardResponse {
    pub data: RewardBody,
}

#[derive(Deserialize, IntoParams)]
pub struct RewardsQuery {
    /// The spec's `filter[issued_at][lte]=now`: accepted; the server always applies it.
    #[serde(rename = "filter[issued_at][lte]")]
    #[param(rename = "filter[issued_at][lte]")]
    pub issued_before: Option<String>,
}

/// The caller's rewards issued up to now (never one issued for later), newest first.
#[utoipa::path(get, path = "/api/profile/rewards", tag = "loyalty", params(RewardsQuery), security(("bearer" = [])),
    responses((status = 200, body = RewardList), (status = 401, body = crate::error::ErrorBody)))]
pub async fn rewards(State(s): State<AppState>, m: Member, Query(_q): Query<RewardsQuery>) -> ApiResult<Json<RewardList>> {
    let r = s.clients.loyalty.clone().list_rewards(m.request(pb::ListRewardsRequest {})).await?.into_inner();
    let book = s.tenant.phrasebook(s.clients.refdata.clone()).await;
    Ok(Json(RewardList { data: r.rewards.into_iter().map(|w| RewardBody::new(w, &book)).collect() }))
}

/// One of the caller's rewards.
#[utoipa::path(get, path = "/api/profile/rewards/{id}", tag = "loyalty", params(("id" = i64, Path, description = "A reward id: a whole number; anything else answers 404", minimum = 1)),
    security(("bearer" = [])),
    responses((status = 200, body = RewardResponse), (status = 401, body = crate::error::ErrorBody),
        (status = 404, description = "Not one of the caller's rewards", body = crate::error::ErrorBody)))]
pub async fn reward(State(s): State<AppState>, m: Member, Path(id): Path<String>) -> ApiResult<Json<RewardResponse>> {
    let id = numeric_id(&id, "We couldn't find that reward")?;
    let r = s.clients.loyalty.clone().get_reward(m.request(pb::GetRewardRequest { id })).await?.into_inner();
    let book = s.tenant.phrasebook(s.clients.refdata.clone()).await;
    Ok(Json(RewardResponse { data: RewardBody::new(r, &book) }))
}

#[derive(Serialize, ToSchema)]
pub struct CatalogueItemBody {
    pub id: String,
    pub name: String,
    pub description: String,
    pub terms: String,
    /// `name`, `description` and `terms` in other languages: language → field → text; a language
    /// or field left out shows the default above.
    pub translations: BTreeMap<String, BTreeMap<String, String>>,
    pub points: i64,
    /// How long the voucher is valid after redemption; 0: no end.
    pub valid_days: i64,
    /// The caller's balance pays for it.
    pub affordable: bool,
    /// How many more points the caller needs; 0 when affordable.
    pub points_needed: i64,
}

#[derive(Serialize, ToSchema)]
pub struct Catalogue {
    pub data: Vec<CatalogueItemBody>,
}

/// The tenant's catalogue of rewards to redeem points for, cheapest first.
#[utoipa::path(get, path = "/api/profile/rewards/catalogue", tag = "loyalty", security(("bearer" = [])),
    responses((status = 200, body = Catalogue), (status = 401, body = crate::error::ErrorBody)))]
pub async fn catalogue(State(s): State<AppState>, m: Member) -> ApiResult<Json<Catalogue>> {
    let r = s.clients.loyalty.clone().list_catalogue(m.request(pb::ListCatalogueRequest {})).await?.into_inner();
    let book = s.tenant.phrasebook(s.clients.refdata.clone()).await;
    let data = r
        .items
        .into_iter()
        .map(|c| CatalogueItemBody {
            translations: book.fields(&[("name", c.name.as_str()), ("description", c.description.as_str()), ("terms", c.terms.as_str())]),
            id: c.id,
            name: c.name,
            description: c.description,
            terms: c.terms,
            points: c.points,
            valid_days: c.valid_days,
            affordable: c.affordable,
            points_needed: c.points_needed,
        })
        .collect();
    Ok(Json(Catalogue { data }))
}

#[derive(Deserialize, ToSchema)]
pub struct RedeemRequest {
    /// A catalogue item's id (`GET /api/profile/rewards/catalogue`); another answers 422 `errors.catalogue_id`.
    #[schema(min_length = 1)]
    pub catalogue_id: String,
}

#[derive(Serialize, ToSchema)]
pub struct RedemptionBody {
    /// The voucher issued.
    pub reward: RewardBody,
    pub points_spent: i64,
    /// The balance right after this redemption.
    pub balance: i64,
}

#[derive(Serialize, ToSchema)]
pub struct RedemptionResponse {
    pub data: RedemptionBody,
}

/// Redeems points for a catalogue reward: the points are debited and the voucher issued in one
/// step, exactly once per `Idempotency-Key`. A retry with the same key and body gets the first
/// answer again (`Idempotent-Replayed: true`); the same key with another body is refused.
#[utoipa::path(post, path = "/api/profile/rewards/redeem", tag = "loyalty", request_body = RedeemRequest,
    params(("Idempotency-Key" = String, Header, description = "New for each redemption; repeat it to retry safely",
        min_length = 1, max_length = 255, pattern = "^[!-~]+$")),
    security(("bearer" = [])),
    responses((status = 201, body = RedemptionResponse, headers(("Idempotent-Replayed" = String, description = "`true` on a retry's answer"))),
        (status = 400, description = "No or a bad `Idempotency-Key` header (`errors.idempotency_key`)", body = crate::error::ErrorBody),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, description = "Staff viewing the account", body = crate::error::ErrorBody),
        (status = 409, description = "Not enough points", body = crate::error::ErrorBody),
        (status = 422, description = "Unknown `catalogue_id`, or the key was used for another request", body = crate::error::ErrorBody)))]
pub async fn redeem(
    State(s): State<AppState>,
    m: Member,
    IdempotencyKey(key): IdempotencyKey,
    body: Result<Json<RedeemRequest>, JsonRejection>,
) -> ApiResult<Response> {
    let Json(b) = body?;
    let req = pb::RedeemRequest { catalogue_id: b.catalogue_id, idempotency_key: key };
    let r = s.clients.loyalty.clone().redeem(m.request(req)).await?.into_inner();
    let replayed = r.replayed;
    let book = s.tenant.phrasebook(s.clients.refdata.clone()).await;
    let data =
        RedemptionBody { reward: RewardBody::new(r.reward.unwrap_or_default(), &book), points_spent: r.points_spent, balance: r.balance };
    let mut res = (StatusCode::CREATED, Json(RedemptionResponse { data })).into_response();
    if replayed {
        res.headers_mut().insert(REPLAYED.clone(), HeaderValue::from_static("true"));
    }
    Ok(res)
}
