//! `/api/activity`: a signed-in member's check-in at a store or sign-up to an event in one tap
//! (no email to confirm), and the member's existing sign-up for an event. The member's own:
//! a staff view sees, never acts (403). Signed out, the email path of `/api/auth` is unchanged.
use super::auth::activity::{self, CustomFields, EventData};
use super::auth::Activity;
use crate::error::ApiResult;
use crate::extract::{Member, Path};
use crate::state::AppState;
use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::Json;
use portal_proto::auth::v1 as pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(visit)).routes(routes!(event)).routes(routes!(sign_up))
}

#[derive(Deserialize, ToSchema)]
pub struct VisitRequest {
    /// The store's handle (the `{handle}` of `/loc/{handle}`); a handle no store has is refused
    /// with 422 (`errors.location`).
    #[schema(min_length = 1, pattern = r"\S")]
    pub location: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventRequest {
    pub event_data: EventData,
    /// The answers to the event's custom fields, by name.
    #[serde(default)]
    pub custom_fields: Option<CustomFields>,
}

#[derive(Serialize, ToSchema)]
pub struct EventSignUp {
    /// Whether the caller is signed up for the event.
    pub signed_up: bool,
    /// The answers kept with the sign-up (empty when not signed up).
    pub custom_fields: CustomFields,
    /// When it was recorded (Unix seconds); 0 when not signed up.
    pub at: i64,
}

fn answer(a: pb::Activity) -> Json<Activity> {
    Json(Activity { kind: a.kind, key: a.key, name: a.name, recorded: a.recorded })
}

/// Checks the caller in at a store, at once. Once per store per local day (the store's time
/// zone): a repeat answers `recorded: false`.
#[utoipa::path(post, path = "/api/activity/visit", tag = "auth", request_body = VisitRequest, security(("bearer" = [])),
    responses((status = 200, body = Activity), (status = 401, body = crate::error::ErrorBody),
        (status = 403, description = "A staff view of the account, or a staff user's own session", body = crate::error::ErrorBody),
        (status = 422, description = "No such store (`errors.location`)", body = crate::error::ErrorBody)))]
pub async fn visit(State(s): State<AppState>, m: Member, body: Result<Json<VisitRequest>, JsonRejection>) -> ApiResult<Json<Activity>> {
    let Json(b) = body?;
    let req = m.request(pb::RecordActivityRequest { mode: "visit".into(), location: b.location, ..Default::default() });
    Ok(answer(s.clients.auth.clone().record_activity(req).await?.into_inner()))
}

/// Signs the caller up to an event, at once, with the same checks as the email path (the event
/// exists and is not over; the answers match its fields). Once per event: a repeat answers
/// `recorded: false` and keeps the first answers.
#[utoipa::path(post, path = "/api/activity/event", tag = "auth", request_body = EventRequest, security(("bearer" = [])),
    responses((status = 200, body = Activity), (status = 401, body = crate::error::ErrorBody),
        (status = 403, description = "A staff view of the account, or a staff user's own session", body = crate::error::ErrorBody),
        (status = 422, description = "No such event, it is over (`errors.eventData.m`), or an answer is wrong (`errors.customFields.<name>`)", body = crate::error::ErrorBody)))]
pub async fn event(State(s): State<AppState>, m: Member, body: Result<Json<EventRequest>, JsonRejection>) -> ApiResult<Json<Activity>> {
    let Json(b) = body?;
    let req = m.request(pb::RecordActivityRequest {
        mode: "event".into(),
        event_data: Some(b.event_data.into()),
        custom_fields: activity::to_pb(b.custom_fields),
        ..Default::default()
    });
    Ok(answer(s.clients.auth.clone().record_activity(req).await?.into_inner()))
}

/// The caller's sign-up for event `m`, with their answers.
#[utoipa::path(get, path = "/api/activity/event/{m}", tag = "auth", security(("bearer" = [])),
    params(("m" = String, Path, description = "The event's key")),
    responses((status = 200, body = EventSignUp), (status = 401, body = crate::error::ErrorBody)))]
pub async fn sign_up(State(s): State<AppState>, m: Member, Path(key): Path<String>) -> ApiResult<Json<EventSignUp>> {
    let r = s.clients.auth.clone().get_event_sign_up(m.request(pb::GetEventSignUpRequest { event: key })).await?.into_inner();
    Ok(Json(EventSignUp { signed_up: r.signed_up, custom_fields: r.custom_fields.map(activity::from_pb).unwrap_or_default(), at: r.at }))
}
