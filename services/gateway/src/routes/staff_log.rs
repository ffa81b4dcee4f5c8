//! The staff access log a member sees: each time staff started, stopped or tried to view their
//! account (impersonation), as the auth service records it. Staff's own routes are in `auth`.
use crate::error::ApiResult;
use crate::extract::Member;
use crate::routes::iso;
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(access_log))
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
