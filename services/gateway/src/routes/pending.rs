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
}

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(geolocation_me))
}
