//! The member's offers (benefits): their current ones, activating one, and the tenant's offer
//! definitions with the portal text overrides the spec allows. The profile id always comes from
//! the session token. An offer's texts come in the default language with its `translations`
//! beside them (`portal_tenant::Phrasebook`): the browser shows the member's language.
use crate::error::{ApiError, ApiResult};
use crate::extract::{Member, Path};
use crate::routes::{iso, iso_opt, numeric_id, text_opt};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use portal_proto::profile::v1 as pb;
use portal_tenant::Phrasebook;
use serde::Serialize;
use std::collections::BTreeMap;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(benefits)).routes(routes!(activate_benefit)).routes(routes!(benefit_definition))
}

#[derive(Serialize, ToSchema)]
pub struct BenefitBody {
    pub id: i64,
    pub definition_id: Option<i64>,
    /// The definition's `title` override where the rule applies, else the offer's own name.
    pub name: String,
    pub description: String,
    pub banner_desktop: Option<String>,
    pub banner_mobile: Option<String>,
    /// `name`, `description`, `banner_desktop` and `banner_mobile` in other languages: language →
    /// field → text; a language or field left out shows the default above.
    pub translations: BTreeMap<String, BTreeMap<String, String>>,
    pub ends_at: String,
    /// The member activates it to use it.
    pub is_claimable: bool,
    pub activated: bool,
    pub activated_at: Option<String>,
}

/// As held (the data export): no translations.
impl From<pb::Benefit> for BenefitBody {
    fn from(b: pb::Benefit) -> Self {
        BenefitBody::new(b, &Phrasebook::default())
    }
}

impl BenefitBody {
    fn new(b: pb::Benefit, book: &Phrasebook) -> Self {
        let fields = [
            ("name", &b.name),
            ("description", &b.description),
            ("banner_desktop", &b.banner_desktop),
            ("banner_mobile", &b.banner_mobile),
        ];
        BenefitBody {
            translations: book.fields(&fields.map(|(f, t)| (f, t.as_str()))),
            id: b.id,
            definition_id: Some(b.definition_id).filter(|d| *d != 0),
            name: b.name,
            description: b.description,
            banner_desktop: text_opt(b.banner_desktop),
            banner_mobile: text_opt(b.banner_mobile),
            ends_at: iso(b.ends_at),
            is_claimable: b.is_claimable,
            activated: b.activated_at != 0,
            activated_at: iso_opt(b.activated_at),
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct BenefitList {
    pub data: Vec<BenefitBody>,
}

#[derive(Serialize, ToSchema)]
pub struct BenefitResponse {
    pub data: BenefitBody,
}

/// The caller's current offers, ending soonest first, with the definitions' text overrides
/// applied where the spec's rule allows (meta, published and claimable).
#[utoipa::path(get, path = "/api/profile/benefits", tag = "loyalty", security(("bearer" = [])),
    responses((status = 200, body = BenefitList), (status = 401, body = crate::error::ErrorBody)))]
pub async fn benefits(State(s): State<AppState>, m: Member) -> ApiResult<Json<BenefitList>> {
    let r = s.clients.loyalty.clone().list_benefits(m.request(pb::ListBenefitsRequest {})).await?.into_inner();
    let book = s.tenant.phrasebook(s.clients.refdata.clone()).await;
    Ok(Json(BenefitList { data: r.benefits.into_iter().map(|b| BenefitBody::new(b, &book)).collect() }))
}

/// Activates one of the caller's claimable offers. Activating again changes nothing and answers
/// the same activated offer.
#[utoipa::path(post, path = "/api/profile/benefits/{id}/activate", tag = "loyalty", params(("id" = i64, Path, description = "An offer id: a whole number; anything else answers 404", minimum = 1)), security(("bearer" = [])),
    responses((status = 200, body = BenefitResponse), (status = 401, body = crate::error::ErrorBody),
        (status = 403, description = "Staff viewing the account", body = crate::error::ErrorBody),
        (status = 404, description = "Not one of the caller's offers", body = crate::error::ErrorBody),
        (status = 409, description = "Not claimable, or ended", body = crate::error::ErrorBody)))]
pub async fn activate_benefit(State(s): State<AppState>, m: Member, Path(id): Path<String>) -> ApiResult<Json<BenefitResponse>> {
    let id = numeric_id(&id, "We couldn't find that offer")?;
    let r = s.clients.loyalty.clone().activate_benefit(m.request(pb::ActivateBenefitRequest { id })).await?.into_inner();
    let book = s.tenant.phrasebook(s.clients.refdata.clone()).await;
    Ok(Json(BenefitResponse { data: BenefitBody::new(r, &book) }))
}

#[derive(Serialize, ToSchema)]
pub struct BenefitDefinitionBody {
    pub id: i64,
    pub name: String,
    pub description: String,
    /// Portal text overrides by key under `profileportal` (e.g. `title`, `banner_desktop`);
    /// they apply only if the definition is published and claimable.
    #[schema(value_type = Option<Object>)]
    pub meta: Option<serde_json::Value>,
    pub is_published: bool,
    pub is_claimable: bool,
    pub ends_at: Option<String>,
}

/// One of the tenant's offer definitions, as stored (the body itself, no `data` wrapper).
#[utoipa::path(get, path = "/api/benefits/definitions/{id}", tag = "loyalty", params(("id" = i64, Path, description = "A definition id: a whole number; anything else answers 404", minimum = 1)), security(("bearer" = [])),
    responses((status = 200, body = BenefitDefinitionBody), (status = 401, body = crate::error::ErrorBody),
        (status = 404, body = crate::error::ErrorBody)))]
pub async fn benefit_definition(State(s): State<AppState>, m: Member, Path(id): Path<String>) -> ApiResult<Json<BenefitDefinitionBody>> {
    let id = numeric_id(&id, "We couldn't find that offer")?;
    let d = s.clients.loyalty.clone().get_benefit_definition(m.request(pb::GetBenefitDefinitionRequest { id })).await?.into_inner();
    let meta = if d.meta_json.is_empty() {
        None
    } else {
        Some(serde_json::from_str(&d.meta_json).map_err(|e| {
            tracing::error!(error = %e, "benefit definition meta is not JSON");
            ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "An unknown error occurred")
        })?)
    };
    Ok(Json(BenefitDefinitionBody {
        id: d.id,
        name: d.name,
        description: d.description,
        meta,
        is_published: d.is_published,
        is_claimable: d.is_claimable,
        ends_at: iso_opt(d.ends_at),
    }))
}
