//! Reference data: the tenant's configuration (read from a file, secrets removed before it
//! leaves this service), countries and store locations.
pub mod tenant_config;

use portal_common::config::Settings;
use portal_common::db::Db;
use portal_common::grpc::GrpcApp;
use portal_proto::refdata::v1::{self as pb, refdata_service_server::{RefdataService, RefdataServiceServer}};
use sqlx::Row;
use std::sync::{Arc, LazyLock};
use tonic::{Request, Response, Status};

pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

pub async fn build(settings: &Settings) -> anyhow::Result<GrpcApp> {
    let db = Db::connect(settings, "refdata", &MIGRATOR).await?;
    if settings.demo_data {
        seed_locations(&db, &settings.tenant).await?;
    }
    // Fail at start-up, not on the first request, if the tenant file is missing or malformed.
    tenant_config::TenantConfig::load(&settings.tenant_config)?;
    note_version(&db, "countries", &portal_common::countries::digest()).await?;
    note_version(&db, "locations", &locations_digest(&db, &settings.tenant).await?).await?;
    let svc = Refdata { db, tenant: settings.tenant.clone(), config_path: Arc::new(settings.tenant_config.clone()) };
    GrpcApp::bind(settings, "portal.refdata.v1.RefdataService", tonic::service::Routes::new(RefdataServiceServer::new(svc))).await
}

#[derive(Clone)]
struct Refdata {
    db: Db,
    tenant: String,
    config_path: Arc<std::path::PathBuf>,
}

#[tonic::async_trait]
impl RefdataService for Refdata {
    #[tracing::instrument(skip_all)]
    async fn get_config(&self, _req: Request<pb::GetConfigRequest>) -> Result<Response<pb::GetConfigResponse>, Status> {
        let cfg = tenant_config::TenantConfig::load(&self.config_path)
            .map_err(|e| portal_common::error::internal("reading tenant config", e))?;
        Ok(Response::new(pb::GetConfigResponse { json: cfg.public_json.to_string(), last_updated: cfg.last_updated }))
    }

    #[tracing::instrument(skip_all)]
    async fn list_locations(&self, _req: Request<pb::ListLocationsRequest>) -> Result<Response<pb::ListLocationsResponse>, Status> {
        let rows = sqlx::query(
            "SELECT id, handle, name, external_code, external_id, latitude, longitude FROM locations WHERE tenant = $1 ORDER BY id",
        )
        .bind(&self.tenant)
        .fetch_all(&self.db.pool)
        .await
        .map_err(|e| portal_common::error::internal("listing locations", e))?;
        let locations = rows
            .into_iter()
            .map(|r| pb::Location {
                id: r.get("id"),
                handle: r.get("handle"),
                name: r.get("name"),
                external_code: r.get("external_code"),
                external_id: r.get("external_id"),
                latitude: r.get("latitude"),
                longitude: r.get("longitude"),
            })
            .collect();
        Ok(Response::new(pb::ListLocationsResponse { locations }))
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
    let rows = sqlx::query(
        "SELECT id, handle, name, external_code, external_id, latitude, longitude FROM locations WHERE tenant = $1 ORDER BY id",
    )
    .bind(tenant)
    .fetch_all(&db.pool)
    .await?;
    let mut h = Sha256::new();
    for r in rows {
        let line = format!(
            "{}|{}|{}|{}|{}|{}|{}\n",
            r.get::<i64, _>("id"),
            r.get::<String, _>("handle"),
            r.get::<String, _>("name"),
            r.get::<String, _>("external_code"),
            r.get::<String, _>("external_id"),
            r.get::<f64, _>("latitude"),
            r.get::<f64, _>("longitude")
        );
        h.update(line.as_bytes());
    }
    Ok(portal_common::hex(&h.finalize()))
}

/// A few of the demo brand's stores, at their real coordinates.
async fn seed_locations(db: &Db, tenant: &str) -> anyhow::Result<()> {
    let stores = [
        (1i64, "melbourne-central", "Melbourne Central", "MC01", "1001", -37.810_29, 144.962_84),
        (2, "chadstone", "Chadstone", "CH02", "1002", -37.886_39, 145.083_13),
        (3, "sydney-pitt-street", "Pitt Street Mall, Sydney", "PS03", "1003", -33.869_82, 151.208_42),
        (4, "brisbane-queen-street", "Queen Street Mall, Brisbane", "QS04", "1004", -27.469_89, 153.025_71),
        (5, "perth-hay-street", "Hay Street Mall, Perth", "HS05", "1005", -31.953_51, 115.858_67),
    ];
    for (id, handle, name, code, ext, lat, lng) in stores {
        sqlx::query(
            "INSERT INTO locations (id, tenant, handle, name, external_code, external_id, latitude, longitude)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING",
        )
        .bind(id)
        .bind(tenant)
        .bind(handle)
        .bind(name)
        .bind(code)
        .bind(ext)
        .bind(lat)
        .bind(lng)
        .execute(&db.pool)
        .await?;
    }
    Ok(())
}
