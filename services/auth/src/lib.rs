//! The auth service: sign-in by one-time link or code, session tokens, logout, staff search and
//! impersonation. One-time secrets live in the KV only as hashes and are redeemed with an atomic
//! take, so each works exactly once however many requests race for it. Every sign-in and code
//! route is rate limited per address and per client IP. Without the KV (Redis down) nothing can
//! be counted or checked, so these routes refuse with `Unavailable` (503, `Retry-After`).
//!
//! This file only wires the service: each RPC takes its caller and hands over to a capability
//! module (`signin`, `register`, `staff`, `live`, `privacy`, `email_change`, `keys`), whose SQL
//! is in `store`.
mod activity;
mod delivery;
mod device;
mod email_change;
mod error;
mod keys;
mod links;
mod live;
mod privacy;
mod redirect;
mod register;
mod signin;
mod staff;
mod state;
mod store;

use delivery::Delivery;
use error::AuthError;
use portal_common::config::Settings;
use portal_common::db::Db;
use portal_common::grpc::GrpcApp;
use portal_common::identity::Caller;
use portal_common::kv::Kv;
use portal_proto::auth::v1::{
    self as pb,
    auth_service_server::{AuthService, AuthServiceServer},
};
use portal_proto::profile::v1::profile_service_client::ProfileServiceClient;
use portal_proto::refdata::v1::refdata_service_client::RefdataServiceClient;
use state::{origin, reload_keys, Inner};
use std::sync::{Arc, RwLock};
use tonic::{Request, Response, Status};

pub use keys::current_signer;
pub use register::REGISTERED;
pub use signin::{CODE_SENT, LINK_SENT, MAX_CODE_ATTEMPTS, SMS_OFF};
pub use staff::STAFF_DEMO_ID;

pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

pub async fn build(settings: &Settings) -> anyhow::Result<GrpcApp> {
    let db = Db::connect(settings, "auth", &MIGRATOR).await?;
    let kv = Kv::connect(settings).await?.scoped("auth");
    if settings.demo_data {
        store::staff::seed_demo(&db, &settings.tenant, STAFF_DEMO_ID).await?;
    }
    let keys = RwLock::new(keys::load_or_create(&db).await?);
    let profiles = ProfileServiceClient::new(portal_common::grpc::channel(&settings.service_url("profile")?)?);
    let refdata = RefdataServiceClient::new(portal_common::grpc::channel(&settings.service_url("refdata")?)?);
    let delivery = Delivery::new(settings, &db)?;
    let public_url = url::Url::parse(&settings.public_url).map_err(|e| anyhow::anyhow!("PORTAL_PUBLIC_URL: {e}"))?;
    let geo = portal_geo::GeoIp::open(settings)?;
    let inner = Arc::new(Inner {
        db,
        kv,
        keys,
        profiles,
        refdata,
        delivery,
        public_url,
        geo,
        settings: settings.clone(),
        config: Default::default(),
    });
    tokio::spawn(reload_keys(Arc::downgrade(&inner)));
    let routes = tonic::service::Routes::new(AuthServiceServer::new(Auth { inner }));
    GrpcApp::bind(settings, "portal.auth.v1.AuthService", routes).await
}

#[derive(Clone)]
struct Auth {
    inner: Arc<Inner>,
}

#[tonic::async_trait]
impl AuthService for Auth {
    #[tracing::instrument(skip_all)]
    async fn request_magic_link(
        &self,
        req: Request<pb::RequestMagicLinkRequest>,
    ) -> Result<Response<pb::RequestMagicLinkResponse>, Status> {
        let ip = Caller::client_ip(req.metadata());
        Ok(Response::new(self.inner.request_link(req.into_inner(), ip.as_deref()).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn exchange_link_token(&self, req: Request<pb::ExchangeLinkTokenRequest>) -> Result<Response<pb::SessionToken>, Status> {
        let (ip, from) = (Caller::client_ip(req.metadata()), origin(req.metadata()));
        Ok(Response::new(self.inner.exchange(req.into_inner().token, ip.as_deref(), &from).await?))
    }

    async fn get_verification_keys(
        &self,
        _req: Request<pb::GetVerificationKeysRequest>,
    ) -> Result<Response<pb::GetVerificationKeysResponse>, Status> {
        Ok(Response::new(self.inner.verification_keys()))
    }

    async fn list_outbox(&self, req: Request<pb::ListOutboxRequest>) -> Result<Response<pb::ListOutboxResponse>, Status> {
        Ok(Response::new(pb::ListOutboxResponse { messages: self.inner.list_outbox(req.into_inner().limit).await? }))
    }

    #[tracing::instrument(skip_all)]
    async fn check_availability(
        &self,
        req: Request<pb::CheckAvailabilityRequest>,
    ) -> Result<Response<pb::CheckAvailabilityResponse>, Status> {
        let ip = Caller::client_ip(req.metadata());
        Ok(Response::new(self.inner.check_availability(&req.into_inner().email, ip.as_deref()).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn send_code(&self, req: Request<pb::SendCodeRequest>) -> Result<Response<pb::RequestMagicLinkResponse>, Status> {
        let ip = Caller::client_ip(req.metadata());
        Ok(Response::new(self.inner.send_code(req.into_inner(), ip.as_deref()).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn verify_code(&self, req: Request<pb::VerifyCodeRequest>) -> Result<Response<pb::SessionToken>, Status> {
        let (ip, from) = (Caller::client_ip(req.metadata()), origin(req.metadata()));
        Ok(Response::new(self.inner.verify_code(req.into_inner(), ip.as_deref(), &from).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn register(&self, req: Request<pb::RegisterRequest>) -> Result<Response<pb::RegisterResponse>, Status> {
        let ip = Caller::client_ip(req.metadata());
        Ok(Response::new(self.inner.register(req.into_inner(), ip.as_deref()).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn logout(&self, req: Request<pb::LogoutRequest>) -> Result<Response<pb::LogoutResponse>, Status> {
        let c = Caller::guard(req.metadata()).map_err(AuthError::from)?;
        self.inner.logout(&c).await?;
        Ok(Response::new(pb::LogoutResponse {}))
    }

    #[tracing::instrument(skip_all)]
    async fn search_members(&self, req: Request<pb::SearchMembersRequest>) -> Result<Response<pb::SearchMembersResponse>, Status> {
        self.inner.staff_caller(req.metadata()).await?;
        Ok(Response::new(self.inner.search_members(req.into_inner()).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn impersonate(&self, req: Request<pb::ImpersonateRequest>) -> Result<Response<pb::ImpersonationToken>, Status> {
        let (staff, name) = self.inner.staff_caller(req.metadata()).await?;
        let from = origin(req.metadata());
        Ok(Response::new(self.inner.impersonate(&staff, &name, req.into_inner(), &from).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn list_access_log(&self, req: Request<pb::ListAccessLogRequest>) -> Result<Response<pb::ListAccessLogResponse>, Status> {
        let c = Caller::guard(req.metadata()).map_err(AuthError::from)?;
        Ok(Response::new(pb::ListAccessLogResponse { entries: self.inner.access_log(&c.profile_id, Some(200)).await? }))
    }

    #[tracing::instrument(skip_all)]
    async fn list_sessions(&self, req: Request<pb::ListSessionsRequest>) -> Result<Response<pb::ListSessionsResponse>, Status> {
        let c = Caller::guard_owner(req.metadata()).map_err(AuthError::from)?;
        Ok(Response::new(self.inner.list_sessions(&c).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn revoke_session(&self, req: Request<pb::RevokeSessionRequest>) -> Result<Response<pb::RevokeSessionResponse>, Status> {
        let c = Caller::guard_owner(req.metadata()).map_err(AuthError::from)?;
        self.inner.revoke_session(&c, req.get_ref().id.trim()).await?;
        Ok(Response::new(pb::RevokeSessionResponse {}))
    }

    #[tracing::instrument(skip_all)]
    async fn revoke_other_sessions(
        &self,
        req: Request<pb::RevokeOtherSessionsRequest>,
    ) -> Result<Response<pb::RevokeOtherSessionsResponse>, Status> {
        let c = Caller::guard_owner(req.metadata()).map_err(AuthError::from)?;
        Ok(Response::new(pb::RevokeOtherSessionsResponse { revoked: self.inner.revoke_others(&c).await? }))
    }

    #[tracing::instrument(skip_all)]
    async fn send_deletion_code(
        &self,
        req: Request<pb::SendDeletionCodeRequest>,
    ) -> Result<Response<pb::SendDeletionCodeResponse>, Status> {
        let c = Caller::guard_member_owner(req.metadata()).map_err(AuthError::from)?;
        let ip = Caller::client_ip(req.metadata());
        Ok(Response::new(pb::SendDeletionCodeResponse { email: self.inner.send_deletion_code(&c, ip.as_deref()).await? }))
    }

    #[tracing::instrument(skip_all)]
    async fn confirm_deletion(&self, req: Request<pb::ConfirmDeletionRequest>) -> Result<Response<pb::ConfirmDeletionResponse>, Status> {
        let c = Caller::guard_member_owner(req.metadata()).map_err(AuthError::from)?;
        let ip = Caller::client_ip(req.metadata());
        self.inner.confirm_deletion(&c, &req.get_ref().code, ip.as_deref()).await?;
        Ok(Response::new(pb::ConfirmDeletionResponse {}))
    }

    #[tracing::instrument(skip_all)]
    async fn export_member(&self, req: Request<pb::ExportMemberRequest>) -> Result<Response<pb::MemberExport>, Status> {
        let c = Caller::guard_member_owner(req.metadata()).map_err(AuthError::from)?;
        Ok(Response::new(self.inner.export(&c).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn erase_member(&self, req: Request<pb::EraseMemberRequest>) -> Result<Response<pb::EraseMemberResponse>, Status> {
        let c = Caller::guard_member_owner(req.metadata()).map_err(AuthError::from)?;
        self.inner.erase(&c).await?;
        tracing::info!("member erased from the auth service");
        Ok(Response::new(pb::EraseMemberResponse {}))
    }

    async fn check_session(&self, req: Request<pb::CheckSessionRequest>) -> Result<Response<pb::CheckSessionResponse>, Status> {
        use pb::check_session_response::State;
        let state = match self.inner.check_session(req.get_ref().id.trim()).await? {
            store::sessions::State::Live { .. } => State::Live,
            store::sessions::State::Ended => State::Ended,
            store::sessions::State::Expired => State::Expired,
            store::sessions::State::Idle => State::Idle,
        };
        Ok(Response::new(pb::CheckSessionResponse { state: state as i32 }))
    }

    #[tracing::instrument(skip_all)]
    async fn start_email_change(
        &self,
        req: Request<pb::StartEmailChangeRequest>,
    ) -> Result<Response<pb::StartEmailChangeResponse>, Status> {
        let c = Caller::guard_owner(req.metadata()).map_err(AuthError::from)?;
        let ip = Caller::client_ip(req.metadata());
        Ok(Response::new(self.inner.start_email_change(&c, &req.get_ref().email, ip.as_deref()).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn confirm_email_change(
        &self,
        req: Request<pb::ConfirmEmailChangeRequest>,
    ) -> Result<Response<pb::ConfirmEmailChangeResponse>, Status> {
        let c = Caller::guard_owner(req.metadata()).map_err(AuthError::from)?;
        let ip = Caller::client_ip(req.metadata());
        Ok(Response::new(self.inner.confirm_email_change(&c, &req.get_ref().code, ip.as_deref()).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn undo_email_change(&self, req: Request<pb::UndoEmailChangeRequest>) -> Result<Response<pb::UndoEmailChangeResponse>, Status> {
        let ip = Caller::client_ip(req.metadata());
        Ok(Response::new(self.inner.undo_email_change(&req.get_ref().token, ip.as_deref()).await?))
    }

    async fn rotate_signing_key(
        &self,
        _req: Request<pb::RotateSigningKeyRequest>,
    ) -> Result<Response<pb::GetVerificationKeysResponse>, Status> {
        Ok(Response::new(self.inner.rotate_keys().await?))
    }

    #[tracing::instrument(skip_all)]
    async fn record_activity(&self, req: Request<pb::RecordActivityRequest>) -> Result<Response<pb::Activity>, Status> {
        let c = member_acting(req.metadata())?;
        Ok(Response::new(self.inner.record_now(&c.profile_id, req.into_inner()).await?))
    }

    async fn get_event_sign_up(&self, req: Request<pb::GetEventSignUpRequest>) -> Result<Response<pb::EventSignUp>, Status> {
        let c = Caller::guard(req.metadata()).map_err(AuthError::from)?;
        Ok(Response::new(self.inner.event_sign_up(&c.profile_id, &req.get_ref().event).await?))
    }
}

/// A member acting for themselves (check-ins, sign-ups): a staff view sees, never acts.
fn member_acting(md: &tonic::metadata::MetadataMap) -> Result<Caller, AuthError> {
    let c = Caller::guard_writer(md)?;
    if c.staff {
        return Err(AuthError::Forbidden("Only members can do this"));
    }
    Ok(c)
}
