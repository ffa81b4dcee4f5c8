//! The auth service: one-time sign-in links and session tokens. A link token is a signed token
//! of type `link` whose id is recorded, hashed, in the KV until it is redeemed or expires;
//! redeeming takes the record atomically, so a link works exactly once.
mod email;
mod error;
mod keys;
mod outbox;

use email::{safe_redirect, Email};
use error::AuthError;
use portal_common::config::Settings;
use portal_common::db::Db;
use portal_common::grpc::GrpcApp;
use portal_common::kv::Kv;
use portal_common::token::{self, Claims};
use portal_proto::auth::v1::{self as pb, auth_service_server::{AuthService, AuthServiceServer}};
use portal_proto::profile::v1::{profile_service_client::ProfileServiceClient, FindByEmailRequest};
use sqlx::Row;
use std::sync::Arc;
use std::time::Duration;
use tonic::transport::Channel;
use tonic::{Request, Response, Status};

pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// The answer to every sign-in request, whether or not the address has an account.
pub const LINK_SENT: &str = "If that address has an account, a sign-in link is on its way.";

pub const STAFF_DEMO_ID: &str = "stf_0000000000000000000000s1";

pub async fn build(settings: &Settings) -> anyhow::Result<GrpcApp> {
    let db = Db::connect(settings, "auth", &MIGRATOR).await?;
    let kv = Kv::connect(settings).await?.scoped("auth");
    if settings.demo_data {
        sqlx::query("INSERT INTO staff_users (id, tenant, email, name) VALUES ($1, $2, 'staff@example.com', 'Sam Staff') ON CONFLICT (id) DO NOTHING")
            .bind(STAFF_DEMO_ID)
            .bind(&settings.tenant)
            .execute(&db.pool)
            .await?;
    }
    let keys = keys::load_or_create(&db).await?;
    let profiles = ProfileServiceClient::new(portal_common::grpc::channel(&settings.service_url("profile")?)?);
    let svc = Auth { inner: Arc::new(Inner { db, kv, keys, profiles, settings: settings.clone() }) };
    GrpcApp::bind(settings, "portal.auth.v1.AuthService", tonic::service::Routes::new(AuthServiceServer::new(svc))).await
}

#[derive(Clone)]
struct Auth {
    inner: Arc<Inner>,
}

struct Inner {
    db: Db,
    kv: Kv,
    keys: keys::Keys,
    profiles: ProfileServiceClient<Channel>,
    settings: Settings,
}

/// Who an address belongs to.
struct Account {
    id: String,
    first_name: String,
    staff: bool,
}

impl Inner {
    async fn account(&self, email: &Email) -> Result<Option<Account>, AuthError> {
        let staff = sqlx::query("SELECT id, name FROM staff_users WHERE tenant = $1 AND email = $2")
            .bind(&self.settings.tenant)
            .bind(email.as_str())
            .fetch_optional(&self.db.pool)
            .await?;
        if let Some(r) = staff {
            let name: String = r.get("name");
            let first = name.split_whitespace().next().unwrap_or_default().to_string();
            return Ok(Some(Account { id: r.get("id"), first_name: first, staff: true }));
        }
        let found = self
            .profiles
            .clone()
            .find_by_email(FindByEmailRequest { email: email.as_str().into() })
            .await?
            .into_inner();
        Ok(found.found.then(|| Account { id: found.profile_id, first_name: found.first_name, staff: false }))
    }

    fn link_key(jti: &str) -> String {
        format!("link:{}", token::hash_hex(jti))
    }

    async fn send_link(&self, acct: &Account, email: &Email, redirect: &str) -> Result<(), AuthError> {
        let now = portal_common::now_unix();
        let ttl = self.settings.link_ttl_secs.clamp(60, 600);
        let jti = portal_common::new_id("lnk_");
        let claims = Claims {
            pid: acct.id.clone(),
            exp: now + ttl,
            iat: now,
            jti: jti.clone(),
            typ: token::TYPE_LINK.into(),
            staff: acct.staff,
            tenant: self.settings.tenant.clone(),
            redirect: Some(redirect.to_string()),
        };
        let link_token = self.keys.signer.sign(&claims)?;
        self.kv.set(&Self::link_key(&jti), b"1", Some(Duration::from_secs(ttl as u64))).await?;
        let mut link = url::Url::parse(&self.settings.public_url).map_err(anyhow::Error::from)?;
        link.set_path("/");
        link.query_pairs_mut().append_pair("token", &link_token).append_pair("redirect", redirect);
        let link = link.to_string();
        let greeting = if acct.first_name.is_empty() { "Hi,".to_string() } else { format!("Hi {},", acct.first_name) };
        let text = format!(
            "{greeting}\n\nUse the link below to sign in to your account. It works once and expires in {} minutes.\n\n{link}\n\nIf you didn't ask to sign in, you can ignore this email.",
            ttl / 60
        );
        if self.settings.is_dev() {
            outbox::put(&self.db, &outbox::Message { channel: "email", to: email.as_str(), subject: "Your sign-in link", text: &text, link: &link }).await?;
        } else {
            tracing::warn!("no email transport configured in production mode; sign-in link not sent");
        }
        Ok(())
    }
}

#[tonic::async_trait]
impl AuthService for Auth {
    #[tracing::instrument(skip_all)]
    async fn request_magic_link(&self, req: Request<pb::RequestMagicLinkRequest>) -> Result<Response<pb::RequestMagicLinkResponse>, Status> {
        let r = req.into_inner();
        let email = Email::parse(&r.email).map_err(|m| AuthError::field("email", m))?;
        let redirect = safe_redirect(&r.redirect);
        if let Some(acct) = self.inner.account(&email).await? {
            self.inner.send_link(&acct, &email, &redirect).await?;
        }
        Ok(Response::new(pb::RequestMagicLinkResponse { message: LINK_SENT.into() }))
    }

    #[tracing::instrument(skip_all)]
    async fn exchange_link_token(&self, req: Request<pb::ExchangeLinkTokenRequest>) -> Result<Response<pb::SessionToken>, Status> {
        let inner = &self.inner;
        let now = portal_common::now_unix();
        let link = inner
            .keys
            .verify
            .verify(&req.into_inner().token, token::TYPE_LINK, now)
            .map_err(|_| AuthError::LinkUnusable)?;
        // Single use: of any number of concurrent redemptions, one takes the record.
        if inner.kv.take(&Inner::link_key(&link.jti)).await.map_err(AuthError::Other)?.is_none() {
            return Err(AuthError::LinkUnusable.into());
        }
        let exp = now + inner.settings.session_ttl_secs;
        let session = Claims {
            pid: link.pid.clone(),
            exp,
            iat: now,
            jti: portal_common::new_id("ses_"),
            typ: token::TYPE_SESSION.into(),
            staff: link.staff,
            tenant: inner.settings.tenant.clone(),
            redirect: None,
        };
        let t = inner.keys.signer.sign(&session).map_err(AuthError::Other)?;
        Ok(Response::new(pb::SessionToken { token: t, expiry: exp, profile_id: link.pid, staff: link.staff }))
    }

    async fn get_verification_keys(&self, _req: Request<pb::GetVerificationKeysRequest>) -> Result<Response<pb::GetVerificationKeysResponse>, Status> {
        let keys = self
            .inner
            .keys
            .public_keys
            .iter()
            .map(|(kid, k)| pb::VerificationKey { kid: kid.clone(), public_key: k.clone() })
            .collect();
        Ok(Response::new(pb::GetVerificationKeysResponse { keys }))
    }

    async fn list_outbox(&self, req: Request<pb::ListOutboxRequest>) -> Result<Response<pb::ListOutboxResponse>, Status> {
        if !self.inner.settings.is_dev() {
            return Err(AuthError::DevOnly.into());
        }
        let limit = match req.into_inner().limit {
            0 => 50,
            n => n.min(500),
        };
        let messages = outbox::list(&self.inner.db, limit).await.map_err(AuthError::from)?;
        Ok(Response::new(pb::ListOutboxResponse { messages }))
    }
}

/// The current signing key from the service's store, for tooling and tests that must mint a
/// token the gateway will recognise (an already-expired one, say).
pub async fn current_signer(settings: &Settings) -> anyhow::Result<token::Signer> {
    let db = Db::connect(settings, "auth", &MIGRATOR).await?;
    Ok(keys::load_or_create(&db).await?.signer)
}
