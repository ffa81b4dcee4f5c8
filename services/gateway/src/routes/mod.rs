//! Every REST route of the spec, one module per resource, merged here. Routes whose issue has
//! not landed answer 501 in the error shape (see `pending`), so no route is ever missing.
pub mod auth;
pub mod config;
pub mod connections;
pub mod loyalty;
pub mod network;
pub mod pending;
pub mod profile;
pub mod qff;
pub mod refdata;

use crate::state::AppState;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

#[derive(OpenApi)]
#[openapi(
    info(title = "Member portal API", description = "REST surface of the member self-service portal. Every error has the shape {status, message, errors, error: true}."),
    components(schemas(crate::error::ErrorBody)),
    modifiers(&BearerAuth)
)]
pub struct ApiDoc;

struct BearerAuth;

impl utoipa::Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).description(Some("base64 of a signed JWT")).build()),
        );
    }
}

/// Unix seconds as RFC 3339 in UTC, the form every REST time takes.
pub use portal_common::rfc3339 as iso;

/// A time that may be absent (0 in gRPC) as RFC 3339, or null.
pub fn iso_opt(t: i64) -> Option<String> {
    (t != 0).then(|| iso(t))
}

/// A text that may be absent (empty in gRPC), or null.
pub fn text_opt(s: String) -> Option<String> {
    Some(s).filter(|s| !s.is_empty())
}

/// The `/api` routes with their OpenAPI description.
pub fn api() -> OpenApiRouter<AppState> {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(network::router())
        .merge(config::router())
        .merge(auth::router())
        .merge(profile::router())
        .merge(loyalty::router())
        .merge(connections::router())
        .merge(qff::router())
        .merge(refdata::router())
        .merge(pending::router())
}
