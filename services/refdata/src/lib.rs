//! Reference data: the tenant's configuration (read from a file, secrets removed before it
//! leaves this service), countries and store locations.
pub mod tenant_config;

use portal_common::config::Settings;
use portal_common::db::Db;
use portal_common::grpc::GrpcApp;
use portal_proto::refdata::v1::{
    self as pb,
    refdata_service_server::{RefdataService, RefdataServiceServer},
};
use sqlx::Row;
use std::sync::{Arc, LazyLock};
use tonic::{Request, Response, Status};

pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

pub async fn build(settings: &Settings) -> anyhow::Result<GrpcApp> {
    // Fail at start-up, before anything else and not on the first request, if the tenant file is
    // missing or does not load (the error names the field).
    let config = Arc::new(tenant_config::Source::open(&settings.tenant_config)?);
    let db = Db::connect(settings, "refdata", &MIGRATOR).await?;
    if settings.demo_data {
        seed_locations(&db, &settings.tenant).await?;
    }
    note_version(&db, "countries", &portal_common::countries::digest()).await?;
    note_version(&db, "locations", &locations_digest(&db, &settings.tenant).await?).await?;
    let svc = Refdata {
        db,
        tenant: settings.tenant.clone(),
        config,
        geo: Arc::new(portal_common::geo::GeoIp::open(settings)?),
        credit: (settings.geoip_credit.clone().unwrap_or_default(), settings.geoip_credit_url.clone().unwrap_or_default()),
    };
    GrpcApp::bind(settings, "portal.refdata.v1.RefdataService", tonic::service::Routes::new(RefdataServiceServer::new(svc))).await
}

#[derive(Clone)]
struct Refdata {
    db: Db,
    tenant: String,
    /// The tenant file, parsed when it changes.
    config: Arc<tenant_config::Source>,
    /// Where an IP address is, when `PORTAL_GEOIP_DB` names a database.
    geo: Arc<portal_common::geo::GeoIp>,
    /// The database's credit and link (`PORTAL_GEOIP_CREDIT`, `PORTAL_GEOIP_CREDIT_URL`).
    credit: (String, String),
}

const LOCATION_COLUMNS: &str = "id, handle, name, external_code, external_id, latitude, longitude, address, phone, time_zone, hours";

fn location(r: &sqlx::any::AnyRow) -> pb::Location {
    pb::Location {
        id: r.get("id"),
        handle: r.get("handle"),
        name: r.get("name"),
        external_code: r.get("external_code"),
        external_id: r.get("external_id"),
        latitude: r.get("latitude"),
        longitude: r.get("longitude"),
        address: r.get("address"),
        phone: r.get("phone"),
        time_zone: r.get("time_zone"),
        hours_json: r.get("hours"),
    }
}

#[tonic::async_trait]
impl RefdataService for Refdata {
    #[tracing::instrument(skip_all)]
    async fn get_config(&self, _req: Request<pb::GetConfigRequest>) -> Result<Response<pb::GetConfigResponse>, Status> {
        let cfg = self.config.current().map_err(|e| portal_common::error::internal("reading tenant config", e))?;
        Ok(Response::new(pb::GetConfigResponse { json: cfg.public_json.clone(), last_updated: cfg.last_updated }))
    }

    #[tracing::instrument(skip_all)]
    async fn list_locations(&self, _req: Request<pb::ListLocationsRequest>) -> Result<Response<pb::ListLocationsResponse>, Status> {
        let locations = self.locations().await?;
        Ok(Response::new(pb::ListLocationsResponse { locations }))
    }

    #[tracing::instrument(skip_all)]
    async fn locate(&self, req: Request<pb::LocateRequest>) -> Result<Response<pb::Located>, Status> {
        let ip = portal_common::identity::Caller::client_ip(req.metadata()).and_then(|s| s.parse::<std::net::IpAddr>().ok());
        if let Some(at) = ip.and_then(|ip| self.geo.position(ip)) {
            return Ok(Response::new(pb::Located {
                latitude: at.latitude,
                longitude: at.longitude,
                source: "ip".into(),
                country_code: at.country_code.unwrap_or_default(),
                city: at.city.unwrap_or_default(),
                credit: self.credit.0.clone(),
                credit_url: self.credit.1.clone(),
            }));
        }
        let cfg = self.config.current().map_err(|e| portal_common::error::internal("reading tenant config", e))?;
        // In range: checked when the file was loaded.
        let default = cfg.tenant.general.default_position.as_ref().map(|p| (p.latitude, p.longitude));
        let (latitude, longitude) = match default {
            Some(p) => p,
            None => {
                let first =
                    self.locations().await?.into_iter().next().ok_or_else(|| Status::not_found("No position is known for this address"))?;
                (first.latitude, first.longitude)
            }
        };
        Ok(Response::new(pb::Located { latitude, longitude, source: "default".into(), ..Default::default() }))
    }

    #[tracing::instrument(skip_all)]
    async fn list_countries(&self, _req: Request<pb::ListCountriesRequest>) -> Result<Response<pb::ListCountriesResponse>, Status> {
        let last_updated = self.ages().await?.countries;
        Ok(Response::new(pb::ListCountriesResponse { countries: COUNTRIES.clone(), last_updated }))
    }

    #[tracing::instrument(skip_all)]
    async fn get_ages(&self, _req: Request<pb::GetAgesRequest>) -> Result<Response<pb::Ages>, Status> {
        Ok(Response::new(self.ages().await?))
    }
}

impl Refdata {
    async fn locations(&self) -> Result<Vec<pb::Location>, Status> {
        let rows = sqlx::query(&format!("SELECT {LOCATION_COLUMNS} FROM locations WHERE tenant = $1 ORDER BY id"))
            .bind(&self.tenant)
            .fetch_all(&self.db.pool)
            .await
            .map_err(|e| portal_common::error::internal("listing locations", e))?;
        Ok(rows.iter().map(location).collect())
    }

    async fn ages(&self) -> Result<pb::Ages, Status> {
        let rows = sqlx::query("SELECT key, updated_at FROM refdata_meta")
            .fetch_all(&self.db.pool)
            .await
            .map_err(|e| portal_common::error::internal("reading reference data ages", e))?;
        let mut ages = pb::Ages::default();
        for r in rows {
            match r.get::<String, _>("key").as_str() {
                "countries" => ages.countries = r.get("updated_at"),
                "locations" => ages.locations = r.get("updated_at"),
                _ => {}
            }
        }
        Ok(ages)
    }
}

/// Every country with its states, sorted by name, built once from the data package.
static COUNTRIES: LazyLock<Vec<pb::Country>> = LazyLock::new(|| {
    use portal_common::countries;
    let mut all: Vec<pb::Country> = countries::all()
        .iter()
        .map(|c| {
            let mut states: Vec<pb::State> = countries::states(c)
                .iter()
                .map(|s| pb::State { iso_2_country_state_code: s.code.into(), iso: countries::state_iso(s).into(), name: s.name.into() })
                .collect();
            states.sort_by(|a, b| a.name.cmp(&b.name));
            pb::Country { iso_2: c.alpha2.into(), iso_3: c.alpha3.into(), name: c.name.into(), states }
        })
        .collect();
    all.sort_by(|a, b| a.name.cmp(&b.name));
    all
});

/// Records that a data set has `digest` now; its time moves only when the digest changes, so
/// clients refetch only when there is something new. Safe when several instances start at once.
async fn note_version(db: &Db, key: &str, digest: &str) -> anyhow::Result<()> {
    sqlx::query(
        "INSERT INTO refdata_meta (key, digest, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (key) DO UPDATE SET digest = excluded.digest, updated_at = excluded.updated_at
         WHERE refdata_meta.digest <> excluded.digest",
    )
    .bind(key)
    .bind(digest)
    .bind(portal_common::now_unix())
    .execute(&db.pool)
    .await?;
    Ok(())
}

async fn locations_digest(db: &Db, tenant: &str) -> anyhow::Result<String> {
    use sha2::{Digest, Sha256};
    let rows = sqlx::query(&format!("SELECT {LOCATION_COLUMNS} FROM locations WHERE tenant = $1 ORDER BY id"))
        .bind(tenant)
        .fetch_all(&db.pool)
        .await?;
    let mut h = Sha256::new();
    for r in rows.iter().map(location) {
        let line = format!(
            "{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}\n",
            r.id, r.handle, r.name, r.external_code, r.external_id, r.latitude, r.longitude, r.address, r.phone, r.time_zone, r.hours_json
        );
        h.update(line.as_bytes());
    }
    Ok(portal_common::hex(&h.finalize()))
}

/// A few of the demo brand's stores, at their real coordinates and addresses, with their hours
/// (phone numbers from the range set aside for fiction). Updated in place, so a demo database
/// made before a column existed gets it.
async fn seed_locations(db: &Db, tenant: &str) -> anyhow::Result<()> {
    let mall = r#"{"mon":[["09:00","17:30"]],"tue":[["09:00","17:30"]],"wed":[["09:00","17:30"]],"thu":[["09:00","21:00"]],"fri":[["09:00","21:00"]],"sat":[["09:00","17:00"]],"sun":[["10:00","17:00"]]}"#;
    let city = r#"{"mon":[["10:00","19:00"]],"tue":[["10:00","19:00"]],"wed":[["10:00","19:00"]],"thu":[["10:00","21:00"]],"fri":[["10:00","21:00"]],"sat":[["10:00","19:00"]],"sun":[["10:00","19:00"]]}"#;
    let stores = [
        (
            1i64,
            "melbourne-central",
            "Melbourne Central",
            "MC01",
            "1001",
            -37.810_29,
            144.962_84,
            "Melbourne Central, 211 La Trobe Street\nMelbourne VIC 3000",
            "+61 3 5550 1001",
            "Australia/Melbourne",
            city,
        ),
        (
            2,
            "chadstone",
            "Chadstone",
            "CH02",
            "1002",
            -37.886_39,
            145.083_13,
            "Chadstone Shopping Centre, 1341 Dandenong Road\nMalvern East VIC 3148",
            "+61 3 5550 1002",
            "Australia/Melbourne",
            mall,
        ),
        (
            3,
            "sydney-pitt-street",
            "Pitt Street Mall, Sydney",
            "PS03",
            "1003",
            -33.869_82,
            151.208_42,
            "188 Pitt Street\nSydney NSW 2000",
            "+61 2 5550 1003",
            "Australia/Sydney",
            city,
        ),
        (
            4,
            "brisbane-queen-street",
            "Queen Street Mall, Brisbane",
            "QS04",
            "1004",
            -27.469_89,
            153.025_71,
            "171 Queen Street\nBrisbane City QLD 4000",
            "+61 7 5550 1004",
            "Australia/Brisbane",
            mall,
        ),
        (
            5,
            "perth-hay-street",
            "Hay Street Mall, Perth",
            "HS05",
            "1005",
            -31.953_51,
            115.858_67,
            "200 Hay Street\nPerth WA 6000",
            "+61 8 5550 1005",
            "Australia/Perth",
            mall,
        ),
    ];
    for (id, handle, name, code, ext, lat, lng, address, phone, zone, hours) in stores {
        sqlx::query(
            "INSERT INTO locations (id, tenant, handle, name, external_code, external_id, latitude, longitude, address, phone, time_zone, hours)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
             ON CONFLICT (id) DO UPDATE SET address = excluded.address, phone = excluded.phone, time_zone = excluded.time_zone, hours = excluded.hours",
        )
        .bind(id)
        .bind(tenant)
        .bind(handle)
        .bind(name)
        .bind(code)
        .bind(ext)
        .bind(lat)
        .bind(lng)
        .bind(address)
        .bind(phone)
        .bind(zone)
        .bind(hours)
        .execute(&db.pool)
        .await?;
    }
    Ok(())
}
