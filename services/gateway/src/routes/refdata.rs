//! Reference data: countries with their states, and the tenant's store locations.
use crate::error::{ApiError, ApiResult};
use crate::extract::ClientIp;
use crate::extract::Query;
use crate::routes::config::Age;
use crate::state::AppState;
use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use portal_proto::refdata::v1::{GetAgesRequest, ListCountriesRequest, ListLocationsRequest, LocateRequest};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::{router::OpenApiRouter, routes};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(countries_age))
        .routes(routes!(countries))
        .routes(routes!(geolocation_age))
        .routes(routes!(geolocation))
        .routes(routes!(geolocation_me))
}

/// When this deployment's country data last changed.
#[utoipa::path(get, path = "/api/countries/age", tag = "refdata", responses((status = 200, body = Age)))]
pub async fn countries_age(State(s): State<AppState>) -> ApiResult<Json<Age>> {
    let a = s.clients.refdata.clone().get_ages(GetAgesRequest {}).await?.into_inner();
    Ok(Json(Age { age: a.countries }))
}

#[derive(Serialize, ToSchema)]
pub struct StateBody {
    /// e.g. `AU-VIC`
    pub iso_2_country_state_code: String,
    /// e.g. `VIC`
    pub iso: String,
    pub name: String,
}

#[derive(Serialize, ToSchema)]
pub struct CountryBody {
    pub iso_2: String,
    pub iso_3: String,
    pub name: String,
    /// ISO 3166-2 subdivisions, by name.
    pub states: Vec<StateBody>,
}

#[derive(Serialize, ToSchema)]
pub struct CountryList {
    /// Every ISO 3166-1 country, by name.
    pub countries: Vec<CountryBody>,
}

/// Every country with its states (ISO 3166-1 and 3166-2).
#[utoipa::path(get, path = "/api/countries", tag = "refdata", responses((status = 200, body = CountryList)))]
pub async fn countries(State(s): State<AppState>) -> ApiResult<Response> {
    let age = s.clients.refdata.clone().get_ages(GetAgesRequest {}).await?.into_inner().countries;
    if let Some((cached_age, bytes)) = s.countries.0.read().await.as_ref() {
        if *cached_age == age {
            return Ok(json_bytes(bytes.clone()));
        }
    }
    let r = s.clients.refdata.clone().list_countries(ListCountriesRequest {}).await?.into_inner();
    let body = CountryList {
        countries: r
            .countries
            .into_iter()
            .map(|c| CountryBody {
                iso_2: c.iso_2,
                iso_3: c.iso_3,
                name: c.name,
                states: c
                    .states
                    .into_iter()
                    .map(|s| StateBody { iso_2_country_state_code: s.iso_2_country_state_code, iso: s.iso, name: s.name })
                    .collect(),
            })
            .collect(),
    };
    let bytes = axum::body::Bytes::from(serde_json::to_vec(&body).map_err(|e| {
        tracing::error!(error = %e, "serialising countries");
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "An unknown error occurred")
    })?);
    *s.countries.0.write().await = Some((r.last_updated, bytes.clone()));
    Ok(json_bytes(bytes))
}

fn json_bytes(bytes: axum::body::Bytes) -> Response {
    ([(header::CONTENT_TYPE, HeaderValue::from_static("application/json"))], bytes).into_response()
}

/// When the tenant's locations last changed.
#[utoipa::path(get, path = "/api/geolocation/age", tag = "refdata", responses((status = 200, body = Age)))]
pub async fn geolocation_age(State(s): State<AppState>) -> ApiResult<Json<Age>> {
    let a = s.clients.refdata.clone().get_ages(GetAgesRequest {}).await?.into_inner();
    Ok(Json(Age { age: a.locations }))
}

#[derive(Deserialize, IntoParams)]
pub struct Position {
    /// Degrees, -90 to 90. With `longitude`, orders the locations nearest first.
    #[param(value_type = Option<f64>, minimum = -90, maximum = 90)]
    pub latitude: Option<String>,
    /// Degrees, -180 to 180.
    #[param(value_type = Option<f64>, minimum = -180, maximum = 180)]
    pub longitude: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct LocationBody {
    pub id: i64,
    pub handle: String,
    pub name: String,
    pub external_code: String,
    pub external_id: String,
    pub latitude: f64,
    pub longitude: f64,
    /// Rounded metres from the given position; null without one.
    pub distance: Option<i64>,
    /// Street address, lines separated by `\n`.
    pub address: String,
    pub phone: String,
    /// IANA time zone of the store: its hours are local times there.
    pub time_zone: String,
    /// Opening periods by weekday (`mon`..`sun`), each `["HH:MM", "HH:MM"]` in local time; a
    /// missing or empty day is closed.
    #[schema(value_type = Object)]
    pub hours: serde_json::Value,
}

#[derive(Serialize, ToSchema)]
pub struct Geolocation {
    pub latitude: Option<f64>,
    pub longitude: Option<f64>,
    pub locations: Vec<LocationBody>,
}

/// Mean earth radius in metres (spec section 9).
const EARTH_RADIUS_M: f64 = 6_371_000.0;

/// Great-circle distance in rounded metres (haversine).
pub fn distance_m((lat1, lng1): (f64, f64), (lat2, lng2): (f64, f64)) -> i64 {
    let (p1, p2) = (lat1.to_radians(), lat2.to_radians());
    let (dp, dl) = ((lat2 - lat1).to_radians(), (lng2 - lng1).to_radians());
    let a = (dp / 2.0).sin().powi(2) + p1.cos() * p2.cos() * (dl / 2.0).sin().powi(2);
    (2.0 * EARTH_RADIUS_M * a.sqrt().atan2((1.0 - a).sqrt())).round() as i64
}

fn coordinate(field: &str, raw: &Option<String>, max: f64, errors: &mut ApiError) -> Option<f64> {
    let v = raw.as_deref()?.trim();
    match v.parse::<f64>() {
        Ok(x) if x.is_finite() && x.abs() <= max => Some(x),
        _ => {
            errors.errors.insert(field.into(), format!("Use degrees between -{max} and {max}"));
            None
        }
    }
}

/// The tenant's locations; nearest first with distances when a position is given, else by name.
#[utoipa::path(get, path = "/api/geolocation", tag = "refdata", params(Position),
    responses((status = 200, body = Geolocation), (status = 422, description = "Bad coordinates", body = crate::error::ErrorBody)))]
pub async fn geolocation(State(s): State<AppState>, Query(q): Query<Position>) -> ApiResult<Json<Geolocation>> {
    let mut bad = ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, "Please check the highlighted fields");
    let lat = coordinate("latitude", &q.latitude, 90.0, &mut bad);
    let lng = coordinate("longitude", &q.longitude, 180.0, &mut bad);
    if !bad.errors.is_empty() {
        return Err(bad);
    }
    let here = lat.zip(lng);
    let r = s.clients.refdata.clone().list_locations(ListLocationsRequest {}).await?.into_inner();
    let mut locations: Vec<LocationBody> = r
        .locations
        .into_iter()
        .map(|l| LocationBody {
            distance: here.map(|h| distance_m(h, (l.latitude, l.longitude))),
            id: l.id,
            handle: l.handle,
            name: l.name,
            external_code: l.external_code,
            external_id: l.external_id,
            latitude: l.latitude,
            longitude: l.longitude,
            address: l.address,
            phone: l.phone,
            time_zone: l.time_zone,
            hours: serde_json::from_str(&l.hours_json).unwrap_or_else(|_| serde_json::json!({})),
        })
        .collect();
    locations.sort_by(|a, b| a.distance.cmp(&b.distance).then_with(|| a.name.cmp(&b.name)));
    Ok(Json(Geolocation { latitude: here.map(|h| h.0), longitude: here.map(|h| h.1), locations }))
}

#[derive(Serialize, ToSchema)]
pub struct Whereabouts {
    pub latitude: f64,
    pub longitude: f64,
    /// `ip`: from the caller's address (approximate, city level); `default`: the brand's default
    /// position, because the address is unknown or no IP database is configured.
    pub source: String,
    /// ISO 3166-1 alpha-2, when the address is known.
    pub country_code: Option<String>,
    pub city: Option<String>,
    /// The IP database's credit, to show wherever this position is used (its licence asks it).
    pub credit: Option<Credit>,
}

#[derive(Serialize, ToSchema)]
pub struct Credit {
    pub text: String,
    pub url: Option<String>,
}

/// The caller's approximate position from their IP address (behind a proxy, the forwarded
/// address `PORTAL_TRUSTED_PROXIES` allows), or the brand's default position; `source` says
/// which. Used when the browser gives no position. The address is not stored.
#[utoipa::path(get, path = "/api/geolocation/me", tag = "refdata",
    responses((status = 200, body = Whereabouts), (status = 404, description = "No position is known", body = crate::error::ErrorBody)))]
pub async fn geolocation_me(State(s): State<AppState>, ip: ClientIp) -> ApiResult<Response> {
    let r = s.clients.refdata.clone().locate(ip.request(LocateRequest {})).await?.into_inner();
    let some = |v: String| Some(v).filter(|v| !v.is_empty());
    let body = Whereabouts {
        latitude: r.latitude,
        longitude: r.longitude,
        source: r.source,
        country_code: some(r.country_code),
        city: some(r.city),
        credit: some(r.credit).map(|text| Credit { text, url: some(r.credit_url) }),
    };
    // Personal (it follows the caller's address): never kept by a shared cache.
    Ok(([(header::CACHE_CONTROL, HeaderValue::from_static("private, no-store"))], Json(body)).into_response())
}

#[cfg(test)]
mod tests {
    use super::distance_m;

    #[test]
    fn distances_are_great_circle_metres() {
        assert_eq!(distance_m((-37.81, 144.96), (-37.81, 144.96)), 0);
        // Melbourne Central to Pitt Street Mall, Sydney: about 714 km.
        let d = distance_m((-37.810_29, 144.962_84), (-33.869_82, 151.208_42));
        assert!((713_000..716_000).contains(&d), "{d}");
        // One degree of latitude is 2πR/360 ≈ 111 195 m.
        assert_eq!(distance_m((0.0, 0.0), (1.0, 0.0)), 111_195);
    }
}
