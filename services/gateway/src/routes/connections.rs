use crate::error::ApiResult;
use crate::extract::Member;
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use portal_proto::connections::v1 as pb;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list))
}

#[derive(Serialize, ToSchema)]
pub struct Definition {
    pub id: String,
}

#[derive(Serialize, ToSchema)]
pub struct ConnectionBody {
    pub id: String,
    pub definition: Definition,
    pub connector: String,
}

#[derive(Serialize, ToSchema)]
pub struct ConnectionList {
    pub data: Vec<ConnectionBody>,
}

/// The caller's connections (one page of up to 500).
#[utoipa::path(get, path = "/api/connections", tag = "connections", security(("bearer" = [])),
    responses((status = 200, body = ConnectionList), (status = 401, body = crate::error::ErrorBody)))]
pub async fn list(State(s): State<AppState>, m: Member) -> ApiResult<Json<ConnectionList>> {
    let r = s.clients.connections.clone().list_connections(m.request(pb::ListConnectionsRequest { page_size: 500 })).await?.into_inner();
    let data = r
        .connections
        .into_iter()
        .map(|c| ConnectionBody { id: c.id, definition: Definition { id: c.definition_id }, connector: c.connector })
        .collect();
    Ok(Json(ConnectionList { data }))
}
