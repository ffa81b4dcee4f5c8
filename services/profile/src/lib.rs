//! The profile service: member profiles and everything that hangs off them. Member-scoped RPCs
//! take the profile id from the caller's metadata only.
mod cache;
mod cards;
mod claims;
mod demo;
mod error;
mod loyalty;
pub mod member_number;
mod phone;
mod privacy;
mod rules;
mod store;
mod validate;

use cache::ProfileCache;
use portal_common::config::Settings;
use portal_common::db::Db;
use portal_common::grpc::Channel;
use portal_common::grpc::GrpcApp;
use portal_common::identity::{caller, owner, Caller};
use portal_common::kv::Kv;
use portal_proto::connections::v1::{connections_service_client::ConnectionsServiceClient, GetListItemRequest};
use portal_proto::profile::v1::{
    self as pb,
    profile_service_server::{ProfileService, ProfileServiceServer},
};
use portal_proto::refdata::v1::{refdata_service_client::RefdataServiceClient, GetConfigRequest, ListLocationsRequest};
use rules::ProfileRules;
use std::sync::Arc;
use tonic::{Request, Response, Status};
use validate::{AttributeCheck, Fields};

pub use error::ProfileError;

pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Connects storage, migrates, seeds demo data if configured, and binds the service.
pub async fn build(settings: &Settings) -> anyhow::Result<GrpcApp> {
    let db = Db::connect(settings, "profile", &MIGRATOR).await?;
    if settings.demo_data {
        demo::seed(&db, &settings.tenant).await?;
    }
    let cache = ProfileCache::new(Kv::connect(settings).await?.scoped("profile"));
    // Profiles from before member numbers, and the demo members, get theirs; a copy cached
    // without it is dropped (the KV down: it expires within minutes anyway).
    for id in store::member_numbers::backfill(&db, &settings.tenant).await? {
        if let Err(e) = cache.invalidate(&id).await {
            tracing::warn!(error = %e, "a cached profile could not be marked stale after its member number");
        }
    }
    let refdata = RefdataServiceClient::new(portal_common::grpc::channel(&settings.service_url("refdata")?)?);
    let connections = ConnectionsServiceClient::new(portal_common::grpc::channel(&settings.service_url("connections")?)?);
    // One parsed tenant config for both services of this process.
    let config = Arc::new(portal_tenant::Cache::new());
    let (loyalty, jobs) = loyalty::service(&db, settings, refdata.clone(), cache.clone(), config.clone()).await?;
    let svc = Profiles { db, tenant: settings.tenant.clone(), cache, refdata, connections, config, rules_of: Arc::default() };
    let routes = tonic::service::Routes::new(ProfileServiceServer::new(svc)).add_service(loyalty);
    Ok(GrpcApp::bind(settings, "portal.profile.v1.ProfileService", routes).await?.with_background(jobs))
}

#[derive(Clone)]
pub struct Profiles {
    db: Db,
    tenant: String,
    cache: ProfileCache,
    /// The tenant's configuration (profile rules) and locations.
    refdata: RefdataServiceClient<Channel>,
    /// The member's list items, when a purchase is linked to one.
    connections: ConnectionsServiceClient<Channel>,
    /// The tenant config from refdata, parsed once per version (shared with the loyalty service).
    config: Arc<portal_tenant::Cache>,
    rules_of: Arc<portal_tenant::Derived<ProfileRules>>,
}

use portal_common::error::catalogue::{ERROR_ASSIGNING_ITEM as ERR_ASSIGNING, INVALID_ARGUMENTS};

/// How many consent records the member sees.
const HISTORY_LIMIT: i64 = 200;

impl Profiles {
    /// The profile after a write: the cache is marked stale and the answer read from SQL.
    async fn after_write(&self, id: &str) -> Result<Response<pb::Profile>, Status> {
        self.cache.invalidate(id).await?;
        Ok(Response::new(self.cache.profile(&self.db, id).await?))
    }

    /// The tenant's profile rules: the config asked of refdata (an edit applies at once), parsed
    /// and the rules built only when its text changed.
    async fn rules(&self) -> Result<Arc<ProfileRules>, Status> {
        let cfg = self.refdata.clone().get_config(GetConfigRequest {}).await?.into_inner();
        let tenant = self.config.get(&cfg.json).map_err(|e| portal_common::error::internal("tenant config", e))?;
        Ok(self.rules_of.get(&tenant, ProfileRules::from_tenant))
    }

    /// The name of the tenant's store with this location handle, if there is one.
    async fn store_name(&self, handle: &str) -> Result<Option<String>, Status> {
        let r = self.refdata.clone().list_locations(ListLocationsRequest {}).await?.into_inner();
        Ok(r.locations.into_iter().find(|l| l.handle == handle).map(|l| l.name))
    }
}

fn fields_status(f: Fields) -> Status {
    ProfileError::Fields(f.0).into()
}

/// Who made a change, for the consent history: staff acting for the member, or the member.
fn source(c: &Caller) -> &'static str {
    if c.actor.is_some() {
        "staff"
    } else {
        "member"
    }
}

/// Today's date (UTC), for birth dates.
fn today() -> chrono::NaiveDate {
    chrono::Utc::now().date_naive()
}

#[tonic::async_trait]
impl ProfileService for Profiles {
    #[tracing::instrument(skip_all)]
    async fn get_profile(&self, req: Request<pb::GetProfileRequest>) -> Result<Response<pb::Profile>, Status> {
        let c = caller(&req)?;
        Ok(Response::new(self.cache.profile(&self.db, &c.profile_id).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn find_by_email(&self, req: Request<pb::FindByEmailRequest>) -> Result<Response<pb::FindByEmailResponse>, Status> {
        let email = req.into_inner().email.trim().to_lowercase();
        Ok(Response::new(store::profiles::find_by_email(&self.db, &self.tenant, &email).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn create_profile(&self, req: Request<pb::CreateProfileRequest>) -> Result<Response<pb::CreateProfileResponse>, Status> {
        let r = req.into_inner();
        let mut f = Fields::default();
        let first = f.check("first_name", validate::name(&r.first_name));
        let last = f.check("last_name", validate::name(&r.last_name));
        let region = self.rules().await?.country.clone();
        let phone = phone::phone(&r.phone, &region).unwrap_or_else(|m| {
            f.add("phone", &m);
            String::new()
        });
        let birth = f.check("birth_date", validate::birth_date(&r.birth_date, today()));
        if !f.is_empty() {
            return Err(fields_status(f));
        }
        if r.dry_run {
            return Ok(Response::new(pb::CreateProfileResponse { profile_id: String::new() }));
        }
        let email = r.email.trim().to_lowercase();
        let id = store::profiles::create(&self.db, &self.tenant, &email, &first, &last, &phone, &birth).await?;
        Ok(Response::new(pb::CreateProfileResponse { profile_id: id }))
    }

    #[tracing::instrument(skip_all)]
    async fn search_profiles(&self, req: Request<pb::SearchProfilesRequest>) -> Result<Response<pb::SearchProfilesResponse>, Status> {
        let r = req.into_inner();
        let region = self.rules().await?.country.clone();
        let profiles = store::profiles::search(&self.db, &self.tenant, &region, &r.r#type, r.id.trim()).await?;
        Ok(Response::new(pb::SearchProfilesResponse { profiles }))
    }

    #[tracing::instrument(skip_all)]
    async fn change_email(&self, req: Request<pb::ChangeEmailRequest>) -> Result<Response<pb::ProfileSummary>, Status> {
        let r = req.into_inner();
        let email = validate::email(&r.email).map_err(|m| fields_status(Fields::one("email", m)))?;
        let expect = (!r.expect.is_empty()).then_some(r.expect.as_str());
        store::profiles::change_email(&self.db, &self.tenant, &r.profile_id, &email, expect).await?;
        self.after_write(&r.profile_id).await?;
        Ok(Response::new(store::profiles::summary(&self.db, &r.profile_id).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn get_summary(&self, req: Request<pb::GetSummaryRequest>) -> Result<Response<pb::ProfileSummary>, Status> {
        Ok(Response::new(store::profiles::summary(&self.db, &req.into_inner().profile_id).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn list_transactions(&self, req: Request<pb::ListTransactionsRequest>) -> Result<Response<pb::ListTransactionsResponse>, Status> {
        let c = caller(&req)?;
        let r = req.into_inner();
        let q = store::transactions::TransactionQuery {
            page: r.page.max(1),
            per_page: if r.per_page == 0 { 20 } else { r.per_page.min(100) },
            oldest_first: r.oldest_first,
            include_product: r.include_product,
            include_list_item: r.include_list_item,
        };
        Ok(Response::new(store::transactions::transactions(&self.db, &c.profile_id, &q).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn update_profile(&self, req: Request<pb::UpdateProfileRequest>) -> Result<Response<pb::Profile>, Status> {
        let c = Caller::guard_writer(req.metadata()).map_err(ProfileError::from)?;
        let r = req.into_inner();
        let sent = |k: &str| r.set.iter().any(|s| s == k);
        let mut f = Fields::default();
        let mut ch = store::profiles::Changes::default();
        if sent("email") {
            // The sign-in address changes only through the auth service's confirmed change
            // (a code to the new address); sent unchanged, it is nothing to do.
            let email = f.check("email", validate::email(&r.email));
            if !email.is_empty() && email != store::profiles::summary(&self.db, &c.profile_id).await?.email {
                f.add("email", validate::EMAIL_CHANGE_NEEDS_CODE);
            }
        }
        if sent("first_name") {
            ch.first_name = Some(f.check("first_name", validate::name(&r.first_name)));
        }
        if sent("last_name") {
            ch.last_name = Some(f.check("last_name", validate::name(&r.last_name)));
        }
        if sent("phone") {
            let current = self.cache.profile(&self.db, &c.profile_id).await?;
            let country = self.rules().await?.country.clone();
            let sent_address = sent("address").then(|| r.address.clone().unwrap_or_default());
            let region = phone::region_of(sent_address.as_ref(), &current, &country);
            ch.phone = Some(phone::phone(&r.phone, &region).unwrap_or_else(|m| {
                f.add("phone", &m);
                String::new()
            }));
        }
        if sent("birth_date") {
            ch.birth_date = Some(f.check("birth_date", validate::birth_date(&r.birth_date, today())));
        }
        if sent("address") {
            ch.address = Some(validate::address(&r.address.unwrap_or_default(), &mut f));
        }
        if sent("identities") {
            let rules = self.rules().await?;
            ch.identities = Some(validate::identities(&r.identities, &rules, &mut f));
        }
        if !f.is_empty() {
            return Err(fields_status(f));
        }
        store::profiles::update(&self.db, &self.tenant, &c.profile_id, &ch).await?;
        self.after_write(&c.profile_id).await
    }

    #[tracing::instrument(skip_all)]
    async fn set_custom_attribute(&self, req: Request<pb::SetCustomAttributeRequest>) -> Result<Response<pb::Profile>, Status> {
        let c = Caller::guard_writer(req.metadata()).map_err(ProfileError::from)?;
        let r = req.into_inner();
        let rules = self.rules().await?;
        let mut f = Fields::default();
        let value = match validate::custom_attribute(&r.namespace, &r.handle, &r.value, &rules, &mut f) {
            Some(AttributeCheck::Value(v)) => v,
            Some(AttributeCheck::Store(h)) => {
                if !h.is_empty() && self.store_name(&h).await?.is_none() {
                    f.add("value", "Choose one of our stores");
                }
                h
            }
            None => String::new(),
        };
        if !f.is_empty() {
            return Err(fields_status(f));
        }
        store::profiles::set_custom_attribute(&self.db, &c.profile_id, &r.namespace, &r.handle, &value).await?;
        self.after_write(&c.profile_id).await
    }

    #[tracing::instrument(skip_all)]
    async fn update_comms(&self, req: Request<pb::UpdateCommsRequest>) -> Result<Response<pb::Profile>, Status> {
        let c = Caller::guard_writer(req.metadata()).map_err(ProfileError::from)?;
        let comms: std::collections::BTreeMap<String, bool> = req.into_inner().comms.into_iter().collect();
        let rules = self.rules().await?;
        let mut f = Fields::default();
        for key in comms.keys().filter(|k| !rules.is_comms_key(k)) {
            f.add(key, "Unknown messaging preference");
        }
        if !f.is_empty() {
            return Err(fields_status(f));
        }
        store::profiles::update_comms(&self.db, &c.profile_id, &comms, source(&c)).await?;
        self.after_write(&c.profile_id).await
    }

    #[tracing::instrument(skip_all)]
    async fn list_consent_history(
        &self,
        req: Request<pb::ListConsentHistoryRequest>,
    ) -> Result<Response<pb::ListConsentHistoryResponse>, Status> {
        let c = caller(&req)?;
        Ok(Response::new(pb::ListConsentHistoryResponse {
            records: store::profiles::consent_history(&self.db, &c.profile_id, HISTORY_LIMIT).await?,
        }))
    }

    #[tracing::instrument(skip_all)]
    async fn file_claim(&self, req: Request<pb::FileClaimRequest>) -> Result<Response<pb::Claim>, Status> {
        let c = Caller::guard_writer(req.metadata()).map_err(ProfileError::from)?;
        let r = req.into_inner();
        let rules = self.rules().await?;
        let mut f = Fields::default();
        let store = r.store.trim();
        let store_name = if store.is_empty() {
            f.add("store", "Required");
            None
        } else {
            let name = self.store_name(store).await?;
            if name.is_none() {
                f.add("store", "Choose one of our stores");
            }
            name
        };
        let checked = claims::check(&r, &rules, &mut f);
        let (Some(store_name), Some((date, receipt_number, amount_cents)), true) = (store_name, checked, f.is_empty()) else {
            return Err(fields_status(f));
        };
        let claim = claims::NewClaim { store: store.to_string(), store_name, date, receipt_number, amount_cents };
        Ok(Response::new(claims::file(&self.db, &self.tenant, &c.profile_id, &claim, &rules).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn list_claims(&self, req: Request<pb::ListClaimsRequest>) -> Result<Response<pb::ListClaimsResponse>, Status> {
        let c = caller(&req)?;
        let rules = self.rules().await?;
        Ok(Response::new(pb::ListClaimsResponse { claims: claims::list(&self.db, &self.tenant, &c.profile_id, &rules).await? }))
    }

    #[tracing::instrument(skip_all)]
    async fn link_list_item(&self, req: Request<pb::LinkListItemRequest>) -> Result<Response<pb::ListItemLink>, Status> {
        let c = Caller::guard_writer(req.metadata()).map_err(ProfileError::from)?;
        let r = req.into_inner();
        if r.product_list_item_id.trim().is_empty() || r.transaction_item_id.trim().is_empty() {
            return Err(portal_common::error::invalid_fields(
                INVALID_ARGUMENTS,
                &[("product_list_item_id".to_string(), "Required".to_string())].into(),
            ));
        }
        if r.r#type != "link" {
            return Err(portal_common::error::invalid_fields(
                ERR_ASSIGNING,
                &[("type".to_string(), "Only link is supported".to_string())].into(),
            ));
        }
        // The list item must be the caller's own: ask the connections service as the caller.
        let mut ask = Request::new(GetListItemRequest { id: r.product_list_item_id.trim().to_string() });
        c.write_to(ask.metadata_mut());
        let item = match self.connections.clone().get_list_item(ask).await {
            Ok(i) => i.into_inner(),
            Err(s) if s.code() == tonic::Code::NotFound => return Err(Status::not_found(ERR_ASSIGNING)),
            Err(s) => return Err(s),
        };
        let link = pb::ListItemLink { id: item.id, list_id: item.list_id, connection_id: item.connection_id };
        match store::transactions::link_list_item(&self.db, &c.profile_id, r.transaction_item_id.trim(), &link).await {
            Ok(()) => Ok(Response::new(link)),
            Err(ProfileError::NotFound) => Err(Status::not_found(ERR_ASSIGNING)),
            Err(e) => Err(e.into()),
        }
    }

    #[tracing::instrument(skip_all)]
    async fn export_member(&self, req: Request<pb::ExportMemberRequest>) -> Result<Response<pb::MemberExport>, Status> {
        let c = owner(&req)?;
        Ok(Response::new(privacy::export(&self.db, &self.cache, &c.profile_id).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn erase_member(&self, req: Request<pb::EraseMemberRequest>) -> Result<Response<pb::EraseMemberResponse>, Status> {
        let c = owner(&req)?;
        let erased = privacy::erase(&self.db, &self.cache, &self.tenant, &c.profile_id).await?;
        tracing::info!(erased, "member erased from the profile service");
        Ok(Response::new(pb::EraseMemberResponse { erased }))
    }

    #[tracing::instrument(skip_all)]
    async fn set_partner_link(&self, req: Request<pb::SetPartnerLinkRequest>) -> Result<Response<pb::Profile>, Status> {
        let r = req.into_inner();
        if r.profile_id.is_empty() || r.handle.is_empty() || r.namespace.is_empty() {
            return Err(Status::invalid_argument("A partner link needs a profile, a handle and a namespace"));
        }
        let attributes: std::collections::BTreeMap<String, String> = r.attributes.into_iter().collect();
        store::profiles::set_partner_link(&self.db, &r.profile_id, &r.handle, &r.identifier, &r.namespace, &attributes).await?;
        self.after_write(&r.profile_id).await
    }
}
