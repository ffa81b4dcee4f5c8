//! The micro-frontends at run time (`crate::mfe`): `/mfe-manifest.json`, the release of each tab
//! for the caller (a canary for some members), read from the platform's manifest file on every
//! request, so a publish or a rollback needs no front-end build and no restart; and
//! `/api/mfe/reports`, where the shell reports the tabs that failed to load or draw and the
//! canaries it loaded, feeding the metrics and the automatic rollback.
use crate::error::{ApiError, ApiResult};
use crate::extract::{ClientIp, MaybeSignedIn};
use crate::mfe::{self, Outcome, Recorded, Served, Unknown};
use crate::state::AppState;
use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(manifest)).routes(routes!(report))
}

/// Where each tab's build is, for the caller: the stable release, or for a signed-in member in a
/// canary's share (by a hash of their profile id) the canary. Sent with a bearer token when there
/// is a session; without one, always the stable releases.
#[utoipa::path(get, path = "/mfe-manifest.json", tag = "web",
    responses((status = 200, description = "Each tab (its module-federation name) and its release", body = std::collections::BTreeMap<String, Served>),
        (status = 404, description = "No manifest has been published", body = crate::error::ErrorBody),
        (status = 500, description = "The published manifest is not valid", body = crate::error::ErrorBody)))]
pub async fn manifest(State(s): State<AppState>, MaybeSignedIn(caller): MaybeSignedIn) -> Response {
    let path = s.settings.manifest_path();
    let m = match mfe::read_manifest(&path).await {
        Ok(m) => m,
        Err(e @ mfe::ManifestError::Missing) => return ApiError::new(StatusCode::NOT_FOUND, capitalised(&e)).into_response(),
        Err(e) => {
            tracing::error!(path = %path.display(), error = %e, "micro-frontend manifest");
            return ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "The micro-frontend manifest is invalid").into_response();
        }
    };
    let served = s.canaries.resolve(&m, caller.as_deref().map(|c| c.pid.as_str())).await;
    // A member's answer is theirs (a canary or not): no shared cache keeps it.
    ([(header::CACHE_CONTROL, "private, no-cache"), (header::VARY, "Authorization")], Json(served)).into_response()
}

fn capitalised(e: &mfe::ManifestError) -> String {
    let s = e.to_string();
    let mut c = s.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

#[derive(Deserialize, ToSchema)]
pub struct RemoteReport {
    /// The tab's module-federation name, as in the manifest (`mfe_rewards`).
    #[schema(min_length = 1, max_length = 64)]
    pub remote: String,
    /// The version the shell was told (its stable or its canary release).
    #[schema(min_length = 1, max_length = 64)]
    pub version: String,
    pub outcome: Outcome,
}

/// What the shell saw of a tab: `loaded` (sent for canaries), `load_failed`, `render_failed` or
/// `incompatible`. Counted per tab and version (`mfe_remote_reports_total`); a canary whose
/// failures cross its threshold is rolled back for everybody. At most 60 reports per minute from
/// one client address.
#[utoipa::path(post, path = "/api/mfe/reports", tag = "web", request_body = RemoteReport,
    responses((status = 204, description = "Recorded"),
        (status = 422, description = "A tab or version the manifest does not name (`errors.remote`, `errors.version`)", body = crate::error::ErrorBody),
        (status = 429, description = "Too many reports from this address; try again after `Retry-After` seconds", body = crate::error::ErrorBody)))]
pub async fn report(State(s): State<AppState>, ip: ClientIp, body: Result<Json<RemoteReport>, JsonRejection>) -> ApiResult<StatusCode> {
    let Json(b) = body?;
    let unavailable = |e: portal_common::kv::KvError| ApiError::from(tonic::Status::from(e));
    if !s.canaries.allow_report(ip.0.as_deref().unwrap_or("unknown")).await.map_err(unavailable)? {
        let mut e = ApiError::new(StatusCode::TOO_MANY_REQUESTS, "Too many reports, try again later");
        e.retry_after = Some(60);
        return Err(e);
    }
    let m = mfe::read_manifest(&s.settings.manifest_path())
        .await
        .map_err(|_| ApiError::field(StatusCode::UNPROCESSABLE_ENTITY, "No such tab", "remote", "Not in the manifest"))?;
    match s.canaries.record(&m, &b.remote, &b.version, b.outcome).await.map_err(unavailable)? {
        Ok(Recorded::Counted | Recorded::RolledBack) => Ok(StatusCode::NO_CONTENT),
        Err(Unknown::Remote) => Err(ApiError::field(StatusCode::UNPROCESSABLE_ENTITY, "No such tab", "remote", "Not in the manifest")),
        Err(Unknown::Version) => Err(ApiError::field(
            StatusCode::UNPROCESSABLE_ENTITY,
            "No such version of this tab",
            "version",
            "Neither its stable nor its canary release",
        )),
    }
}
