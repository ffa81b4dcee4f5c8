//! The signed-in member's own profile and what hangs off it (its loyalty side is `loyalty`). The
//! profile id always comes from the session token, never from the request.
use crate::error::{ApiError, ApiResult};
use crate::extract::{Member, Path, Query};
use crate::routes::{iso, text_opt};
use crate::state::AppState;
use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use portal_proto::profile::v1 as pb;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_profile, update_profile))
        .routes(routes!(set_custom_attribute))
        .routes(routes!(update_comms))
        .routes(routes!(consent_history))
        .routes(routes!(transactions))
        .routes(routes!(link_list_item))
        .routes(routes!(list_claims, file_claim))
        .routes(routes!(access_log))
}

#[derive(Serialize, ToSchema)]
pub struct Region {
    pub handle: String,
}

#[derive(Serialize, ToSchema)]
pub struct IdentityBody {
    /// `email`, `qff_number` or one of the tenant's `components.profile.identities`.
    pub handle: String,
    pub identifier: String,
}

/// An identity the member links or unlinks themselves.
#[derive(Deserialize, ToSchema)]
pub struct IdentityInput {
    /// One of the tenant's `components.profile.identities` (demo: `loyalty_card`); `email` and
    /// `qff_number` are refused here (422), as is a handle listed twice.
    #[schema(max_length = 32)]
    pub handle: String,
    /// Up to 32 letters, digits and hyphens (spaces are dropped); empty unlinks.
    #[schema(pattern = r"^[A-Za-z0-9-]{0,32}$")]
    pub identifier: String,
}

#[derive(Serialize, ToSchema)]
pub struct Attributes {
    /// Messaging preferences by channel.
    pub comms: BTreeMap<String, bool>,
}

#[derive(Serialize, ToSchema)]
pub struct ProfileBody {
    pub id: String,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    /// International format, e.g. `+61400000001`; empty when unset.
    pub phone: String,
    /// `YYYY-MM-DD`; empty when unset.
    pub birth_date: String,
    pub address: AddressBody,
    pub region: Region,
    pub tier_handle: String,
    pub identities: Vec<IdentityBody>,
    /// Values by namespace then handle, e.g. `locale.language`.
    pub custom_attributes: BTreeMap<String, BTreeMap<String, String>>,
    pub attributes: Attributes,
}

/// A postal address. In a response, `country` is ISO 3166-1 alpha-2 and `state` the
/// subdivision's short code (e.g. `VIC`); empty strings when unset.
#[derive(Serialize, Deserialize, ToSchema, Default)]
#[serde(default)]
pub struct AddressBody {
    /// Required unless every field is empty; up to 100 characters, no control characters.
    #[schema(max_length = 100, pattern = r"^[^\x00-\x1f\x7f-\x9f]*$")]
    pub line1: String,
    #[schema(max_length = 100, pattern = r"^[^\x00-\x1f\x7f-\x9f]*$")]
    pub line2: String,
    /// Required unless every field is empty; up to 60 characters, no control characters.
    #[schema(max_length = 60, pattern = r"^[^\x00-\x1f\x7f-\x9f]*$")]
    pub city: String,
    /// Code (`AU-VIC`), short code (`VIC`) or name (`Victoria`), any case, of a subdivision of
    /// `country`; required for AU, US and CA.
    pub state: String,
    /// AU: 4 digits; US: 5 digits, optionally `-` and 4 more; elsewhere up to 10 letters, digits,
    /// spaces and hyphens. Required unless every field is empty.
    #[schema(max_length = 10, pattern = r"^[A-Za-z0-9 -]*$")]
    pub postcode: String,
    /// iso_2, iso_3 or name, any case, of an ISO 3166-1 country. Required unless every field is empty.
    pub country: String,
}

impl From<pb::Address> for AddressBody {
    fn from(a: pb::Address) -> Self {
        AddressBody { line1: a.line1, line2: a.line2, city: a.city, state: a.state, postcode: a.postcode, country: a.country }
    }
}

impl From<AddressBody> for pb::Address {
    fn from(a: AddressBody) -> Self {
        pb::Address { line1: a.line1, line2: a.line2, city: a.city, state: a.state, postcode: a.postcode, country: a.country }
    }
}

impl From<pb::Profile> for ProfileBody {
    fn from(p: pb::Profile) -> Self {
        let mut custom: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
        for a in p.custom_attributes {
            custom.entry(a.namespace).or_default().insert(a.handle, a.value);
        }
        ProfileBody {
            id: p.id,
            email: p.email,
            first_name: p.first_name,
            last_name: p.last_name,
            phone: p.phone,
            birth_date: p.birth_date,
            address: p.address.unwrap_or_default().into(),
            region: Region { handle: p.region_handle },
            tier_handle: p.tier_handle,
            identities: p.identities.into_iter().map(|i| IdentityBody { handle: i.handle, identifier: i.identifier }).collect(),
            custom_attributes: custom,
            attributes: Attributes { comms: p.comms.into_iter().collect() },
        }
    }
}

/// The caller's own profile.
#[utoipa::path(get, path = "/api/profile", tag = "profile", security(("bearer" = [])),
    responses((status = 200, body = ProfileBody), (status = 401, body = crate::error::ErrorBody)))]
pub async fn get_profile(State(s): State<AppState>, m: Member) -> ApiResult<Json<ProfileBody>> {
    let p = s.clients.profile.clone().get_profile(m.request(pb::GetProfileRequest {})).await?.into_inner();
    Ok(Json(p.into()))
}

/// The member's own fields. Every key is optional; only the keys sent change.
#[derive(Deserialize, ToSchema)]
pub struct ProfileUpdate {
    /// The member's current address, in any case (a form may send every field). A different one
    /// is refused (422 `errors.email`): the address changes only through
    /// `POST /api/profile/email`, confirmed by a code sent to it.
    pub email: Option<crate::routes::email_change::EmailAddress>,
    /// 1 to 50 letters, spaces, hyphens, apostrophes and full stops.
    #[schema(min_length = 1, max_length = 50, pattern = r"^[\p{L}'.’-](?:[\p{L} '.’-]{0,48}[\p{L}'.’-])?$")]
    pub first_name: Option<String>,
    #[schema(min_length = 1, max_length = 50, pattern = r"^[\p{L}'.’-](?:[\p{L} '.’-]{0,48}[\p{L}'.’-])?$")]
    pub last_name: Option<String>,
    /// International format: `+` then 8 to 15 digits (spaces, hyphens and brackets are dropped);
    /// empty removes it.
    #[schema(pattern = r"^[\t\n\x0b\x0c\r ()-]*(?:\+(?:[\t\n\x0b\x0c\r ()-]*[0-9]){8,15}[\t\n\x0b\x0c\r ()-]*)?$")]
    pub phone: Option<String>,
    /// `YYYY-MM-DD`, a real date in the past, at most 120 years ago; empty removes it.
    #[schema(pattern = r"^(?:[0-9]{4}-[0-9]{2}-[0-9]{2})?$")]
    pub birth_date: Option<String>,
    /// Replaces the whole address; all fields empty clears it.
    pub address: Option<AddressBody>,
    /// Identities to link (the tenant's handles, e.g. `qff_number`); an empty identifier unlinks.
    pub identities: Option<Vec<IdentityInput>>,
}

/// Changes the caller's own profile: all of it, or nothing when any field is invalid.
#[utoipa::path(put, path = "/api/profile", tag = "profile", request_body = ProfileUpdate, security(("bearer" = [])),
    responses((status = 200, body = ProfileBody), (status = 401, body = crate::error::ErrorBody),
        (status = 403, description = "Staff viewing the account", body = crate::error::ErrorBody),
        (status = 409, description = "Email used by another account", body = crate::error::ErrorBody),
        (status = 422, description = "Field errors in `errors`", body = crate::error::ErrorBody)))]
pub async fn update_profile(
    State(s): State<AppState>,
    m: Member,
    body: Result<Json<ProfileUpdate>, JsonRejection>,
) -> ApiResult<Json<ProfileBody>> {
    let Json(b) = body?;
    let mut set = Vec::new();
    let mut take = |name: &str, v: Option<String>| {
        if v.is_some() {
            set.push(name.to_string());
        }
        v.unwrap_or_default()
    };
    let mut req = pb::UpdateProfileRequest {
        email: take("email", b.email.map(|e| e.0)),
        first_name: take("first_name", b.first_name),
        last_name: take("last_name", b.last_name),
        phone: take("phone", b.phone),
        birth_date: take("birth_date", b.birth_date),
        ..Default::default()
    };
    if let Some(a) = b.address {
        set.push("address".into());
        req.address = Some(a.into());
    }
    if let Some(ids) = b.identities {
        set.push("identities".into());
        req.identities = ids.into_iter().map(|i| pb::Identity { handle: i.handle, identifier: i.identifier }).collect();
    }
    req.set = set;
    let p = s.clients.profile.clone().update_profile(m.request(req)).await?.into_inner();
    Ok(Json(p.into()))
}

#[derive(Deserialize, ToSchema)]
pub struct AttributeValue {
    /// Empty removes the attribute. `locale:language`: one of en, it, es, fr, ar, de, el, th.
    /// Sizes are JSON text: `{"system":"AU","size":"10","fit":"regular"}` from the tenant's size
    /// chart. `preference:store`: a location handle. At most 1024 bytes of UTF-8 once trimmed
    /// (1024 characters of ASCII).
    #[schema(max_length = 1024)]
    pub value: String,
}

/// Sets one custom attribute, `namespace:handle`: `locale:language`, `size:tops|bottoms|dresses|shoes`,
/// `preference:store`. Other namespaces are refused.
#[utoipa::path(put, path = "/api/profile/attributes/custom/{key}", tag = "profile", request_body = AttributeValue,
    params(("key" = String, Path, description = "`namespace:handle`, e.g. `locale:language`", pattern = r"^[a-z][a-z0-9_]{0,31}:[a-z][a-z0-9_]{0,31}$")), security(("bearer" = [])),
    responses((status = 200, body = ProfileBody), (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody),
        (status = 422, description = "Unknown attribute (`errors.key`) or bad value (`errors.value`)", body = crate::error::ErrorBody)))]
pub async fn set_custom_attribute(
    State(s): State<AppState>,
    m: Member,
    Path(key): Path<String>,
    body: Result<Json<AttributeValue>, JsonRejection>,
) -> ApiResult<Json<ProfileBody>> {
    let Json(b) = body?;
    let (namespace, handle) = key.split_once(':').ok_or_else(|| {
        ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            "Please check the highlighted fields",
            "key",
            "Use namespace:handle, e.g. locale:language",
        )
    })?;
    let req = pb::SetCustomAttributeRequest { namespace: namespace.into(), handle: handle.into(), value: b.value };
    let p = s.clients.profile.clone().set_custom_attribute(m.request(req)).await?.into_inner();
    Ok(Json(p.into()))
}

/// Sets messaging preferences: any subset of the tenant's channels and topics. Each change is
/// kept in the consent history.
#[utoipa::path(put, path = "/api/profile/attributes/comms", tag = "profile", request_body = BTreeMap<String, bool>, security(("bearer" = [])),
    responses((status = 200, body = ProfileBody), (status = 401, body = crate::error::ErrorBody),
        (status = 403, body = crate::error::ErrorBody),
        (status = 422, description = "Unknown preference keys in `errors`", body = crate::error::ErrorBody)))]
pub async fn update_comms(
    State(s): State<AppState>,
    m: Member,
    body: Result<Json<BTreeMap<String, bool>>, JsonRejection>,
) -> ApiResult<Json<ProfileBody>> {
    let Json(comms) = body?;
    let req = pb::UpdateCommsRequest { comms: comms.into_iter().collect() };
    let p = s.clients.profile.clone().update_comms(m.request(req)).await?.into_inner();
    Ok(Json(p.into()))
}

#[derive(Serialize, ToSchema)]
pub struct ConsentRecordBody {
    /// A channel (`email`, `sms`, `push`, `post`) or topic.
    pub channel: String,
    pub value: bool,
    /// `member`, `staff` or `import`.
    pub source: String,
    /// RFC 3339, UTC.
    pub at: String,
}

impl From<pb::ConsentRecord> for ConsentRecordBody {
    fn from(c: pb::ConsentRecord) -> Self {
        ConsentRecordBody { channel: c.channel, value: c.value, source: c.source, at: iso(c.at) }
    }
}

#[derive(Serialize, ToSchema)]
pub struct ConsentHistory {
    pub data: Vec<ConsentRecordBody>,
}

/// Every change of the caller's messaging consent, newest first (at most 200).
#[utoipa::path(get, path = "/api/profile/attributes/comms/history", tag = "profile", security(("bearer" = [])),
    responses((status = 200, body = ConsentHistory), (status = 401, body = crate::error::ErrorBody)))]
pub async fn consent_history(State(s): State<AppState>, m: Member) -> ApiResult<Json<ConsentHistory>> {
    let r = s.clients.profile.clone().list_consent_history(m.request(pb::ListConsentHistoryRequest {})).await?.into_inner();
    let data = r.records.into_iter().map(Into::into).collect();
    Ok(Json(ConsentHistory { data }))
}

#[derive(Deserialize, IntoParams)]
pub struct PageQuery {
    /// 1-based page number (0 is read as 1).
    #[param(value_type = Option<i64>, minimum = 0, maximum = 4294967295_i64)]
    pub page: Option<u32>,
    /// Items per page: 0 is read as 20 (the default), more than 100 as 100.
    #[param(value_type = Option<i64>, minimum = 0, maximum = 4294967295_i64)]
    pub per_page: Option<u32>,
    /// `-transacted_at` (newest first, the default) or `transacted_at`.
    #[param(pattern = "^-?transacted_at$")]
    pub sort: Option<String>,
    /// `product` adds each item's product.
    pub include: Option<String>,
    /// `1` adds each item's linked list item.
    pub include_list_item: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct ProductBody {
    pub id: String,
    pub name: String,
    /// The variant bought (size, colour), if the catalogue has variants; else empty.
    pub variant_id: String,
}

/// The list item a purchased item is linked to (e.g. on a wish list).
#[derive(Serialize, ToSchema)]
pub struct ListItemLinkBody {
    pub id: String,
    pub list_id: String,
    pub connection_id: String,
}

impl From<pb::ListItemLink> for ListItemLinkBody {
    fn from(l: pb::ListItemLink) -> Self {
        ListItemLinkBody { id: l.id, list_id: l.list_id, connection_id: l.connection_id }
    }
}

#[derive(Serialize, ToSchema)]
pub struct TransactionItemBody {
    pub id: String,
    pub name: String,
    pub quantity: i64,
    /// Exact amount in cents (AUD).
    pub amount_cents: i64,
    /// With `include=product`.
    pub product: Option<ProductBody>,
    /// With `include_list_item=1`.
    pub list_item: Option<ListItemLinkBody>,
}

#[derive(Serialize, ToSchema)]
pub struct TransactionBody {
    pub id: String,
    /// RFC 3339, UTC.
    pub transacted_at: String,
    pub store: String,
    /// The store's location handle.
    pub store_handle: String,
    pub receipt_number: String,
    pub total_cents: i64,
    pub currency: String,
    /// Points this purchase earned.
    pub points: i64,
    pub items: Vec<TransactionItemBody>,
}

impl From<pb::Transaction> for TransactionBody {
    fn from(t: pb::Transaction) -> Self {
        TransactionBody {
            id: t.id,
            transacted_at: iso(t.transacted_at),
            store: t.store,
            store_handle: t.store_handle,
            receipt_number: t.receipt_number,
            total_cents: t.total_cents,
            currency: t.currency,
            points: t.points,
            items: t
                .items
                .into_iter()
                .map(|i| TransactionItemBody {
                    id: i.id,
                    name: i.name,
                    quantity: i.quantity,
                    amount_cents: i.amount_cents,
                    product: i.product.map(|p| ProductBody { id: p.id, name: p.name, variant_id: p.variant_id }),
                    list_item: i.list_item.map(Into::into),
                })
                .collect(),
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct PageMeta {
    pub page: u32,
    pub per_page: u32,
    pub total: u64,
}

#[derive(Serialize, ToSchema)]
pub struct TransactionPage {
    pub data: Vec<TransactionBody>,
    pub meta: PageMeta,
}

/// The caller's transactions, newest first, with items and products.
#[utoipa::path(get, path = "/api/profile/transactions", tag = "profile", params(PageQuery), security(("bearer" = [])),
    responses((status = 200, body = TransactionPage), (status = 401, body = crate::error::ErrorBody),
        (status = 422, description = "Unknown `sort` (`errors.sort`)", body = crate::error::ErrorBody)))]
pub async fn transactions(State(s): State<AppState>, m: Member, Query(q): Query<PageQuery>) -> ApiResult<Json<TransactionPage>> {
    let oldest_first = match q.sort.as_deref() {
        None | Some("-transacted_at") => false,
        Some("transacted_at") => true,
        Some(_) => {
            return Err(ApiError::field(
                StatusCode::UNPROCESSABLE_ENTITY,
                "Please check the highlighted fields",
                "sort",
                "Use -transacted_at or transacted_at",
            ))
        }
    };
    let req = pb::ListTransactionsRequest {
        page: q.page.unwrap_or(1),
        per_page: q.per_page.unwrap_or(20),
        oldest_first,
        include_product: q.include.as_deref().is_some_and(|i| i.split(',').any(|x| x.trim() == "product")),
        include_list_item: matches!(q.include_list_item.as_deref(), Some("1" | "true")),
    };
    let r = s.clients.profile.clone().list_transactions(m.request(req)).await?.into_inner();
    let data = r.transactions.into_iter().map(Into::into).collect();
    Ok(Json(TransactionPage { data, meta: PageMeta { page: r.page, per_page: r.per_page, total: r.total } }))
}

#[derive(Deserialize, ToSchema)]
pub struct LinkRequest {
    /// A list item of one of the caller's connections. Absent or empty answers 422 "Invalid Arguments".
    #[schema(value_type = String, required = true, min_length = 1, pattern = r"[^\t\n\x0b\x0c\r ]")]
    pub product_list_item_id: Option<String>,
    /// Only `link`.
    #[serde(rename = "type")]
    #[schema(value_type = String, required = true, pattern = "^link$")]
    pub kind: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct LinkResponse {
    pub data: ListItemLinkBody,
}

/// Links one of the caller's purchased items to one of their list items. A missing list item
/// answers "Invalid Arguments"; any other failure "Error assigning item".
#[utoipa::path(post, path = "/api/profile/transactions/items/{id}/list-item", tag = "profile",
    params(("id" = String, Path, description = "A purchased item's id (`items[].id` of a transaction); blank answers 422 \"Invalid Arguments\"", pattern = r"[^\t\n\x0b\x0c\r ]")),
    request_body = LinkRequest, security(("bearer" = [])),
    responses((status = 200, body = LinkResponse), (status = 404, description = "Not the caller's item", body = crate::error::ErrorBody),
        (status = 422, body = crate::error::ErrorBody)))]
pub async fn link_list_item(
    State(s): State<AppState>,
    m: Member,
    Path(id): Path<String>,
    body: Result<Json<LinkRequest>, JsonRejection>,
) -> ApiResult<Json<LinkResponse>> {
    let Json(b) = body.map_err(|r| {
        let mut e: ApiError = r.into();
        e.message = portal_common::error::catalogue::INVALID_ARGUMENTS.into();
        e
    })?;
    let req = pb::LinkListItemRequest {
        transaction_item_id: id,
        product_list_item_id: b.product_list_item_id.unwrap_or_default(),
        r#type: b.kind.unwrap_or_default(),
    };
    let l = s.clients.profile.clone().link_list_item(m.request(req)).await?.into_inner();
    Ok(Json(LinkResponse { data: l.into() }))
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

#[derive(Serialize, ToSchema)]
pub struct AccessLogEntry {
    /// `start`, `stop` or `attempt`.
    pub action: String,
    pub staff_id: String,
    pub staff_name: String,
    pub reason: String,
    /// RFC 3339, UTC.
    pub at: String,
}

impl From<portal_proto::auth::v1::AccessLogEntry> for AccessLogEntry {
    fn from(e: portal_proto::auth::v1::AccessLogEntry) -> Self {
        AccessLogEntry { action: e.action, staff_id: e.staff_id, staff_name: e.staff_name, reason: e.reason, at: iso(e.at) }
    }
}

#[derive(Serialize, ToSchema)]
pub struct AccessLog {
    pub data: Vec<AccessLogEntry>,
}

/// Staff access to the caller's account (impersonation starts, stops and attempts), newest first.
#[utoipa::path(get, path = "/api/profile/access-log", tag = "profile", security(("bearer" = [])),
    responses((status = 200, body = AccessLog), (status = 401, body = crate::error::ErrorBody)))]
pub async fn access_log(State(s): State<AppState>, m: Member) -> ApiResult<Json<AccessLog>> {
    use portal_proto::auth::v1::ListAccessLogRequest;
    let r = s.clients.auth.clone().list_access_log(m.request(ListAccessLogRequest {})).await?.into_inner();
    let data = r.entries.into_iter().map(Into::into).collect();
    Ok(Json(AccessLog { data }))
}
