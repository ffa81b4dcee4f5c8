//! Routes of the spec whose issue has not landed yet. Each answers 501 in the spec's error shape
//! and is listed in the OpenAPI document, so the surface is complete and honest.
use crate::error::ApiError;
use crate::state::AppState;
use utoipa_axum::{router::OpenApiRouter, routes};

macro_rules! pending {
    ($($name:ident: $method:ident $path:literal, $tag:literal;)*) => {
        $(
            #[utoipa::path($method, path = $path, tag = $tag,
                responses((status = 501, description = "Not implemented yet", body = crate::error::ErrorBody)))]
            pub async fn $name() -> ApiError {
                ApiError::not_implemented()
            }
        )*
        /// All pending routes.
        pub const PENDING: &[(&str, &str)] = &[$((stringify!($method), $path)),*];
    };
}

pending! {
    geolocation_me: get "/api/geolocation/me", "refdata";
    qff_validate: post "/api/qff/validate", "qff";
    qff_link: post "/api/qff/link", "qff";
    qff_history: get "/api/qff/history", "qff";
    qff_redeem: post "/api/qff/redeem", "qff";
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(geolocation_me))
        .routes(routes!(qff_validate))
        .routes(routes!(qff_link))
        .routes(routes!(qff_history))
        .routes(routes!(qff_redeem))
}
