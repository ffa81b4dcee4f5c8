//! The frequent-flyer service: the member's link to their airline account (checked with the
//! airline's partner API), the airline balance and activity (read from the partner), and the
//! conversion of the member's points to airline points (`convert`). The partner is reached over
//! HTTP (`partner`): the real one at `QFF_API_URL`, or the bundled sandbox the launcher starts.
//! The profile service keeps the link on the profile (identity and `qantas` attributes) and the
//! points ledger; this service asks it over gRPC.
mod convert;
pub mod partner;

use partner::{Partner, PartnerError};
use portal_common::config::Settings;
use portal_common::db::{is_unique_violation, Db};
use portal_common::grpc::Channel;
use portal_common::grpc::GrpcApp;
use portal_common::identity::Caller;
use portal_proto::profile::v1::{
    loyalty_service_client::LoyaltyServiceClient, profile_service_client::ProfileServiceClient, GetProfileRequest, SetPartnerLinkRequest,
};
use portal_proto::qff::v1::{
    self as pb,
    qff_service_server::{QffService, QffServiceServer},
};
use portal_proto::refdata::v1::{refdata_service_client::RefdataServiceClient, GetConfigRequest};
use sqlx::Row;
use std::collections::BTreeMap;
use std::sync::Arc;
use tonic::{Code, Request, Response, Status};

pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

pub const NOT_LINKED: &str = "Link your Frequent Flyer account first";
pub const PARTNER_DOWN: &str = "Qantas Frequent Flyer isn't answering right now. Nothing was changed; please try again in a few minutes.";
const BALANCE_UNAVAILABLE: &str = "Your Qantas Points balance can't be shown right now. Please try again later.";
const UNKNOWN_NUMBER: &str = "We couldn't find a Frequent Flyer account with this number";
const NAME_MISMATCH: &str = "This last name doesn't match the Frequent Flyer account";
const CLOSED: &str = "This Frequent Flyer account is closed";
const TAKEN: &str = "This Frequent Flyer account is already linked to another member";
const UNLINK_FIRST: &str = "Unlink your current Frequent Flyer account first";
const UNLINK_REASONS: &[&str] = &["wrong_account", "not_using", "privacy", "other"];

/// The other demo member's airline account, linked in the demo data (the profile service's demo
/// data links the same number).
const DEMO_LINK: (&str, &str, &str) = ("prf_0000000000000000000000d2", "1900654321", "Other");

pub async fn build(settings: &Settings) -> anyhow::Result<GrpcApp> {
    // The tenant file is checked before anything else: a bad one stops this process at start-up,
    // naming the field (the services read it from refdata afterwards, typed once per version).
    portal_tenant::load(&settings.tenant_config)?;
    let db = Db::connect(settings, "qff", &MIGRATOR).await?;
    if settings.demo_data {
        sqlx::query("INSERT INTO qff_links (profile_id, qff_number, last_name, linked_at) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING")
            .bind(DEMO_LINK.0)
            .bind(DEMO_LINK.1)
            .bind(DEMO_LINK.2)
            .bind(1_768_435_200_i64)
            .execute(&db.pool)
            .await?;
    }
    let profile_channel = portal_common::grpc::channel(&settings.service_url("profile")?)?;
    let qff = Qff {
        db,
        partner: Partner::new(&settings.qff)?,
        refdata: RefdataServiceClient::new(portal_common::grpc::channel(&settings.service_url("refdata")?)?),
        profiles: ProfileServiceClient::new(profile_channel.clone()),
        loyalty: LoyaltyServiceClient::new(profile_channel),
        reconcile_after_secs: settings.qff.reconcile_after_secs,
        tenant: Arc::default(),
    };
    let every = std::time::Duration::from_secs(settings.qff.reconcile_secs.max(1));
    let reconciler = qff.clone();
    let routes = tonic::service::Routes::new(QffServiceServer::new(qff));
    Ok(GrpcApp::bind(settings, "portal.qff.v1.QffService", routes).await?.with_background(async move {
        let mut tick = tokio::time::interval(every);
        loop {
            tick.tick().await;
            match reconciler.reconcile().await {
                Ok(r) if r.completed + r.failed > 0 => {
                    tracing::info!(completed = r.completed, failed = r.failed, pending = r.pending, "conversions settled")
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e.message(), "conversion reconciler"),
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
    reconcile_after_secs: i64,
    /// The tenant config from refdata, parsed once per version.
    tenant: Arc<portal_tenant::Cache>,
}

/// A member's link as this service keeps it.
#[derive(Debug, Clone)]
pub struct Link {
    pub qff_number: String,
    pub last_name: String,
    pub linked_at: i64,
}

fn db_error(e: sqlx::Error) -> Status {
    portal_common::error::internal("frequent-flyer storage", e)
}

fn field(code: Code, message: &str, field: &str) -> Status {
    portal_common::error::field_status(code, message, &[(field.to_string(), message.to_string())].into())
}

/// The answer when the partner can't be reached: 503, and how long to wait (`retry-after`).
fn partner_down(partner: &Partner) -> Status {
    let mut s = Status::unavailable(PARTNER_DOWN);
    if let Ok(v) = partner.retry_after_secs.to_string().parse() {
        s.metadata_mut().insert("retry-after", v);
    }
    s
}

/// What the partner's answer to a check means for the member.
fn check_error(partner: &Partner, e: PartnerError) -> Status {
    match e {
        PartnerError::UnknownMember => field(Code::InvalidArgument, UNKNOWN_NUMBER, "qff_number"),
        PartnerError::NameMismatch => field(Code::InvalidArgument, NAME_MISMATCH, "last_name"),
        PartnerError::Closed => field(Code::InvalidArgument, CLOSED, "qff_number"),
        e if e.is_unavailable() => partner_down(partner),
        e => {
            tracing::warn!(error = %e, "unexpected answer from the airline partner");
            partner_down(partner)
        }
    }
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
    async fn tenant(&self) -> Result<Arc<portal_tenant::Tenant>, Status> {
        let cfg = self.refdata.clone().get_config(GetConfigRequest {}).await?.into_inner();
        self.tenant.get(&cfg.json).map_err(|e| portal_common::error::internal("tenant config", e))
    }

    async fn redemption(&self) -> Result<pb::Redemption, Status> {
        Ok(redemption_from_config(&self.tenant().await?.components.qantas.redemption))
    }

    pub async fn link_of(&self, pid: &str) -> Result<Option<Link>, Status> {
        let row = sqlx::query("SELECT qff_number, last_name, linked_at FROM qff_links WHERE profile_id = $1")
            .bind(pid)
            .fetch_optional(&self.db.pool)
            .await
            .map_err(db_error)?;
        Ok(row.map(|r| Link { qff_number: r.get("qff_number"), last_name: r.get("last_name"), linked_at: r.get("linked_at") }))
    }

    async fn status(&self, pid: &str) -> Result<pb::GetPointsResponse, Status> {
        let redemption = Some(self.redemption().await?);
        let Some(link) = self.link_of(pid).await? else {
            return Ok(pb::GetPointsResponse { redemption, ..Default::default() });
        };
        let (points, partner_error) = match self.partner.member(&link.qff_number).await {
            Ok(m) => (Some(m.points), String::new()),
            Err(e) => {
                tracing::warn!(error = %e, "reading the airline balance");
                (None, BALANCE_UNAVAILABLE.to_string())
            }
        };
        Ok(pb::GetPointsResponse {
            linked: true,
            qff_number: link.qff_number,
            points,
            last_name: link.last_name,
            linked_at: link.linked_at,
            partner_error,
            redemption,
        })
    }

    /// The number as typed (spaces removed), checked for shape, and the last name to check it
    /// with (the member's own when none is given).
    async fn number_and_name(&self, c: &Caller, number: &str, last_name: &str) -> Result<(String, String), Status> {
        let number: String = number.chars().filter(|ch| !ch.is_whitespace()).collect();
        if !((6..=10).contains(&number.len()) && number.chars().all(|ch| ch.is_ascii_digit())) {
            return Err(field(Code::InvalidArgument, "A Frequent Flyer number has 6 to 10 digits", "qff_number"));
        }
        let mut name = last_name.trim().to_string();
        if name.is_empty() {
            let mut ask = Request::new(GetProfileRequest {});
            c.write_to(ask.metadata_mut());
            name = self.profiles.clone().get_profile(ask).await?.into_inner().last_name;
        }
        if name.is_empty() || name.chars().count() > 100 {
            return Err(field(Code::InvalidArgument, "Enter the last name on your Frequent Flyer account", "last_name"));
        }
        Ok((number, name))
    }

    /// Whether another member has linked this airline account.
    async fn linked_elsewhere(&self, pid: &str, number: &str) -> Result<bool, Status> {
        let row = sqlx::query("SELECT profile_id FROM qff_links WHERE qff_number = $1 AND profile_id <> $2")
            .bind(number)
            .bind(pid)
            .fetch_optional(&self.db.pool)
            .await
            .map_err(db_error)?;
        Ok(row.is_some())
    }

    async fn set_profile_link(&self, pid: &str, number: &str, attributes: BTreeMap<String, String>) -> Result<(), Status> {
        let req = SetPartnerLinkRequest {
            profile_id: pid.to_string(),
            handle: "qff_number".into(),
            identifier: number.to_string(),
            namespace: "qantas".into(),
            attributes: attributes.into_iter().collect(),
        };
        self.profiles.clone().set_partner_link(req).await?;
        Ok(())
    }
}

fn member(req: &Request<impl Sized>) -> Result<Caller, Status> {
    Caller::from_metadata(req.metadata())
}

/// The member themselves: the privacy centre refuses staff viewing the account.
fn owner(req: &Request<impl Sized>) -> Result<Caller, Status> {
    let c = member(req)?;
    if c.actor.is_some() {
        return Err(Status::permission_denied(portal_common::token::IMPERSONATION_PRIVACY));
    }
    Ok(c)
}

/// Writes are the member's own: a staff member viewing the account can't make them.
fn writer(req: &Request<impl Sized>) -> Result<Caller, Status> {
    let c = member(req)?;
    if c.actor.is_some() {
        return Err(Status::permission_denied(portal_common::token::IMPERSONATION_READ_ONLY));
    }
    Ok(c)
}

#[tonic::async_trait]
impl QffService for Qff {
    #[tracing::instrument(skip_all)]
    async fn get_points(&self, req: Request<pb::GetPointsRequest>) -> Result<Response<pb::GetPointsResponse>, Status> {
        let c = member(&req)?;
        Ok(Response::new(self.status(&c.profile_id).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn validate(&self, req: Request<pb::ValidateRequest>) -> Result<Response<pb::ValidateResponse>, Status> {
        let c = member(&req)?;
        let r = req.into_inner();
        let (number, name) = self.number_and_name(&c, &r.qff_number, &r.last_name).await?;
        if self.linked_elsewhere(&c.profile_id, &number).await? {
            return Err(field(Code::AlreadyExists, TAKEN, "qff_number"));
        }
        let m = self.partner.verify(&number, &name).await.map_err(|e| check_error(&self.partner, e))?;
        Ok(Response::new(pb::ValidateResponse { qff_number: m.membership_number, first_name: m.first_name, last_name: m.last_name }))
    }

    #[tracing::instrument(skip_all)]
    async fn link(&self, req: Request<pb::LinkRequest>) -> Result<Response<pb::GetPointsResponse>, Status> {
        let c = writer(&req)?;
        let r = req.into_inner();
        let (number, name) = self.number_and_name(&c, &r.qff_number, &r.last_name).await?;
        if let Some(l) = self.link_of(&c.profile_id).await? {
            if l.qff_number == number {
                return Ok(Response::new(self.status(&c.profile_id).await?));
            }
            return Err(field(Code::FailedPrecondition, UNLINK_FIRST, "qff_number"));
        }
        if self.linked_elsewhere(&c.profile_id, &number).await? {
            return Err(field(Code::AlreadyExists, TAKEN, "qff_number"));
        }
        let m = self.partner.verify(&number, &name).await.map_err(|e| check_error(&self.partner, e))?;
        let now = portal_common::now_unix();
        // The unique number decides between two members linking the same account at once.
        let inserted = sqlx::query("INSERT INTO qff_links (profile_id, qff_number, last_name, linked_at) VALUES ($1, $2, $3, $4)")
            .bind(&c.profile_id)
            .bind(&number)
            .bind(&m.last_name)
            .bind(now)
            .execute(&self.db.pool)
            .await;
        match inserted {
            Ok(_) => {}
            Err(e) if is_unique_violation(&e) => {
                // This member linked meanwhile (another tab), or someone else took the number.
                return match self.link_of(&c.profile_id).await? {
                    Some(l) if l.qff_number == number => Ok(Response::new(self.status(&c.profile_id).await?)),
                    Some(_) => Err(field(Code::FailedPrecondition, UNLINK_FIRST, "qff_number")),
                    None => Err(field(Code::AlreadyExists, TAKEN, "qff_number")),
                };
            }
            Err(e) => return Err(db_error(e)),
        }
        let attributes =
            [("qff_joined_at".to_string(), portal_common::rfc3339(now)), ("qff_last_name".to_string(), m.last_name.clone())].into();
        if let Err(s) = self.set_profile_link(&c.profile_id, &number, attributes).await {
            // Keep the two records in step: without the profile's side, no link.
            let _ = sqlx::query("DELETE FROM qff_links WHERE profile_id = $1").bind(&c.profile_id).execute(&self.db.pool).await;
            return Err(if s.code() == Code::AlreadyExists { field(Code::AlreadyExists, TAKEN, "qff_number") } else { s });
        }
        tracing::info!("frequent-flyer account linked");
        Ok(Response::new(self.status(&c.profile_id).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn unlink(&self, req: Request<pb::UnlinkRequest>) -> Result<Response<pb::GetPointsResponse>, Status> {
        let c = writer(&req)?;
        let r = req.into_inner();
        if !UNLINK_REASONS.contains(&r.reason.as_str()) {
            return Err(field(Code::InvalidArgument, "Choose a reason: wrong_account, not_using, privacy or other", "reason"));
        }
        if r.comment.chars().count() > 500 {
            return Err(field(Code::InvalidArgument, "Use at most 500 characters", "comment"));
        }
        let Some(link) = self.link_of(&c.profile_id).await? else {
            return Err(Status::failed_precondition("No Frequent Flyer account is linked"));
        };
        self.set_profile_link(&c.profile_id, "", BTreeMap::new()).await?;
        let mut tx = self.db.begin().await.map_err(db_error)?;
        sqlx::query(
            "INSERT INTO qff_unlinks (id, profile_id, qff_number, reason, comment, linked_at, unlinked_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(portal_common::new_id("unl_"))
        .bind(&c.profile_id)
        .bind(&link.qff_number)
        .bind(&r.reason)
        .bind(r.comment.trim())
        .bind(link.linked_at)
        .bind(portal_common::now_unix())
        .execute(&mut *tx)
        .await
        .map_err(db_error)?;
        sqlx::query("DELETE FROM qff_links WHERE profile_id = $1").bind(&c.profile_id).execute(&mut *tx).await.map_err(db_error)?;
        tx.commit().await.map_err(db_error)?;
        tracing::info!(reason = %r.reason, "frequent-flyer account unlinked");
        Ok(Response::new(self.status(&c.profile_id).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn list_history(&self, req: Request<pb::ListHistoryRequest>) -> Result<Response<pb::ListHistoryResponse>, Status> {
        let c = member(&req)?;
        let r = req.into_inner();
        let link = self.link_of(&c.profile_id).await?.ok_or_else(|| Status::failed_precondition(NOT_LINKED))?;
        let page = self
            .partner
            .activity(&link.qff_number, r.page.max(1), r.per_page.clamp(1, 100))
            .await
            .map_err(|e| check_error(&self.partner, e))?;
        let data = page
            .data
            .into_iter()
            .map(|a| pb::Activity { id: a.id, date: a.date, description: a.description, points: a.points, category: a.category })
            .collect();
        Ok(Response::new(pb::ListHistoryResponse { data, total: page.total }))
    }

    #[tracing::instrument(skip_all)]
    async fn list_conversions(&self, req: Request<pb::ListConversionsRequest>) -> Result<Response<pb::ListConversionsResponse>, Status> {
        let c = member(&req)?;
        Ok(Response::new(pb::ListConversionsResponse { conversions: self.conversions(&c.profile_id, 20).await? }))
    }

    #[tracing::instrument(skip_all)]
    async fn convert(&self, req: Request<pb::ConvertRequest>) -> Result<Response<pb::Conversion>, Status> {
        let c = writer(&req)?;
        let r = req.into_inner();
        Ok(Response::new(self.convert_points(&c, r.points, &r.idempotency_key).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn export_member(&self, req: Request<pb::ExportMemberRequest>) -> Result<Response<pb::MemberExport>, Status> {
        let c = owner(&req)?;
        let link = self.link_of(&c.profile_id).await?.map(|l| pb::LinkRecord {
            qff_number: l.qff_number,
            last_name: l.last_name,
            linked_at: l.linked_at,
        });
        let history = sqlx::query(
            "SELECT qff_number, reason, comment, linked_at, unlinked_at FROM qff_unlinks WHERE profile_id = $1 ORDER BY unlinked_at, id",
        )
        .bind(&c.profile_id)
        .fetch_all(&self.db.pool)
        .await
        .map_err(db_error)?
        .into_iter()
        .map(|r| pb::PastLink {
            qff_number: r.get("qff_number"),
            reason: r.get("reason"),
            comment: r.get("comment"),
            linked_at: r.get("linked_at"),
            unlinked_at: r.get("unlinked_at"),
        })
        .collect();
        let conversions = self.conversions(&c.profile_id, i64::MAX).await?;
        Ok(Response::new(pb::MemberExport { link, history, conversions }))
    }

    /// The link, past links and conversions go in one transaction. A conversion still pending
    /// is given up: its hold stays in the (anonymised) ledger as held.
    #[tracing::instrument(skip_all)]
    async fn erase_member(&self, req: Request<pb::EraseMemberRequest>) -> Result<Response<pb::EraseMemberResponse>, Status> {
        let c = owner(&req)?;
        let mut tx = self.db.begin().await.map_err(db_error)?;
        for sql in [
            "DELETE FROM qff_links WHERE profile_id = $1",
            "DELETE FROM qff_unlinks WHERE profile_id = $1",
            "DELETE FROM qff_conversions WHERE profile_id = $1",
        ] {
            sqlx::query(sql).bind(&c.profile_id).execute(&mut *tx).await.map_err(db_error)?;
        }
        tx.commit().await.map_err(db_error)?;
        tracing::info!("member erased from the frequent-flyer service");
        Ok(Response::new(pb::EraseMemberResponse {}))
    }

    #[tracing::instrument(skip_all)]
    async fn reconcile(&self, _req: Request<pb::ReconcileRequest>) -> Result<Response<pb::ReconcileResponse>, Status> {
        Ok(Response::new(self.reconcile().await?))
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
