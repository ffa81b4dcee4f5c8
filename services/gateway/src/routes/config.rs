use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use portal_proto::refdata::v1::GetConfigRequest;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(age)).routes(routes!(config))
}

#[derive(Serialize, ToSchema)]
pub struct Age {
    /// Unix seconds of the last change; the client refetches only when this is newer than its copy.
    pub age: i64,
}

/// When the tenant configuration last changed.
#[utoipa::path(get, path = "/api/config/age", tag = "config", responses((status = 200, body = Age)))]
pub async fn age(State(s): State<AppState>) -> ApiResult<Json<Age>> {
    let r = s.clients.refdata.clone().get_config(GetConfigRequest {}).await?.into_inner();
    Ok(Json(Age { age: r.last_updated }))
}

/// The public tenant configuration. The file may hold more (it is the tenant's), but what the
/// front end relies on is typed here, so the generated front-end types follow it.
#[derive(Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicConfig {
    pub general: GeneralConfig,
    /// Event settings by event key.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub events: serde_json::Map<String, serde_json::Value>,
    /// Component settings, e.g. `index.coverHeader`, `logout.logo`, `qantas.redemption.type`.
    #[serde(default)]
    #[schema(value_type = Object)]
    pub components: serde_json::Map<String, serde_json::Value>,
    /// Display languages offered, from en, it, es, fr, ar, de, el, th.
    #[serde(default)]
    pub languages: Vec<String>,
    /// Unix seconds.
    pub last_updated: i64,
}

#[derive(Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GeneralConfig {
    pub tenant: String,
    #[serde(default)]
    pub site_meta: Option<SiteMeta>,
    #[serde(default)]
    pub style_url: Option<String>,
    #[serde(default)]
    pub public_asset_url: Option<String>,
    #[serde(default)]
    pub background: Option<Background>,
    #[serde(default)]
    pub logo: Option<String>,
    #[serde(default)]
    pub cover_header: Option<CoverHeader>,
    /// Brand colours, applied as CSS custom properties by the shell.
    #[serde(default)]
    pub theme: Option<Theme>,
    /// IANA zone for showing times (default Australia/Melbourne).
    #[serde(default)]
    pub time_zone: Option<String>,
    #[serde(default)]
    pub currency: Option<String>,
    /// Origins, besides the portal's own, that a sign-in link may open (`urlPath`) or send the
    /// member to (`externalRedirect`), e.g. `https://partner.example`.
    #[serde(default)]
    pub allowed_origins: Vec<String>,
}

#[derive(Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SiteMeta {
    pub title: Option<String>,
    pub description: Option<String>,
    pub og_image_url: Option<String>,
    pub url: Option<String>,
}

#[derive(Serialize, Deserialize, ToSchema)]
pub struct Background {
    pub desktop: Option<BackgroundImage>,
    pub color: Option<String>,
}

#[derive(Serialize, Deserialize, ToSchema)]
pub struct BackgroundImage {
    pub url: Option<String>,
}

#[derive(Serialize, Deserialize, ToSchema)]
pub struct CoverHeader {
    pub sticky: Option<bool>,
}

#[derive(Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Theme {
    pub primary: Option<String>,
    pub on_primary: Option<String>,
    pub accent: Option<String>,
    pub background: Option<String>,
    pub surface: Option<String>,
    pub text: Option<String>,
    pub muted: Option<String>,
    pub font_family: Option<String>,
    pub radius: Option<String>,
    pub spacing: Option<String>,
}

/// The tenant configuration, secrets removed.
#[utoipa::path(get, path = "/api/config", tag = "config", responses((status = 200, body = PublicConfig)))]
pub async fn config(State(s): State<AppState>) -> ApiResult<Json<PublicConfig>> {
    let r = s.clients.refdata.clone().get_config(GetConfigRequest {}).await?.into_inner();
    let v = serde_json::from_str(&r.json).map_err(|e| {
        tracing::error!(error = %e, "tenant config does not match the public config shape");
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "An unknown error occurred")
    })?;
    Ok(Json(v))
}
