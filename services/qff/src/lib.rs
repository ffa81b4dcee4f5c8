//! The frequent-flyer service: the member's link to their airline account (checked with the
//! airline's partner API), the airline balance and activity (read from the partner), and the
//! conversion of the member's points to airline points (`convert`). The partner is reached over
//! HTTP (`partner`): the real one at `QFF_API_URL`, or the bundled sandbox the launcher starts.
//! The profile service keeps the link on the profile (identity and `qantas` attributes) and the
//! points ledger; this service asks it over gRPC.
mod convert;
pub mod error;
mod link;
pub mod partner;
mod store;

pub use error::{QffError, NOT_LINKED, PARTNER_DOWN};
pub use link::LinksSettled;
pub use store::Link;

use partner::Partner;
use portal_common::config::Settings;
use portal_common::db::Db;
use portal_common::grpc::Channel;
use portal_common::grpc::GrpcApp;
use portal_common::identity::{caller, owner, Caller};
use portal_common::lease::Lease;
use portal_proto::profile::v1::{loyalty_service_client::LoyaltyServiceClient, profile_service_client::ProfileServiceClient};
use portal_proto::qff::v1::{
    self as pb,
    qff_service_server::{QffService, QffServiceServer},
};
use portal_proto::refdata::v1::{refdata_service_client::RefdataServiceClient, GetConfigRequest};
use std::sync::Arc;
use tonic::{Request, Response, Status};

pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// The lease the background reconciler takes, so one replica runs it per period.
pub const RECONCILER_LEASE: &str = "qff-reconciler";

/// The other demo member's airline account, linked in the demo data (the profile service's demo
/// data links the same number).
const DEMO_LINK: (&str, &str, &str) = ("prf_0000000000000000000000d2", "1900654321", "Other");

pub async fn build(settings: &Settings) -> anyhow::Result<GrpcApp> {
    let db = Db::connect(settings, "qff", &MIGRATOR).await?;
    let every = std::time::Duration::from_secs(settings.qff.reconcile_secs.max(1));
    if settings.demo_data {
        store::seed_link(&db, DEMO_LINK.0, DEMO_LINK.1, DEMO_LINK.2, 1_768_435_200).await?;
    }
    let profile_channel = portal_common::grpc::channel(&settings.service_url("profile")?)?;
    let qff = Qff {
        db: db.clone(),
        partner: Partner::new(&settings.qff)?,
        refdata: RefdataServiceClient::new(portal_common::grpc::channel(&settings.service_url("refdata")?)?),
        profiles: ProfileServiceClient::new(profile_channel.clone()),
        loyalty: LoyaltyServiceClient::new(profile_channel),
        reconcile_after_secs: settings.qff.reconcile_after_secs,
        tenant: Arc::default(),
        // Kept over a few periods, so the holder goes on reconciling; a dead one's passes on.
        lease: Lease::new(&db, RECONCILER_LEASE, every * 3),
    };
    let reconciler = qff.clone();
    let routes = tonic::service::Routes::new(QffServiceServer::new(qff));
    Ok(GrpcApp::bind(settings, "portal.qff.v1.QffService", routes).await?.with_background(async move {
        let mut tick = tokio::time::interval(every);
        loop {
            tick.tick().await;
            // One replica reconciles per period: the one holding the lease (it renews it each time).
            match reconciler.lease.run_if_held(|| reconciler.reconcile_pass()).await {
                Ok(Some(())) => {}
                // Another replica reconciles: what this one last measured is not news any more.
                Ok(None) if portal_common::metrics::enabled() => metrics::gauge!("qff_pending_oldest_age_seconds").set(0.0),
                Ok(None) => {}
                Err(e) => tracing::warn!(error = %e, "taking the reconciler's lease"),
            }
        }
    }))
}

#[derive(Clone)]
pub struct Qff {
    db: Db,
    partner: Partner,
    refdata: RefdataServiceClient<Channel>,
    profiles: ProfileServiceClient<Channel>,
    loyalty: LoyaltyServiceClient<Channel>,
    /// A pending conversion or link is left this long before the reconciler asks about it.
    reconcile_after_secs: i64,
    /// The tenant config from refdata, parsed once per version.
    tenant: Arc<portal_tenant::Cache>,
    /// The reconciler's lease; its holder id also names this instance's claims on the rows it
    /// settles.
    lease: Lease,
}

/// The conversion rules from the tenant config (`components.qantas.redemption`; block sizes over
/// 0 when it is on, checked when the config was loaded).
pub fn redemption_from_config(r: &portal_tenant::Redemption) -> pb::Redemption {
    match r.kind {
        portal_tenant::RedemptionKind::Points => {
            pb::Redemption { r#type: "points".into(), block_size: r.block_size, airline_points_per_block: r.airline_points_per_block }
        }
        portal_tenant::RedemptionKind::Off => pb::Redemption { r#type: "off".into(), block_size: 0, airline_points_per_block: 0 },
    }
}

impl Qff {
    /// The tenant config, typed: asked of refdata (so an edit applies at once), parsed only when
    /// its text changed.
    async fn tenant(&self) -> Result<Arc<portal_tenant::Tenant>, QffError> {
        let cfg = self.refdata.clone().get_config(GetConfigRequest {}).await?.into_inner();
        Ok(self.tenant.get(&cfg.json)?)
    }

    async fn redemption(&self) -> Result<pb::Redemption, QffError> {
        Ok(redemption_from_config(&self.tenant().await?.components.qantas.redemption))
    }

    /// The member's link (a pending one included: it reads as linked).
    pub async fn link_of(&self, pid: &str) -> Result<Option<Link>, QffError> {
        store::link_of(&self.db, pid).await
    }

    /// Both reconcilers once: the conversions the airline did not answer (the answer counts
    /// those), then the links whose profile side is unknown.
    pub async fn reconcile(&self) -> Result<pb::ReconcileResponse, QffError> {
        let out = self.reconcile_conversions().await?;
        self.reconcile_links().await?;
        Ok(out)
    }

    /// One pass of the background reconciler: both reconcilers, what they settled logged.
    async fn reconcile_pass(&self) {
        let conversions = self.reconcile_conversions().await;
        if portal_common::metrics::enabled() {
            let outcome = if conversions.is_ok() { "ok" } else { "error" };
            metrics::counter!("qff_reconcile_runs_total", "outcome" => outcome).increment(1);
        }
        match conversions {
            Ok(r) if r.completed + r.failed > 0 => {
                tracing::info!(completed = r.completed, failed = r.failed, pending = r.pending, "conversions settled")
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "conversion reconciler"),
        }
        match self.reconcile_links().await {
            Ok(r) if r.confirmed + r.removed > 0 => {
                tracing::info!(confirmed = r.confirmed, removed = r.removed, pending = r.pending, "pending links settled")
            }
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "link reconciler"),
        }
    }
}

#[tonic::async_trait]
impl QffService for Qff {
    #[tracing::instrument(skip_all)]
    async fn get_points(&self, req: Request<pb::GetPointsRequest>) -> Result<Response<pb::GetPointsResponse>, Status> {
        let c = caller(&req)?;
        Ok(Response::new(self.status(&c.profile_id).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn validate(&self, req: Request<pb::ValidateRequest>) -> Result<Response<pb::ValidateResponse>, Status> {
        let c = caller(&req)?;
        let r = req.into_inner();
        Ok(Response::new(self.check_account(&c, &r.qff_number, &r.last_name).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn link(&self, req: Request<pb::LinkRequest>) -> Result<Response<pb::GetPointsResponse>, Status> {
        let c = Caller::guard_writer(req.metadata()).map_err(QffError::from)?;
        let r = req.into_inner();
        Ok(Response::new(self.link_account(&c, &r.qff_number, &r.last_name).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn unlink(&self, req: Request<pb::UnlinkRequest>) -> Result<Response<pb::GetPointsResponse>, Status> {
        let c = Caller::guard_writer(req.metadata()).map_err(QffError::from)?;
        let r = req.into_inner();
        Ok(Response::new(self.unlink_account(&c, &r.reason, &r.comment).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn list_history(&self, req: Request<pb::ListHistoryRequest>) -> Result<Response<pb::ListHistoryResponse>, Status> {
        let c = caller(&req)?;
        let r = req.into_inner();
        Ok(Response::new(self.history(&c.profile_id, r.page, r.per_page).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn list_conversions(&self, req: Request<pb::ListConversionsRequest>) -> Result<Response<pb::ListConversionsResponse>, Status> {
        let c = caller(&req)?;
        Ok(Response::new(pb::ListConversionsResponse { conversions: self.conversions(&c.profile_id, 20).await? }))
    }

    #[tracing::instrument(skip_all)]
    async fn convert(&self, req: Request<pb::ConvertRequest>) -> Result<Response<pb::Conversion>, Status> {
        let c = Caller::guard_writer(req.metadata()).map_err(QffError::from)?;
        let r = req.into_inner();
        Ok(Response::new(self.convert_points(&c, r.points, &r.idempotency_key).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn export_member(&self, req: Request<pb::ExportMemberRequest>) -> Result<Response<pb::MemberExport>, Status> {
        let c = owner(&req)?;
        let link = store::link_of(&self.db, &c.profile_id).await?.map(|l| pb::LinkRecord {
            qff_number: l.qff_number,
            last_name: l.last_name,
            linked_at: l.linked_at,
        });
        let history = store::past_links(&self.db, &c.profile_id).await?;
        let conversions = self.conversions(&c.profile_id, i64::MAX).await?;
        Ok(Response::new(pb::MemberExport { link, history, conversions }))
    }

    /// The link, past links and conversions go in one transaction. A conversion still pending
    /// is given up: its hold stays in the (anonymised) ledger as held.
    #[tracing::instrument(skip_all)]
    async fn erase_member(&self, req: Request<pb::EraseMemberRequest>) -> Result<Response<pb::EraseMemberResponse>, Status> {
        let c = owner(&req)?;
        store::erase(&self.db, &c.profile_id).await?;
        tracing::info!("member erased from the frequent-flyer service");
        Ok(Response::new(pb::EraseMemberResponse {}))
    }

    #[tracing::instrument(skip_all)]
    async fn reconcile(&self, _req: Request<pb::ReconcileRequest>) -> Result<Response<pb::ReconcileResponse>, Status> {
        Ok(Response::new(Qff::reconcile(self).await?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redemption_rules_come_from_the_tenant_config() {
        let cfg = portal_tenant::Tenant::from_json(
            r#"{"general": {"tenant": "t"}, "components": {"qantas": {"redemption": {"type": "points", "blockSize": 1000, "airlinePointsPerBlock": 500}}}}"#,
        )
        .unwrap();
        let r = redemption_from_config(&cfg.components.qantas.redemption);
        assert_eq!((r.r#type.as_str(), r.block_size, r.airline_points_per_block), ("points", 1000, 500));
        let off = redemption_from_config(&portal_tenant::Redemption { block_size: 1000, ..Default::default() });
        assert_eq!((off.r#type.as_str(), off.block_size), ("off", 0), "conversion is off unless the tenant says points");
        let no_blocks = r#"{"general": {"tenant": "t"}, "components": {"qantas": {"redemption": {"type": "points"}}}}"#;
        assert_eq!(portal_tenant::Tenant::from_json(no_blocks).unwrap_err().path, "components.qantas.redemption.blockSize");
    }
}
