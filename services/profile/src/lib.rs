//! The profile service: member profiles and everything that hangs off them. Member-scoped RPCs
//! take the profile id from the caller's metadata only.
mod demo;
mod error;
mod store;
mod validate;

use portal_common::config::Settings;
use portal_common::db::Db;
use portal_common::grpc::GrpcApp;
use portal_common::identity::Caller;
use portal_common::kv::Kv;
use prost::Message;
use portal_proto::profile::v1::{self as pb, profile_service_server::{ProfileService, ProfileServiceServer}};
use tonic::{Request, Response, Status};

pub use error::ProfileError;

pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Connects storage, migrates, seeds demo data if configured, and binds the service.
pub async fn build(settings: &Settings) -> anyhow::Result<GrpcApp> {
    let db = Db::connect(settings, "profile", &MIGRATOR).await?;
    if settings.demo_data {
        demo::seed(&db, &settings.tenant).await?;
    }
    let cache = Kv::connect(settings).await?.scoped("profile");
    let svc = Profiles { db, tenant: settings.tenant.clone(), cache };
    let routes = tonic::service::Routes::new(ProfileServiceServer::new(svc));
    GrpcApp::bind(settings, "portal.profile.v1.ProfileService", routes).await
}

#[derive(Clone)]
pub struct Profiles {
    db: Db,
    tenant: String,
    /// Encoded profiles by id. Every write to a profile's rows must delete its entry.
    cache: Kv,
}

/// How long a cached profile may be served; writes invalidate it sooner.
const CACHE_TTL: std::time::Duration = std::time::Duration::from_secs(300);

impl Profiles {
    fn cache_key(id: &str) -> String {
        format!("p:{id}")
    }

    /// The profile from the cache, else from SQL (then cached). A cache failure only costs speed.
    async fn cached_profile(&self, id: &str) -> Result<pb::Profile, Status> {
        match self.cache.get(&Self::cache_key(id)).await {
            Ok(Some(bytes)) => match pb::Profile::decode(bytes.as_slice()) {
                Ok(p) => return Ok(p),
                Err(e) => tracing::warn!(error = %e, "undecodable cached profile"),
            },
            Ok(None) => {}
            Err(e) => tracing::warn!(error = %e, "profile cache read"),
        }
        let p = store::profile(&self.db, id).await?;
        if let Err(e) = self.cache.set(&Self::cache_key(id), &p.encode_to_vec(), Some(CACHE_TTL)).await {
            tracing::warn!(error = %e, "profile cache write");
        }
        Ok(p)
    }
}

/// Today's date (UTC) as (year, month, day).
fn today() -> (i32, u32, u32) {
    let days = portal_common::now_unix().div_euclid(86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = (yoe + era * 400 + i64::from(m <= 2)) as i32;
    (y, m, d)
}

fn caller<T>(req: &Request<T>) -> Result<Caller, Status> {
    Caller::from_metadata(req.metadata())
}

#[tonic::async_trait]
impl ProfileService for Profiles {
    #[tracing::instrument(skip_all)]
    async fn get_profile(&self, req: Request<pb::GetProfileRequest>) -> Result<Response<pb::Profile>, Status> {
        let c = caller(&req)?;
        Ok(Response::new(self.cached_profile(&c.profile_id).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn find_by_email(&self, req: Request<pb::FindByEmailRequest>) -> Result<Response<pb::FindByEmailResponse>, Status> {
        let email = req.into_inner().email.trim().to_lowercase();
        Ok(Response::new(store::find_by_email(&self.db, &self.tenant, &email).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn create_profile(&self, req: Request<pb::CreateProfileRequest>) -> Result<Response<pb::CreateProfileResponse>, Status> {
        let r = req.into_inner();
        let mut errors = std::collections::BTreeMap::new();
        let mut check = |field: &str, v: Result<String, &'static str>| match v {
            Ok(v) => v,
            Err(m) => {
                errors.insert(field.to_string(), m.to_string());
                String::new()
            }
        };
        let first = check("first_name", validate::name(&r.first_name));
        let last = check("last_name", validate::name(&r.last_name));
        let phone = check("phone", validate::phone(&r.phone));
        let birth = check("birth_date", validate::birth_date(&r.birth_date, today()));
        if !errors.is_empty() {
            return Err(portal_common::error::invalid_fields("Please check the highlighted fields", &errors));
        }
        let email = r.email.trim().to_lowercase();
        let id = store::create(&self.db, &self.tenant, &email, &first, &last, &phone, &birth).await?;
        Ok(Response::new(pb::CreateProfileResponse { profile_id: id }))
    }

    #[tracing::instrument(skip_all)]
    async fn search_profiles(&self, req: Request<pb::SearchProfilesRequest>) -> Result<Response<pb::SearchProfilesResponse>, Status> {
        let r = req.into_inner();
        let profiles = store::search(&self.db, &self.tenant, &r.r#type, r.id.trim()).await?;
        Ok(Response::new(pb::SearchProfilesResponse { profiles }))
    }

    #[tracing::instrument(skip_all)]
    async fn get_summary(&self, req: Request<pb::GetSummaryRequest>) -> Result<Response<pb::ProfileSummary>, Status> {
        Ok(Response::new(store::summary(&self.db, &req.into_inner().profile_id).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn list_transactions(&self, req: Request<pb::ListTransactionsRequest>) -> Result<Response<pb::ListTransactionsResponse>, Status> {
        let c = caller(&req)?;
        let r = req.into_inner();
        let page = r.page.max(1);
        let per_page = if r.per_page == 0 { 20 } else { r.per_page.min(100) };
        Ok(Response::new(store::transactions(&self.db, &c.profile_id, page, per_page).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn list_rewards(&self, req: Request<pb::ListRewardsRequest>) -> Result<Response<pb::ListRewardsResponse>, Status> {
        let c = caller(&req)?;
        Ok(Response::new(pb::ListRewardsResponse { rewards: store::rewards(&self.db, &c.profile_id).await? }))
    }

    #[tracing::instrument(skip_all)]
    async fn list_benefits(&self, req: Request<pb::ListBenefitsRequest>) -> Result<Response<pb::ListBenefitsResponse>, Status> {
        let c = caller(&req)?;
        Ok(Response::new(pb::ListBenefitsResponse { benefits: store::benefits(&self.db, &c.profile_id).await? }))
    }

    #[tracing::instrument(skip_all)]
    async fn get_balances(&self, req: Request<pb::GetBalancesRequest>) -> Result<Response<pb::Balances>, Status> {
        let c = caller(&req)?;
        let points = store::points_balance(&self.db, &c.profile_id).await?;
        Ok(Response::new(pb::Balances { points, currency: "AUD".into() }))
    }

    #[tracing::instrument(skip_all)]
    async fn list_tiers(&self, _req: Request<pb::ListTiersRequest>) -> Result<Response<pb::ListTiersResponse>, Status> {
        Ok(Response::new(pb::ListTiersResponse { tiers: store::tiers(&self.db).await? }))
    }

    #[tracing::instrument(skip_all)]
    async fn list_points(&self, req: Request<pb::ListPointsRequest>) -> Result<Response<pb::ListPointsResponse>, Status> {
        let c = caller(&req)?;
        Ok(Response::new(pb::ListPointsResponse { entries: store::points(&self.db, &c.profile_id).await? }))
    }
}
