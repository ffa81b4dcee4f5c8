//! `/api/privacy`: the member's privacy centre. My sessions (list them by device, sign a device
//! or one session out, sign out the others), Download my data (each service's part over gRPC, assembled here), Delete my account
//! (a deletion code, then each service erases its own data over gRPC). Every route is the
//! member's own: staff viewing the account are refused (`Owner`), reads included.
//!
//! Deletion is driven from here, one service after another, the auth service last (it revokes
//! the sessions, the calling one at the very end). Each service's erasure is safe to repeat, and
//! a confirmed code stays valid for an hour until the auth service has finished, so when a step
//! fails (a service down: 503) the member can send the same request again and it carries on.
use crate::error::{ApiError, ApiResult};
use crate::extract::{ClientIp, Owner, Path};
use crate::routes::auth::activity::{self, CustomFields, EventData};
use crate::routes::claims::ClaimBody;
use crate::routes::connections::{ConnectionBody, ListBody};
use crate::routes::loyalty::{PointsBody, RewardBody};
use crate::routes::offers::BenefitBody;
use crate::routes::orders::TransactionBody;
use crate::routes::profile::{ConsentRecordBody, ProfileBody};
use crate::routes::qff::ConversionBody;
use crate::routes::staff_log::AccessLogEntry;
use crate::routes::{iso, iso_opt, text_opt};
use crate::state::AppState;
use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use portal_proto::auth::v1 as auth_pb;
use portal_proto::connections::v1 as connections_pb;
use portal_proto::profile::v1 as profile_pb;
use portal_proto::qff::v1 as qff_pb;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(sessions))
        .routes(routes!(revoke_session))
        .routes(routes!(revoke_device))
        .routes(routes!(revoke_others))
        .routes(routes!(export))
        .routes(routes!(deletion_code))
        .routes(routes!(delete_account))
}

/// A signed-in device.
#[derive(Serialize, ToSchema)]
pub struct SessionBody {
    /// The session's token id (`ses_…`).
    pub id: String,
    /// The session making this request.
    pub current: bool,
    pub signed_in_at: String,
    /// When it was last used, to the minute.
    pub last_seen_at: Option<String>,
    pub expires_at: String,
    /// e.g. `Chrome 131`, from the User-Agent at sign-in.
    pub browser: Option<String>,
    /// e.g. `Android 14`.
    pub os: Option<String>,
    /// `mobile`, `tablet` or `desktop`.
    pub device: Option<String>,
    /// Approximate, e.g. `Melbourne, Australia`, from the sign-in address when a GeoIP database
    /// is configured (`PORTAL_GEOIP_DB`).
    pub place: Option<String>,
    /// The sign-in address, truncated: IPv4 with the last octet 0, IPv6 to its /48.
    pub ip: Option<String>,
}

impl From<auth_pb::Session> for SessionBody {
    fn from(s: auth_pb::Session) -> Self {
        SessionBody {
            id: s.id,
            current: s.current,
            signed_in_at: iso(s.signed_in_at),
            last_seen_at: iso_opt(s.last_seen_at),
            expires_at: iso(s.expires_at),
            browser: text_opt(s.browser),
            os: text_opt(s.os),
            device: text_opt(s.device),
            place: text_opt(s.place),
            ip: text_opt(s.ip),
        }
    }
}

/// A staff member viewing the member's account (read-only) right now.
#[derive(Serialize, ToSchema)]
pub struct StaffViewBody {
    /// End it with `DELETE /api/privacy/sessions/{id}`.
    pub id: String,
    pub staff_name: String,
    pub started_at: String,
    pub last_seen_at: Option<String>,
    pub expires_at: String,
}

impl From<auth_pb::StaffView> for StaffViewBody {
    fn from(v: auth_pb::StaffView) -> Self {
        StaffViewBody {
            id: v.id,
            staff_name: v.staff_name,
            started_at: iso(v.started_at),
            last_seen_at: iso_opt(v.last_seen_at),
            expires_at: iso(v.expires_at),
        }
    }
}

/// One device's live sessions: a row of "My sessions" however often it signed in.
#[derive(Serialize, ToSchema)]
pub struct DeviceBody {
    /// Sign the device out with `DELETE /api/privacy/devices/{key}`.
    pub key: String,
    /// The device making this request.
    pub current: bool,
    /// How many live sessions it holds.
    pub sign_ins: u32,
    /// Its newest sign-in.
    pub signed_in_at: String,
    /// When it was last used, to the minute.
    pub last_seen_at: Option<String>,
    /// As on its newest session: e.g. `Chrome 131`.
    pub browser: Option<String>,
    pub os: Option<String>,
    /// `mobile`, `tablet` or `desktop`.
    pub device: Option<String>,
    pub place: Option<String>,
    /// Its sessions' ids, newest sign-in first.
    pub session_ids: Vec<String>,
}

impl From<auth_pb::DeviceSessions> for DeviceBody {
    fn from(d: auth_pb::DeviceSessions) -> Self {
        DeviceBody {
            key: d.key,
            current: d.current,
            sign_ins: d.sign_ins,
            signed_in_at: iso(d.signed_in_at),
            last_seen_at: iso_opt(d.last_seen_at),
            browser: text_opt(d.browser),
            os: text_opt(d.os),
            device: text_opt(d.device),
            place: text_opt(d.place),
            session_ids: d.session_ids,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct SessionList {
    pub sessions: Vec<SessionBody>,
    /// The same sessions grouped by device (browser, system and kind of device, whatever their
    /// versions): the current device first, then the most recently used.
    pub devices: Vec<DeviceBody>,
    /// Staff viewing the account now; each ends when the member ends it, when the staff member
    /// signs out, or after at most 60 minutes.
    pub staff_views: Vec<StaffViewBody>,
}

/// The caller's signed-in devices (sessions neither expired, idle nor signed out), newest sign-in
/// first, and the staff viewing their account now.
#[utoipa::path(get, path = "/api/privacy/sessions", tag = "privacy", security(("bearer" = [])),
    responses((status = 200, body = SessionList), (status = 401, body = crate::error::ErrorBody),
        (status = 403, description = "Staff viewing an account cannot use the privacy centre", body = crate::error::ErrorBody)))]
pub async fn sessions(State(s): State<AppState>, Owner(m): Owner) -> ApiResult<Json<SessionList>> {
    let r = s.clients.auth.clone().list_sessions(m.request(auth_pb::ListSessionsRequest {})).await?.into_inner();
    Ok(Json(SessionList {
        sessions: r.sessions.into_iter().map(Into::into).collect(),
        devices: r.devices.into_iter().map(Into::into).collect(),
        staff_views: r.staff_views.into_iter().map(Into::into).collect(),
    }))
}

/// Signs that device out, or ends that staff view: its token is refused from now on. The current
/// session may be signed out too (the client then logs out).
#[utoipa::path(delete, path = "/api/privacy/sessions/{id}", tag = "privacy", security(("bearer" = [])),
    params(("id" = String, Path, description = "The session's id (`ses_…`)")),
    responses((status = 204, description = "Signed out"), (status = 401, body = crate::error::ErrorBody),
        (status = 403, description = "Staff viewing an account cannot use the privacy centre", body = crate::error::ErrorBody),
        (status = 404, description = "No live session of the caller's has this id", body = crate::error::ErrorBody)))]
pub async fn revoke_session(State(s): State<AppState>, Owner(m): Owner, Path(id): Path<String>) -> ApiResult<StatusCode> {
    s.clients.auth.clone().revoke_session(m.request(auth_pb::RevokeSessionRequest { id })).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Signs out every session of that device; its next call answers 401 with
/// `errors.session: "revoked"`. The current device may be signed out too (the client then logs
/// out): its own session ends last.
#[utoipa::path(delete, path = "/api/privacy/devices/{key}", tag = "privacy", security(("bearer" = [])),
    params(("key" = String, Path, description = "The device's key, from `GET /api/privacy/sessions`")),
    responses((status = 200, body = Revoked), (status = 401, body = crate::error::ErrorBody),
        (status = 403, description = "Staff viewing an account cannot use the privacy centre", body = crate::error::ErrorBody),
        (status = 404, description = "No device of the caller's has this key", body = crate::error::ErrorBody)))]
pub async fn revoke_device(State(s): State<AppState>, Owner(m): Owner, Path(key): Path<String>) -> ApiResult<Json<Revoked>> {
    let mut auth = s.clients.auth.clone();
    let listed = auth.list_sessions(m.request(auth_pb::ListSessionsRequest {})).await?.into_inner();
    let device = listed.devices.into_iter().find(|d| d.key == key).ok_or_else(ApiError::not_found)?;
    let current = listed.sessions.iter().find(|s| s.current).map(|s| s.id.clone());
    let (mut ids, mine): (Vec<String>, Vec<String>) = device.session_ids.into_iter().partition(|id| Some(id) != current.as_ref());
    ids.extend(mine);
    let revoked = ids.len() as u32;
    for id in ids {
        auth.revoke_session(m.request(auth_pb::RevokeSessionRequest { id })).await?;
    }
    Ok(Json(Revoked { revoked }))
}

#[derive(Serialize, ToSchema)]
pub struct Revoked {
    /// How many sessions were signed out.
    pub revoked: u32,
}

/// Signs out every other session of the caller; the current one stays.
#[utoipa::path(post, path = "/api/privacy/sessions/revoke-others", tag = "privacy", security(("bearer" = [])),
    responses((status = 200, body = Revoked), (status = 401, body = crate::error::ErrorBody),
        (status = 403, description = "Staff viewing an account cannot use the privacy centre", body = crate::error::ErrorBody)))]
pub async fn revoke_others(State(s): State<AppState>, Owner(m): Owner) -> ApiResult<Json<Revoked>> {
    let r = s.clients.auth.clone().revoke_other_sessions(m.request(auth_pb::RevokeOtherSessionsRequest {})).await?.into_inner();
    Ok(Json(Revoked { revoked: r.revoked }))
}

/// A session as kept on record, for the export: signed-out and expired ones too.
#[derive(Serialize, ToSchema)]
pub struct SessionRecord {
    #[serde(flatten)]
    pub session: SessionBody,
    /// When it was signed out; null while it was not.
    pub revoked_at: Option<String>,
}

/// A check-in or event attendance recorded at sign-in.
#[derive(Serialize, ToSchema)]
pub struct SignInActivityBody {
    /// `visit` or `event`.
    pub kind: String,
    /// The check-in's location handle; empty for an event.
    pub location: String,
    /// The event signed up for; null for a check-in.
    pub event_data: Option<EventData>,
    /// The answers kept with an event sign-up; null for a check-in.
    pub custom_fields: Option<CustomFields>,
    pub at: String,
}

/// A connection with its lists and their items.
#[derive(Serialize, ToSchema)]
pub struct ConnectionLists {
    pub connection: ConnectionBody,
    pub lists: Vec<ListBody>,
}

#[derive(Serialize, ToSchema)]
pub struct AirlineLink {
    pub qff_number: String,
    pub last_name: String,
    pub linked_at: String,
}

/// A link to an airline account that ended.
#[derive(Serialize, ToSchema)]
pub struct PastAirlineLink {
    pub qff_number: String,
    /// `wrong_account`, `not_using`, `privacy` or `other`.
    pub reason: String,
    pub comment: String,
    pub linked_at: String,
    pub unlinked_at: String,
}

#[derive(Serialize, ToSchema)]
pub struct AirlineExport {
    /// Null when no airline account is linked.
    pub link: Option<AirlineLink>,
    /// Earlier links and why they ended.
    pub history: Vec<PastAirlineLink>,
    pub conversions: Vec<ConversionBody>,
}

/// Everything the portal holds on the member.
#[derive(Serialize, ToSchema)]
pub struct DataExport {
    pub generated_at: String,
    pub profile_id: String,
    /// The full profile, custom attributes and messaging preferences included.
    pub profile: ProfileBody,
    /// Every change of a messaging preference, oldest first.
    pub consent_history: Vec<ConsentRecordBody>,
    /// Every purchase, newest first, with items, products and list links.
    pub transactions: Vec<TransactionBody>,
    pub claims: Vec<ClaimBody>,
    /// Every ledger entry, oldest first.
    pub points_ledger: Vec<PointsBody>,
    pub rewards: Vec<RewardBody>,
    pub benefits: Vec<BenefitBody>,
    /// Connections with their product lists and items.
    pub lists: Vec<ConnectionLists>,
    pub airline: AirlineExport,
    /// Every session on record, newest first.
    pub sessions: Vec<SessionRecord>,
    /// Staff access to the account, newest first.
    pub staff_access_log: Vec<AccessLogEntry>,
    /// Check-ins and event attendance recorded at sign-in, oldest first.
    pub sign_in_activity: Vec<SignInActivityBody>,
    /// Changes of the sign-in address, oldest first.
    pub email_changes: Vec<EmailChangeBody>,
}

/// A confirmed change of the sign-in address.
#[derive(Serialize, ToSchema)]
pub struct EmailChangeBody {
    pub old_email: String,
    pub new_email: String,
    pub changed_at: String,
    /// When it was undone from the old address; null if it was not.
    pub undone_at: Option<String>,
}

fn assemble(
    pid: String,
    auth: auth_pb::MemberExport,
    profile: profile_pb::MemberExport,
    connections: connections_pb::MemberExport,
    qff: qff_pb::MemberExport,
) -> DataExport {
    DataExport {
        generated_at: iso(portal_common::now_unix()),
        profile_id: pid,
        profile: profile.profile.unwrap_or_default().into(),
        consent_history: profile.consent_history.into_iter().map(Into::into).collect(),
        transactions: profile.transactions.into_iter().map(Into::into).collect(),
        claims: profile.claims.into_iter().map(Into::into).collect(),
        points_ledger: profile.points_ledger.into_iter().map(Into::into).collect(),
        rewards: profile.rewards.into_iter().map(Into::into).collect(),
        benefits: profile.benefits.into_iter().map(Into::into).collect(),
        lists: connections
            .connections
            .into_iter()
            .map(|c| ConnectionLists {
                connection: c.connection.unwrap_or_default().into(),
                lists: c.lists.into_iter().map(Into::into).collect(),
            })
            .collect(),
        airline: AirlineExport {
            link: qff.link.map(|l| AirlineLink { qff_number: l.qff_number, last_name: l.last_name, linked_at: iso(l.linked_at) }),
            history: qff
                .history
                .into_iter()
                .map(|h| PastAirlineLink {
                    qff_number: h.qff_number,
                    reason: h.reason,
                    comment: h.comment,
                    linked_at: iso(h.linked_at),
                    unlinked_at: iso(h.unlinked_at),
                })
                .collect(),
            conversions: qff.conversions.into_iter().map(|c| ConversionBody::new(c, false)).collect(),
        },
        sessions: auth
            .sessions
            .into_iter()
            .map(|s| {
                let revoked_at = iso_opt(s.revoked_at);
                SessionRecord { session: s.into(), revoked_at }
            })
            .collect(),
        staff_access_log: auth.staff_access_log.into_iter().map(Into::into).collect(),
        sign_in_activity: auth
            .sign_in_activity
            .into_iter()
            .map(|a| SignInActivityBody {
                kind: a.kind,
                location: a.location,
                event_data: a.event_data.map(Into::into),
                custom_fields: a.custom_fields.map(activity::from_pb),
                at: iso(a.at),
            })
            .collect(),
        email_changes: auth
            .email_changes
            .into_iter()
            .map(|e| EmailChangeBody {
                old_email: e.old_email,
                new_email: e.new_email,
                changed_at: iso(e.changed_at),
                undone_at: iso_opt(e.undone_at),
            })
            .collect(),
    }
}

/// Download my data: everything the portal holds on the caller, as one pretty-printed JSON
/// file (`my-data-YYYY-MM-DD.json`). Each service contributes its own part.
#[utoipa::path(get, path = "/api/privacy/export", tag = "privacy", security(("bearer" = [])),
    responses((status = 200, body = DataExport, content_type = "application/json",
            headers(("Content-Disposition" = String, description = "attachment; filename=\"my-data-YYYY-MM-DD.json\""))),
        (status = 401, body = crate::error::ErrorBody),
        (status = 403, description = "Staff viewing an account cannot use the privacy centre", body = crate::error::ErrorBody),
        (status = 404, description = "The account was deleted (a deletion that has not finished yet)", body = crate::error::ErrorBody)))]
pub async fn export(State(s): State<AppState>, Owner(m): Owner) -> ApiResult<Response> {
    let c = &s.clients;
    let (auth, profile, connections, qff) = tokio::try_join!(
        async { c.auth.clone().export_member(m.request(auth_pb::ExportMemberRequest {})).await },
        async { c.profile.clone().export_member(m.request(profile_pb::ExportMemberRequest {})).await },
        async { c.connections.clone().export_member(m.request(connections_pb::ExportMemberRequest {})).await },
        async { c.qff.clone().export_member(m.request(qff_pb::ExportMemberRequest {})).await },
    )?;
    let doc = assemble(m.0.pid.clone(), auth.into_inner(), profile.into_inner(), connections.into_inner(), qff.into_inner());
    let body = serde_json::to_vec_pretty(&doc).map_err(|e| {
        tracing::warn!(error = %e, "encoding a data export");
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "An unknown error occurred")
    })?;
    let file = format!("attachment; filename=\"my-data-{}.json\"", chrono::Utc::now().format("%Y-%m-%d"));
    let mut res = (StatusCode::OK, body).into_response();
    res.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    if let Ok(v) = HeaderValue::from_str(&file) {
        res.headers_mut().insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(res)
}

#[derive(Serialize, ToSchema)]
pub struct CodeSent {
    /// Always true.
    pub sent: bool,
    /// Where it went, masked: `d***@example.com`.
    pub email: String,
}

/// Emails the caller a fresh one-time code that confirms deleting their account (it cannot be
/// used to sign in). Rate limited like the sign-in codes.
#[utoipa::path(post, path = "/api/privacy/delete/code", tag = "privacy", security(("bearer" = [])),
    responses((status = 200, body = CodeSent), (status = 401, body = crate::error::ErrorBody),
        (status = 403, description = "Staff viewing an account cannot use the privacy centre", body = crate::error::ErrorBody),
        (status = 429, description = "Too many codes asked for", body = crate::error::ErrorBody)))]
pub async fn deletion_code(State(s): State<AppState>, Owner(m): Owner, ip: ClientIp) -> ApiResult<Json<CodeSent>> {
    let mut req = m.request(auth_pb::SendDeletionCodeRequest {});
    ip.tag(&mut req);
    let r = s.clients.auth.clone().send_deletion_code(req).await?.into_inner();
    Ok(Json(CodeSent { sent: true, email: r.email }))
}

#[derive(Deserialize, ToSchema)]
pub struct DeleteRequest {
    /// The 6-digit code from the deletion email (a sign-in code does not work here).
    #[schema(pattern = "^[0-9]{6}$")]
    pub code: String,
}

#[derive(Serialize, ToSchema)]
pub struct Deleted {
    /// Always true.
    pub deleted: bool,
}

/// Deletes the caller's account: with the emailed deletion code, every service erases the
/// member's personal data, every session is signed out (this one too: the token is refused from
/// now on), and the points ledger is kept only in anonymised form. If a service fails midway
/// (503), the same request with the same code carries on (for an hour).
#[utoipa::path(post, path = "/api/privacy/delete", tag = "privacy", request_body = DeleteRequest, security(("bearer" = [])),
    responses((status = 200, body = Deleted), (status = 401, body = crate::error::ErrorBody),
        (status = 403, description = "Staff viewing an account cannot use the privacy centre", body = crate::error::ErrorBody),
        (status = 422, description = "The code is not right or has expired (`errors.code`); nothing was deleted", body = crate::error::ErrorBody),
        (status = 429, description = "Too many wrong codes: ask for a new one", body = crate::error::ErrorBody)))]
pub async fn delete_account(
    State(s): State<AppState>,
    Owner(m): Owner,
    ip: ClientIp,
    body: Result<Json<DeleteRequest>, JsonRejection>,
) -> ApiResult<Json<Deleted>> {
    let Json(b) = body?;
    let c = &s.clients;
    let mut confirm = m.request(auth_pb::ConfirmDeletionRequest { code: b.code });
    if let Some(v) = ip.0.as_ref().and_then(|ip| ip.parse().ok()) {
        confirm.metadata_mut().insert(portal_common::identity::CLIENT_IP, v);
    }
    c.auth.clone().confirm_deletion(confirm).await?;
    c.qff.clone().erase_member(m.request(qff_pb::EraseMemberRequest {})).await?;
    c.connections.clone().erase_member(m.request(connections_pb::EraseMemberRequest {})).await?;
    c.profile.clone().erase_member(m.request(profile_pb::EraseMemberRequest {})).await?;
    c.auth.clone().erase_member(m.request(auth_pb::EraseMemberRequest {})).await?;
    tracing::info!("account deleted");
    Ok(Json(Deleted { deleted: true }))
}
