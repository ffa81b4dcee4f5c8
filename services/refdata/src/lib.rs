//! Reference data: the tenant's configuration (read from a file, secrets removed before it
//! leaves this service), countries and store locations.
mod error;
mod store;
pub mod tenant_config;

pub use error::RefdataError;
use portal_common::config::Settings;
use portal_common::db::Db;
use portal_common::grpc::GrpcApp;
use portal_proto::refdata::v1::{
    self as pb,
    refdata_service_server::{RefdataService, RefdataServiceServer},
};
use std::sync::{Arc, LazyLock};
use tonic::{Request, Response, Status};

pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

pub async fn build(settings: &Settings) -> anyhow::Result<GrpcApp> {
    // Fail at start-up, before anything else and not on the first request, if the tenant file is
    // missing or does not load (the error names the field).
    let config = Arc::new(tenant_config::Source::open(&settings.tenant_config)?);
    let db = Db::connect(settings, "refdata", &MIGRATOR).await?;
    if settings.demo_data {
        store::seed_locations(&db, &settings.tenant).await?;
    }
    store::note_version(&db, "countries", &portal_geo::countries::digest()).await?;
    store::note_version(&db, "locations", &store::locations_digest(&db, &settings.tenant).await?).await?;
    let svc = Refdata {
        db,
        tenant: settings.tenant.clone(),
        config,
        geo: Arc::new(portal_geo::GeoIp::open(settings)?),
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
    geo: Arc<portal_geo::GeoIp>,
    /// The database's credit and link (`PORTAL_GEOIP_CREDIT`, `PORTAL_GEOIP_CREDIT_URL`).
    credit: (String, String),
}

#[tonic::async_trait]
impl RefdataService for Refdata {
    #[tracing::instrument(skip_all)]
    async fn get_config(&self, _req: Request<pb::GetConfigRequest>) -> Result<Response<pb::GetConfigResponse>, Status> {
        let cfg = self.config.current().map_err(RefdataError::Config)?;
        Ok(Response::new(pb::GetConfigResponse { json: cfg.public_json.clone(), last_updated: cfg.last_updated }))
    }

    #[tracing::instrument(skip_all)]
    async fn list_locations(&self, _req: Request<pb::ListLocationsRequest>) -> Result<Response<pb::ListLocationsResponse>, Status> {
        let locations = store::locations(&self.db, &self.tenant).await?;
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
        let cfg = self.config.current().map_err(RefdataError::Config)?;
        // In range: checked when the file was loaded.
        let default = cfg.tenant.general.default_position.as_ref().map(|p| (p.latitude, p.longitude));
        let (latitude, longitude) = match default {
            Some(p) => p,
            None => {
                let first = store::locations(&self.db, &self.tenant).await?.into_iter().next().ok_or(RefdataError::NoPosition)?;
                (first.latitude, first.longitude)
            }
        };
        Ok(Response::new(pb::Located { latitude, longitude, source: "default".into(), ..Default::default() }))
    }

    #[tracing::instrument(skip_all)]
    async fn list_countries(&self, _req: Request<pb::ListCountriesRequest>) -> Result<Response<pb::ListCountriesResponse>, Status> {
        let last_updated = store::ages(&self.db).await?.countries;
        Ok(Response::new(pb::ListCountriesResponse { countries: COUNTRIES.clone(), last_updated }))
    }

    #[tracing::instrument(skip_all)]
    async fn get_ages(&self, _req: Request<pb::GetAgesRequest>) -> Result<Response<pb::Ages>, Status> {
        Ok(Response::new(store::ages(&self.db).await?))
    }
}

/// Every country with its states, sorted by name, built once from the data package.
static COUNTRIES: LazyLock<Vec<pb::Country>> = LazyLock::new(|| {
    use portal_geo::countries;
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
