//! Every REST route of the spec, one module per resource, merged here.
pub mod activity;
pub mod auth;
pub mod claims;
pub mod config;
pub mod connections;
pub mod email_change;
pub mod loyalty;
pub mod mfe;
pub mod network;
pub mod offers;
pub mod orders;
pub mod privacy;
pub mod profile;
pub mod qff;
pub mod refdata;
pub mod staff_log;

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

/// Routes that answer without asking a service, so never 503.
const NO_SERVICE: &[&str] = &["/api/network/available", "/mfe-manifest.json"];

/// Adds to every operation the error answers that come from the gateway itself rather than from
/// the route, unless the route documents them in its own words, so the document lists every
/// status the server sends: a bad body or query string (400), no valid session (401), a write by
/// staff viewing a member's account (403), a path that names nothing (404), a body too slow (408)
/// or too large or with too many fields (413, see `crate::limits`), a service that is down, too
/// slow or unreachable (503, with `Retry-After`). All in the error shape.
pub fn add_common_responses(doc: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::path::ParameterIn;
    use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
    let error = |description: &str| {
        ResponseBuilder::new()
            .description(description)
            .content("application/json", ContentBuilder::new().schema(Some(Ref::from_schema_name("ErrorBody"))).build())
            .build()
    };
    for (path, item) in doc.paths.paths.iter_mut() {
        let ops = [
            ("get", &mut item.get),
            ("put", &mut item.put),
            ("post", &mut item.post),
            ("delete", &mut item.delete),
            ("patch", &mut item.patch),
        ];
        for (method, op) in ops {
            let Some(op) = op else { continue };
            let responses = &mut op.responses.responses;
            let params = op.parameters.as_deref().unwrap_or_default();
            let has = |place: ParameterIn| params.iter().any(|p| p.parameter_in == place);
            let signed_in = op.security.as_ref().is_some_and(|s| !s.is_empty());
            let mut add = |status: &str, description: &str| {
                responses.entry(status.to_string()).or_insert_with(|| error(description).into());
            };
            if op.request_body.is_some() {
                add(
                    "400",
                    "The body is not JSON, not of this call's shape, or sent without `Content-Type: application/json` (`errors.body`)",
                );
                add("408", "The body did not arrive in time (`server.body_timeout_ms` after the headers; `errors.body`)");
                add(
                    "413",
                    "The body is over 2 MiB, or holds more than 256 keys and items in all, or is nested more than 16 deep (`errors.body`)",
                );
            } else if has(ParameterIn::Query) {
                add("400", "The query string is malformed (`errors.query`)");
            }
            if signed_in {
                add("401", "Not signed in, or the session has expired, gone idle or was signed out");
                if method == "get" {
                    add("403", "A staff user's own session on a member's route (staff view an account through impersonation)");
                } else {
                    add(
                        "403",
                        "Staff viewing a member's account cannot make changes; a staff user's own session cannot use a member's route",
                    );
                }
            }
            if has(ParameterIn::Path) {
                add("404", "Nothing by that id for the caller");
            }
            if !NO_SERVICE.contains(&path.as_str()) {
                add("503", "A service is down or too slow; try again after `Retry-After` seconds");
            }
        }
    }
}

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

// Where a page of a list is (a plain comment: a doc comment would change the schema).
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct PageMeta {
    pub page: u32,
    pub per_page: u32,
    pub total: u64,
}

// A page of a list that also goes on by key (a plain comment: a doc comment would change the
// schema): `next_cursor`, sent back as `cursor`, asks for the page after this one at the same
// cost however deep; null on the last page.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct CursorPageMeta {
    pub page: u32,
    pub per_page: u32,
    pub total: u64,
    pub next_cursor: Option<String>,
}

impl CursorPageMeta {
    pub fn new(page: u32, per_page: u32, total: u64, next_cursor: String) -> Self {
        CursorPageMeta { page, per_page, total, next_cursor: Some(next_cursor).filter(|c| !c.is_empty()) }
    }
}

/// An id from the path: a whole number, else nothing by that id exists (404, not 400: the
/// screens link by id and a mistyped link is simply not found).
pub(crate) fn numeric_id(raw: &str, what: &'static str) -> crate::error::ApiResult<i64> {
    raw.parse::<i64>().ok().filter(|n| *n > 0).ok_or_else(|| crate::error::ApiError::new(axum::http::StatusCode::NOT_FOUND, what))
}

/// The `/api` routes with their OpenAPI description.
pub fn api() -> OpenApiRouter<AppState> {
    let mut api = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(network::router())
        .merge(config::router())
        .merge(auth::router())
        .merge(activity::router())
        .merge(profile::router())
        .merge(orders::router())
        .merge(claims::router())
        .merge(staff_log::router())
        .merge(email_change::router())
        .merge(loyalty::router())
        .merge(offers::router())
        .merge(connections::router())
        .merge(qff::router())
        .merge(privacy::router())
        .merge(refdata::router())
        .merge(mfe::router());
    add_common_responses(api.get_openapi_mut());
    require_one_of_ids(api.get_openapi_mut());
    api
}

/// A list item names a product, a variant or both: at least one of the two ids must be given
/// (not empty), which the derived schema cannot say. Spelled as two whole objects, one per id
/// that is required, rather than the derived object combined with a rule.
fn require_one_of_ids(doc: &mut utoipa::openapi::OpenApi) {
    use utoipa::openapi::schema::{AnyOfBuilder, Object, Schema, Type};
    use utoipa::openapi::RefOr;
    let Some(components) = doc.components.as_mut() else { return };
    let Some(RefOr::T(Schema::Object(item))) = components.schemas.get("NewListItem").cloned() else { return };
    let requiring = |field: &str| {
        let mut o: Object = item.clone();
        o.description = None;
        if let Some(RefOr::T(Schema::Object(p))) = o.properties.get_mut(field) {
            p.schema_type = Type::String.into();
            p.min_length = Some(1);
        }
        o.required.push(field.to_string());
        o
    };
    let schema = AnyOfBuilder::new()
        .item(requiring("product_variant_id"))
        .item(requiring("product_id"))
        .description(item.description.clone().or(Some("Give `product_variant_id`, `product_id` or both.".into())));
    components.schemas.insert("NewListItem".into(), schema.into());
}
