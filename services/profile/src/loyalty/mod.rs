//! The loyalty part of the profile service, served beside it as `LoyaltyService`: the points
//! ledger (`ledger`), expiry (a job inside the service, on start and then periodically, and
//! before any read or write of a member's points), tiers (`tiers`), rewards and redemption
//! (`rewards`) and offers (`offers`), with tables of their own (migration 0005). Member-scoped
//! RPCs take the profile id from the caller's metadata only.
mod demo;
pub mod ledger;
mod offers;
mod page;
mod rewards;
pub mod rules;
mod tiers;

use crate::cache::ProfileCache;
use crate::error::ProfileError;
use ledger::{Credit, Debit, Source};
use portal_common::config::Settings;
use portal_common::db::Db;
use portal_common::grpc::Channel;
use portal_common::identity::{caller, Caller};
use portal_common::lease::Lease;
use portal_proto::profile::v1::{
    self as pb,
    loyalty_service_server::{LoyaltyService, LoyaltyServiceServer},
};
use portal_proto::refdata::v1::{refdata_service_client::RefdataServiceClient, GetConfigRequest};
use rules::LoyaltyRules;
use std::sync::Arc;
use std::time::Duration;
use tonic::{Request, Response, Status};

pub const DAY: i64 = 86_400;

/// The service, and its background work (expiry and tier reviews) for the caller to run while
/// it serves. Seeds the demo's loyalty history first when configured.
pub async fn service(
    db: &Db,
    settings: &Settings,
    refdata: RefdataServiceClient<Channel>,
    cache: ProfileCache,
    config: Arc<portal_tenant::Cache>,
) -> anyhow::Result<(LoyaltyServiceServer<Loyalty>, impl std::future::Future<Output = ()> + Send + 'static)> {
    if settings.demo_data {
        demo::seed(db, &settings.tenant).await?;
    }
    let svc = Loyalty { db: db.clone(), tenant: settings.tenant.clone(), refdata, cache, config, rules_of: Arc::default() };
    let jobs = svc.clone().jobs();
    Ok((LoyaltyServiceServer::new(svc), jobs))
}

#[derive(Clone)]
pub struct Loyalty {
    db: Db,
    tenant: String,
    refdata: RefdataServiceClient<Channel>,
    /// The profile's stored tier is part of the cached profile.
    cache: ProfileCache,
    /// The tenant config from refdata, parsed once per version (shared with the profile service).
    config: Arc<portal_tenant::Cache>,
    rules_of: Arc<portal_tenant::Derived<LoyaltyRules>>,
}

/// The lease that makes the loyalty beat (expiry, tier reviews, clean-up) one replica's job.
const POINTS_EXPIRY_LEASE: &str = "profile-points-expiry";

fn now() -> i64 {
    portal_common::now_unix()
}

impl Loyalty {
    /// The tenant's loyalty rules: the config asked of refdata (an edit applies at once), parsed
    /// and the rules built only when its text changed.
    async fn rules(&self) -> Result<Arc<LoyaltyRules>, Status> {
        let cfg = self.refdata.clone().get_config(GetConfigRequest {}).await?.into_inner();
        let tenant = self.config.get(&cfg.json).map_err(|e| portal_common::error::internal("tenant config", e))?;
        Ok(self.rules_of.get(&tenant, LoyaltyRules::from_tenant))
    }

    /// Expiry runs on start, then every `expiryJobSeconds`; tiers due for a review and kept
    /// answers past their time are dealt with on the same beat. A failed run is logged and
    /// tried again on the next beat.
    ///
    /// With several replicas the beat runs on one of them: the instance holding the
    /// `profile-points-expiry` lease (portal_common::lease, three beats long, renewed each beat).
    /// The effects are safe to repeat anyway (an expiry is posted once per lot, under its member's
    /// lock), so the lease saves the work, not the points.
    async fn jobs(self) {
        // The indexes the flat reads want, built online beside serving (slower reads until then).
        let db = self.db.clone();
        tokio::spawn(async move {
            if let Err(e) = db.build_online_indexes(crate::store::ledger::ONLINE_INDEXES, &[]).await {
                tracing::warn!(error = %e, "the ledger's indexes could not be built; tried again at the next start");
            }
        });
        let mut lease = Lease::new(&self.db, POINTS_EXPIRY_LEASE, Duration::from_secs(180));
        let mut every: u64 = 60;
        loop {
            lease.set_ttl(Duration::from_secs(every.saturating_mul(3).max(30)));
            every = match lease.run_if_held(|| self.run_jobs(now())).await {
                Ok(Some(Ok((rules, entries, points)))) => {
                    if entries > 0 {
                        tracing::info!(entries, points, "expired points");
                    }
                    rules.expiry_job_seconds
                }
                // Another replica holds the lease: look again on the next beat.
                Ok(None) => self.rules().await.map(|r| r.expiry_job_seconds).unwrap_or(60),
                Ok(Some(Err(e))) => {
                    tracing::warn!(error = %e, "loyalty jobs");
                    60
                }
                Err(e) => {
                    tracing::warn!(error = %e, "loyalty jobs: the lease could not be taken");
                    60
                }
            };
            tokio::time::sleep(Duration::from_secs(every)).await;
        }
    }

    async fn run_jobs(&self, now: i64) -> Result<(Arc<LoyaltyRules>, i64, i64), Status> {
        let folded = ledger::fold_unfolded(&self.db).await?;
        if folded > 0 {
            tracing::info!(folded, "balance checkpoints made for accounts from before them");
        }
        let (entries, points) = ledger::expire_all(&self.db, now).await?;
        let rules = self.rules().await?;
        if !rules.tiers.levels.is_empty() {
            loop {
                let due = tiers::due_for_review(&self.db, now, 200).await?;
                if due.is_empty() {
                    break;
                }
                for pid in due {
                    self.review_tier(&pid, &rules, now).await?;
                }
            }
        }
        rewards::forget_old_answers(&self.db, now).await?;
        Ok((rules, entries, points))
    }

    /// Works out the member's tier and records it on the profile (and the next review).
    async fn review_tier(&self, pid: &str, rules: &LoyaltyRules, now: i64) -> Result<Option<tiers::Status>, Status> {
        let Some(st) = tiers::member_status(&self.db, pid, rules, now).await? else { return Ok(None) };
        if tiers::needs_recording(&self.db, pid, rules, &st, now).await? && tiers::record(&self.db, pid, rules, &st).await? {
            self.cache.invalidate(pid).await?;
        }
        Ok(Some(st))
    }

    /// A page of the member's ledger (due points expired first), by number or after a cursor,
    /// with the cursor of the page after it.
    async fn points_page(
        &self,
        pid: &str,
        page: u32,
        per_page: u32,
        newest_first: bool,
        cursor: Option<page::Cursor>,
    ) -> Result<pb::ListPointsResponse, ProfileError> {
        let per_page = if per_page == 0 { 20 } else { per_page.min(100) };
        let after = match cursor {
            Some(c) => Some((c.at, c.key.parse().map_err(|_| ProfileError::field("cursor", page::NOT_OURS))?)),
            None => None,
        };
        ledger::expire_member(&self.db, pid, now()).await?;
        let (list, total) = ledger::entries(&self.db, pid, page, per_page, newest_first, after).await?;
        let last = list.last().map(|e| (e.issued_at, e.seq.to_string()));
        let next_cursor = page::Cursor::next(page, per_page, list.len(), total, newest_first, last);
        let entries = list.into_iter().map(pb::PointsEntry::from).collect();
        Ok(pb::ListPointsResponse { entries, page, per_page, total, next_cursor })
    }

    /// The member's points after any that are due have expired.
    async fn balance(&self, pid: &str, now: i64) -> Result<i64, ProfileError> {
        ledger::balance_now(&self.db, pid, now).await
    }
}

fn tier(level: &rules::TierLevel, current: bool) -> pb::Tier {
    pb::Tier { handle: level.handle.clone(), name: level.name.default_text().to_owned(), threshold: level.threshold, current }
}

/// Groups lots by the day (in the tenant's zone) they expire: (points, day, first moment).
fn by_day(lots: &[(i64, i64)], zone: chrono_tz::Tz, limit: usize) -> Vec<pb::Expiring> {
    let mut out: Vec<pb::Expiring> = Vec::new();
    for &(points, at) in lots {
        let Some(day) = chrono::DateTime::from_timestamp(at, 0).map(|t| t.with_timezone(&zone).format("%Y-%m-%d").to_string()) else {
            continue;
        };
        if let Some(last) = out.last_mut().filter(|l| l.date == day) {
            last.points += points;
        } else if out.len() == limit {
            break;
        } else {
            out.push(pb::Expiring { points, date: day, expires_at: at });
        }
    }
    out
}

#[tonic::async_trait]
impl LoyaltyService for Loyalty {
    #[tracing::instrument(skip_all)]
    async fn get_balances(&self, req: Request<pb::GetBalancesRequest>) -> Result<Response<pb::Balances>, Status> {
        let c = caller(&req)?;
        let points = self.balance(&c.profile_id, now()).await?;
        Ok(Response::new(pb::Balances { points, currency: "AUD".into() }))
    }

    #[tracing::instrument(skip_all)]
    async fn list_points(&self, req: Request<pb::ListPointsRequest>) -> Result<Response<pb::ListPointsResponse>, Status> {
        let c = caller(&req)?;
        let r = req.into_inner();
        Ok(Response::new(self.points_page(&c.profile_id, r.page.max(1), r.per_page, r.newest_first, None).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn list_points_after(&self, req: Request<pb::ListPointsAfterRequest>) -> Result<Response<pb::ListPointsResponse>, Status> {
        let c = caller(&req)?;
        let r = req.into_inner();
        let cursor = page::Cursor::parse(&r.cursor, r.newest_first)?.ok_or(ProfileError::field("cursor", page::NOT_OURS))?;
        Ok(Response::new(self.points_page(&c.profile_id, cursor.page, r.per_page, r.newest_first, Some(cursor)).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn list_expiring(&self, req: Request<pb::ListExpiringRequest>) -> Result<Response<pb::ListExpiringResponse>, Status> {
        let c = caller(&req)?;
        let (rules, now) = (self.rules().await?, now());
        ledger::expire_member(&self.db, &c.profile_id, now).await?;
        let lots = ledger::expiring_lots(&self.db, &c.profile_id, now, 1000).await?;
        Ok(Response::new(pb::ListExpiringResponse { expiring: by_day(&lots, rules.zone, 3) }))
    }

    #[tracing::instrument(skip_all)]
    async fn list_tiers(&self, req: Request<pb::ListTiersRequest>) -> Result<Response<pb::ListTiersResponse>, Status> {
        let c = caller(&req)?;
        let rules = self.rules().await?;
        let current = self.review_tier(&c.profile_id, &rules, now()).await?.map(|s| s.current);
        let tiers = rules.tiers.levels.iter().enumerate().map(|(i, l)| tier(l, Some(i) == current)).collect();
        Ok(Response::new(pb::ListTiersResponse { tiers }))
    }

    #[tracing::instrument(skip_all)]
    async fn get_tier_progress(&self, req: Request<pb::GetTierProgressRequest>) -> Result<Response<pb::TierProgress>, Status> {
        let c = caller(&req)?;
        let rules = self.rules().await?;
        let Some(st) = self.review_tier(&c.profile_id, &rules, now()).await? else {
            return Err(Status::not_found("This programme has no tiers"));
        };
        let levels = &rules.tiers.levels;
        Ok(Response::new(pb::TierProgress {
            measure: rules.tiers.measure.as_str().into(),
            window_days: rules.tiers.window_days,
            qualifying: st.qualifying,
            current: Some(tier(&levels[st.current], true)),
            next: st.next.map(|n| tier(&levels[n], false)),
            needed: st.needed,
            progress_percent: st.progress_percent,
            kept_until: st.kept_until.unwrap_or(0),
        }))
    }

    #[tracing::instrument(skip_all)]
    async fn list_rewards(&self, req: Request<pb::ListRewardsRequest>) -> Result<Response<pb::ListRewardsResponse>, Status> {
        let c = caller(&req)?;
        Ok(Response::new(pb::ListRewardsResponse { rewards: rewards::list(&self.db, &c.profile_id, now()).await? }))
    }

    #[tracing::instrument(skip_all)]
    async fn get_reward(&self, req: Request<pb::GetRewardRequest>) -> Result<Response<pb::Reward>, Status> {
        let c = caller(&req)?;
        Ok(Response::new(rewards::get(&self.db.pool, &c.profile_id, req.into_inner().id, now()).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn list_catalogue(&self, req: Request<pb::ListCatalogueRequest>) -> Result<Response<pb::ListCatalogueResponse>, Status> {
        let c = caller(&req)?;
        let rules = self.rules().await?;
        let balance = self.balance(&c.profile_id, now()).await?;
        Ok(Response::new(pb::ListCatalogueResponse { items: rewards::catalogue(&rules, balance) }))
    }

    #[tracing::instrument(skip_all)]
    async fn redeem(&self, req: Request<pb::RedeemRequest>) -> Result<Response<pb::Redemption>, Status> {
        let c = Caller::guard_writer(req.metadata()).map_err(ProfileError::from)?;
        let r = req.into_inner();
        let rules = self.rules().await?;
        match rewards::redeem(&self.db, &c.profile_id, &r.idempotency_key, r.catalogue_id.trim(), &rules, now()).await {
            Ok(done) => Ok(Response::new(done)),
            Err(ProfileError::NotEnoughPoints) => Err(Status::failed_precondition(rewards::NOT_ENOUGH)),
            Err(e) => Err(e.into()),
        }
    }

    #[tracing::instrument(skip_all)]
    async fn list_benefits(&self, req: Request<pb::ListBenefitsRequest>) -> Result<Response<pb::ListBenefitsResponse>, Status> {
        let c = caller(&req)?;
        Ok(Response::new(pb::ListBenefitsResponse { benefits: offers::list(&self.db, &c.profile_id, now()).await? }))
    }

    #[tracing::instrument(skip_all)]
    async fn activate_benefit(&self, req: Request<pb::ActivateBenefitRequest>) -> Result<Response<pb::Benefit>, Status> {
        let c = Caller::guard_writer(req.metadata()).map_err(ProfileError::from)?;
        Ok(Response::new(offers::activate(&self.db, &c.profile_id, req.into_inner().id, now()).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn get_benefit_definition(
        &self,
        req: Request<pb::GetBenefitDefinitionRequest>,
    ) -> Result<Response<pb::BenefitDefinition>, Status> {
        caller(&req)?;
        Ok(Response::new(offers::definition(&self.db, &self.tenant, req.into_inner().id).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn adjust_points(&self, req: Request<pb::AdjustPointsRequest>) -> Result<Response<pb::AdjustPointsResponse>, Status> {
        let r = req.into_inner();
        let source = match Source::parse(&r.source) {
            Some(s @ (Source::Staff | Source::Import)) => s,
            _ => return Err(ProfileError::field("source", "Use staff or import").into()),
        };
        if r.reference.trim().is_empty() || r.points == 0 {
            return Err(ProfileError::field("reference", "An adjustment needs points and a reference").into());
        }
        crate::store::profiles::summary(&self.db, &r.profile_id).await?;
        let (rules, now) = (self.rules().await?, now());
        let mut tx = self.db.begin().await.map_err(ProfileError::from)?;
        let posted = if r.points > 0 {
            let credit =
                Credit { source, reason: &r.reason, reference: &r.reference, points: r.points, at: now, expires_at: rules.expiry_for(now) };
            ledger::credit(&mut tx, &r.profile_id, &credit).await?
        } else {
            ledger::debit(&mut tx, &r.profile_id, &Debit { source, reason: &r.reason, reference: &r.reference, points: -r.points, at: now })
                .await?
        };
        let balance = ledger::balance(&mut *tx, &r.profile_id).await?;
        tx.commit().await.map_err(ProfileError::from)?;
        Ok(Response::new(pb::AdjustPointsResponse { entry_id: posted.id, balance, created: posted.created }))
    }

    #[tracing::instrument(skip_all)]
    async fn run_expiry(&self, _req: Request<pb::RunExpiryRequest>) -> Result<Response<pb::RunExpiryResponse>, Status> {
        let (_, entries, points) = self.run_jobs(now()).await?;
        Ok(Response::new(pb::RunExpiryResponse { entries, points }))
    }

    #[tracing::instrument(skip_all)]
    async fn hold_points(&self, req: Request<pb::HoldPointsRequest>) -> Result<Response<pb::HoldPointsResponse>, Status> {
        let r = req.into_inner();
        if r.reference.trim().is_empty() || r.points <= 0 {
            return Err(ProfileError::field("points", "A hold needs a positive number of points and a reference").into());
        }
        crate::store::profiles::summary(&self.db, &r.profile_id).await?;
        let mut tx = self.db.begin().await.map_err(ProfileError::from)?;
        let hold = Debit { source: Source::Conversion, reason: &r.reason, reference: &r.reference, points: r.points, at: now() };
        let posted = ledger::hold(&mut tx, &r.profile_id, &hold).await?;
        let balance = ledger::balance(&mut *tx, &r.profile_id).await?;
        tx.commit().await.map_err(ProfileError::from)?;
        Ok(Response::new(pb::HoldPointsResponse { entry_id: posted.id, balance, created: posted.created }))
    }

    #[tracing::instrument(skip_all)]
    async fn settle_hold(&self, req: Request<pb::SettleHoldRequest>) -> Result<Response<pb::SettleHoldResponse>, Status> {
        let r = req.into_inner();
        let how = if r.confirm { ledger::Settlement::Confirmed } else { ledger::Settlement::Released };
        let mut tx = self.db.begin().await.map_err(ProfileError::from)?;
        let posted = match ledger::settle(&mut tx, &r.profile_id, &r.reference, how, now()).await {
            Err(ProfileError::NotFound) => return Err(Status::not_found("No hold has this reference")),
            other => other?,
        };
        let balance = ledger::balance(&mut *tx, &r.profile_id).await?;
        tx.commit().await.map_err(ProfileError::from)?;
        Ok(Response::new(pb::SettleHoldResponse { entry_id: posted.id, balance, created: posted.created }))
    }

    #[tracing::instrument(skip_all)]
    async fn use_reward(&self, req: Request<pb::UseRewardRequest>) -> Result<Response<pb::Reward>, Status> {
        Ok(Response::new(rewards::use_code(&self.db, &self.tenant, &req.into_inner().code, now()).await?))
    }
}

/// The member's loyalty side for the data export: every ledger entry (oldest first), every
/// reward and every offer.
pub(crate) async fn export(
    db: &Db,
    pid: &str,
    now: i64,
) -> Result<(Vec<pb::PointsEntry>, Vec<pb::Reward>, Vec<pb::Benefit>), ProfileError> {
    let entries = ledger::all_entries(db, pid, 1000).await?;
    let ledger = entries.into_iter().map(pb::PointsEntry::from).collect();
    Ok((ledger, crate::store::rewards::all(db, pid, now).await?, offers::all(db, pid).await?))
}

#[cfg(test)]
mod scale_tests;
#[cfg(test)]
mod tests;
