//! `/api/config` and `/api/config/age`. The public configuration is made of the tenant file's own
//! types (`portal_tenant`, which derive `ToSchema` beside `JsonSchema`), so the OpenAPI document
//! and the front end's types generated from it follow the tenant crate: a field added there is
//! typed in the shell after `make api-types`. [`PublicConfig`] says which parts members may see;
//! the secrets (`secrets`, `components.qantas.apiKey`) are not among them.
use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use portal_proto::refdata::v1::GetConfigRequest;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
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

/// The public tenant configuration: the tenant file's parts members may see, in the tenant's own
/// types (`portal_tenant`).
#[derive(Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicConfig {
    pub general: portal_tenant::General,
    /// Events by key (the `m` of `/event/{m}`): what the sign-up page shows and asks.
    #[serde(default)]
    pub events: BTreeMap<String, portal_tenant::Event>,
    #[serde(default)]
    pub components: Components,
    /// Display languages offered, from en, it, es, fr, ar, de, el, th.
    #[serde(default)]
    pub languages: Vec<String>,
    /// Unix seconds.
    pub last_updated: i64,
}

/// Component settings, each there when the tenant file has it: a component left out is not
/// offered (no `qantas`: no airline link).
#[derive(Serialize, Deserialize, ToSchema, Default)]
pub struct Components {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<portal_tenant::Profile>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claims: Option<portal_tenant::Claims>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub connections: Option<portal_tenant::Connections>,
    /// The sign-in page's settings, as the tenant wrote them: `coverHeader`, an image URL or
    /// `{url | imageUrl, alt}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<serde_json::Value>,
    /// The Logged out screen's settings, as the tenant wrote them: `logo`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logout: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loyalty: Option<portal_tenant::Loyalty>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub qantas: Option<QantasComponent>,
    /// The sign-in page: `sms` offers a code by text message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub login: Option<portal_tenant::Login>,
}

/// The airline partner (`components.qantas`), without its key.
#[derive(Serialize, Deserialize, ToSchema)]
pub struct QantasComponent {
    #[serde(default)]
    pub redemption: portal_tenant::Redemption,
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

#[cfg(test)]
mod tests {
    use super::PublicConfig;
    use serde_json::{json, Value};

    const REPO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../config/tenant.json");

    /// `/api/config`'s body for a tenant document as the refdata service passes it on.
    fn public(doc: &Value) -> Value {
        let v: PublicConfig = serde_json::from_value(doc.clone()).unwrap();
        serde_json::to_value(v).unwrap()
    }

    /// Whatever file the tenant crate accepts, the public shape takes as it is (it is made of the
    /// same types), so a file that loads at start-up never fails `/api/config` later.
    #[test]
    fn every_loadable_file_has_a_public_body_without_secrets() {
        let mut repo: Value = serde_json::from_str(&std::fs::read_to_string(REPO).unwrap()).unwrap();
        repo["lastUpdated"] = json!(1);
        let small = json!({"general": {"tenant": "demo"}, "lastUpdated": 1});
        // A component with only some of its fields: the tenant's defaults fill the rest.
        let partial = json!({"general": {"tenant": "demo"}, "components": {"claims": {"maxPending": 2}}, "lastUpdated": 1});
        for doc in [&repo, &small, &partial] {
            portal_tenant::Tenant::from_json(&doc.to_string()).unwrap();
            let body = public(doc).to_string();
            assert!(!body.contains("apiKey") && !body.contains("secrets"), "{body}");
        }
        let p = public(&partial);
        assert_eq!(p["components"]["claims"], json!({"windowDays": 30, "pointsPerDollar": 1, "maxPending": 2, "maxPerDay": 10}));
    }

    /// What members see of the repository's file: the parts the front end reads, typed, and a
    /// component the tenant left out stays out (no `qantas`: no airline link offered).
    #[test]
    fn the_public_body_keeps_what_the_front_end_reads() {
        let mut repo: Value = serde_json::from_str(&std::fs::read_to_string(REPO).unwrap()).unwrap();
        repo["lastUpdated"] = json!(7);
        let p = public(&repo);
        assert_eq!(p["general"]["tenant"], "demo");
        assert_eq!(p["general"]["timeZone"], "Australia/Melbourne");
        assert_eq!(p["components"]["qantas"], json!({"redemption": repo["components"]["qantas"]["redemption"]}));
        assert_eq!(p["components"]["profile"]["identities"], json!(["loyalty_card"]));
        assert_eq!(p["components"]["login"], json!({"sms": true}));
        assert_eq!(p["components"]["connections"]["productUrl"], repo["components"]["connections"]["productUrl"]);
        assert_eq!(p["components"]["connections"]["variantUrl"], repo["components"]["connections"]["variantUrl"]);
        assert_eq!(p["components"]["index"], repo["components"]["index"]);
        assert_eq!(p["events"]["spring-launch"]["title"], repo["events"]["spring-launch"]["title"]);
        assert_eq!(p["languages"], repo["languages"]);
        assert_eq!(p["lastUpdated"], 7);
        assert!(p.get("secrets").is_none());

        let small = public(&json!({"general": {"tenant": "demo"}, "lastUpdated": 1}));
        assert_eq!(small["components"], json!({}));
        assert_eq!(small["events"], json!({}));
    }
}
