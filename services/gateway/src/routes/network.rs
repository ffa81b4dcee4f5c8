use crate::state::AppState;
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(available))
}

#[derive(Serialize, ToSchema)]
pub struct NetworkAvailable {
    pub available: bool,
}

/// Reachability probe the front end polls every 3 s.
#[utoipa::path(get, path = "/api/network/available", tag = "network", responses((status = 200, body = NetworkAvailable)))]
pub async fn available() -> Json<NetworkAvailable> {
    Json(NetworkAvailable { available: true })
}
