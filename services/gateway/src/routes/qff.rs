use crate::error::ApiResult;
use crate::extract::Member;
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use portal_proto::qff::v1 as pb;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(points))
}

#[derive(Serialize, ToSchema)]
pub struct QffPoints {
    pub linked: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub qff_number: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub points: Option<i64>,
}

/// The caller's frequent-flyer link and balance.
#[utoipa::path(get, path = "/api/qff/points", tag = "qff", security(("bearer" = [])),
    responses((status = 200, body = QffPoints), (status = 401, body = crate::error::ErrorBody)))]
pub async fn points(State(s): State<AppState>, m: Member) -> ApiResult<Json<QffPoints>> {
    let r = s.clients.qff.clone().get_points(m.request(pb::GetPointsRequest {})).await?.into_inner();
    Ok(Json(if r.linked {
        QffPoints { linked: true, qff_number: Some(r.qff_number), points: Some(r.points) }
    } else {
        QffPoints { linked: false, qff_number: None, points: None }
    }))
}
