use crate::error::{ApiError, ApiResult};
use crate::state::AppState;
use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use portal_proto::refdata::v1::GetConfigRequest;
use serde::Serialize;
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

/// The tenant configuration, secrets removed.
#[utoipa::path(get, path = "/api/config", tag = "config", responses((status = 200, description = "The config object: general, events, components, languages, lastUpdated", body = Object)))]
pub async fn config(State(s): State<AppState>) -> ApiResult<Json<serde_json::Value>> {
    let r = s.clients.refdata.clone().get_config(GetConfigRequest {}).await?.into_inner();
    let v = serde_json::from_str(&r.json).map_err(|_| ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "An unknown error occurred"))?;
    Ok(Json(v))
}
