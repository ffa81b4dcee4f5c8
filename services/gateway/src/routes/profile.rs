//! The signed-in member's own profile: their details, custom attributes and messaging consent
//! (their orders are `orders`, claims `claims`, loyalty `loyalty`). The profile id always comes
//! from the session token, never from the request.
use crate::error::{ApiError, ApiResult};
use crate::extract::{Member, Path};
use crate::routes::iso;
use crate::state::AppState;
use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use portal_proto::profile::v1 as pb;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_profile, update_profile))
        .routes(routes!(set_custom_attribute))
        .routes(routes!(update_comms))
        .routes(routes!(consent_history))
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
    /// The internal id: for the API's own use, never shown to the member.
    pub id: String,
    /// The brand-issued member number the member sees and the card's barcode encodes: ten digits,
    /// the last a Luhn check digit.
    #[serde(rename = "memberNumber")]
    #[schema(pattern = r"^[0-9]{10}$", example = "1234567890")]
    pub member_number: String,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    /// E.164, e.g. `+61400000001`; empty when unset.
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
            member_number: p.member_number,
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
    /// In international format (`+61 400 000 001`) or in the national format of the member's
    /// country (`0400 000 001`): the address's country, else the profile's region, else the
    /// tenant's `general.defaultCountry`. Kept and answered in E.164 (`+61400000001`). A number
    /// that can't be one of that country's (or, with `+`, of any country's) is refused (422
    /// `errors.phone`); empty removes it.
    #[schema(max_length = 40, pattern = r"^[\t\n\x0b\x0c\r 0-9+().-]*$")]
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
