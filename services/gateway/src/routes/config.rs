use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
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
    /// Events by key (the `m` of `/event/{m}`): what the sign-up page shows and asks.
    #[serde(default)]
    #[schema(value_type = std::collections::HashMap<String, EventConfig>)]
    pub events: serde_json::Map<String, serde_json::Value>,
    /// Component settings: the typed ones below, and others such as `index.coverHeader`,
    /// `logout.logo`, `qantas.redemption.type`.
    #[serde(default)]
    pub components: Components,
    /// Display languages offered, from en, it, es, fr, ar, de, el, th.
    #[serde(default)]
    pub languages: Vec<String>,
    /// Unix seconds.
    pub last_updated: i64,
}

#[derive(Serialize, Deserialize, ToSchema, Default)]
pub struct Components {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<ProfileComponent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claims: Option<ClaimsComponent>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connections: Option<ConnectionsComponent>,
    /// Every other component's settings, as the tenant wrote them.
    #[serde(flatten)]
    pub other: std::collections::BTreeMap<String, serde_json::Value>,
}

/// The profile tab's rules (`components.profile`).
#[derive(Serialize, Deserialize, ToSchema)]
pub struct ProfileComponent {
    /// Identity handles a member may link, e.g. `qff_number`.
    #[serde(default)]
    pub identities: Vec<String>,
    #[serde(default)]
    pub comms: CommsComponent,
    /// Size chart by garment (`tops`, `bottoms`, `dresses`, `shoes`); keys arrive sorted.
    #[serde(default)]
    pub sizes: std::collections::BTreeMap<String, SizeChart>,
}

#[derive(Serialize, Deserialize, ToSchema, Default)]
pub struct CommsComponent {
    /// e.g. `email`, `sms`, `push`, `post`
    #[serde(default)]
    pub channels: Vec<String>,
    /// e.g. `offers`, `news`, `events`
    #[serde(default)]
    pub topics: Vec<String>,
}

#[derive(Serialize, Deserialize, ToSchema)]
pub struct SizeChart {
    /// Sizes by system (`AU`, `US`, `EU`), index-aligned across systems.
    pub systems: std::collections::BTreeMap<String, Vec<String>>,
    pub fits: Vec<String>,
    /// Show a chosen size in the other systems too (same index).
    #[serde(default)]
    pub convertible: bool,
}

/// Claims for purchases that were not credited (`components.claims`).
#[derive(Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClaimsComponent {
    /// How many days back a purchase may be claimed.
    pub window_days: i64,
    pub points_per_dollar: i64,
    /// Claims a member may have waiting at once (the service's default, 5, when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_pending: Option<i64>,
    /// Claims a member may file in any 24 hours (default 10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_per_day: Option<i64>,
}

/// The kinds of connection a member may create (`components.connections`).
#[derive(Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionsComponent {
    pub definitions: Vec<ConnectionDefinition>,
    /// Lists one connection may hold (default 20).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_lists_per_connection: Option<i64>,
    /// Items one list may hold (default 200).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_items_per_list: Option<i64>,
}

#[derive(Serialize, Deserialize, ToSchema)]
pub struct ConnectionDefinition {
    pub id: String,
    pub connector: String,
    #[serde(default)]
    pub name: String,
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

/// A text shown to members: one for every language, or one per language code (`en` is the
/// fallback).
#[derive(Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum LocalText {
    One(String),
    ByLanguage(std::collections::HashMap<String, String>),
}

/// An event members can sign up for (the document's own shape, passed through as written).
#[derive(Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventConfig {
    pub title: LocalText,
    #[serde(default)]
    pub description: Option<LocalText>,
    /// The handle of the store it takes place at.
    #[serde(default)]
    pub location: Option<String>,
    /// RFC 3339.
    #[serde(default)]
    pub starts_at: Option<String>,
    /// RFC 3339; after it, sign-ups are refused.
    #[serde(default)]
    pub ends_at: Option<String>,
    /// The sign-up fields, in order; checked on the server (`customFields.<name>` errors).
    #[serde(default)]
    pub custom_fields: Vec<EventField>,
}

#[derive(Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventField {
    pub name: String,
    /// `text`, `email`, `select`, `checkbox` or `date` (YYYY-MM-DD).
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default)]
    pub label: Option<LocalText>,
    #[serde(default)]
    pub required: bool,
    /// `select`: the values, or `{value, label}`.
    #[serde(default)]
    pub options: Vec<EventOption>,
    /// `text`: at most this many characters (500 at most).
    #[serde(default)]
    pub max_length: Option<u32>,
}

#[derive(Serialize, Deserialize, ToSchema)]
#[serde(untagged)]
pub enum EventOption {
    Value(String),
    Labelled { value: String, label: LocalText },
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
pub async fn config(State(s): State<AppState>) -> ApiResult<Response> {
    let r = s.clients.refdata.clone().get_config(GetConfigRequest {}).await?.into_inner();
    let body = s.tenant.public_body::<PublicConfig>(&r.json).map_err(|e| {
        tracing::error!(error = %e, "tenant config does not match the public config shape");
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "An unknown error occurred")
    })?;
    Ok(([(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))], body).into_response())
}

/// Checks at start-up that the tenant file fits the public shape `/api/config` answers with,
/// naming the field when it does not: the typed config accepts a few files this shape refuses (a
/// `claims` section without `windowDays`), which would otherwise be a 500 on the first
/// `/api/config`.
pub fn check_public_shape(path: &std::path::Path) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(path)?;
    let mut doc: serde_json::Value = serde_json::from_str(&text)?;
    if doc.get("lastUpdated").is_none() {
        // The refdata service adds it (the file's modification time).
        doc["lastUpdated"] = 0.into();
    }
    serde_path_to_error::deserialize::<_, PublicConfig>(doc).map(drop).map_err(|e| {
        anyhow::anyhow!("tenant config {}: {}: {} (in the shape /api/config answers with)", path.display(), e.path(), e.inner())
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_public_shape_is_checked_naming_the_field() {
        let repo = concat!(env!("CARGO_MANIFEST_DIR"), "/../../config/tenant.json");
        super::check_public_shape(std::path::Path::new(repo)).unwrap();
        let path = std::env::temp_dir().join(format!("tenant-shape-{}.json", std::process::id()));
        std::fs::write(&path, r#"{"general": {"tenant": "demo"}, "components": {"claims": {"maxPending": 2}}}"#).unwrap();
        let e = super::check_public_shape(&path).unwrap_err().to_string();
        let _ = std::fs::remove_file(&path);
        assert!(e.contains("components.claims: missing field `windowDays`"), "{e}");
    }
}
