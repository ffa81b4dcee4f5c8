//! The auth service: sign-in by one-time link or code, session tokens, logout, staff search and
//! impersonation. One-time secrets live in the KV only as hashes and are redeemed with an atomic
//! take, so each works exactly once however many requests race for it. Every sign-in and code
//! route is rate limited per address and per client IP. Without the KV (Redis down) nothing can
//! be counted or checked, so these routes refuse with `Unavailable` (503, `Retry-After`).
mod activity;
mod delivery;
mod device;
mod email_change;
mod error;
mod keys;
mod links;
mod live;
mod outbox;
mod privacy;
mod redirect;
mod sessions;

use activity::Pending;
use delivery::{Delivery, Outgoing};
use error::AuthError;
use links::{LinkOptions, LinkTarget};
use portal_common::config::Settings;
use portal_common::db::Db;
use portal_common::email::Email;
use portal_common::grpc::Channel;
use portal_common::grpc::GrpcApp;
use portal_common::identity::Caller;
use portal_common::kv::Kv;
use portal_common::token::{self, Actor, Claims};
use portal_proto::auth::v1::{
    self as pb,
    auth_service_server::{AuthService, AuthServiceServer},
};
use portal_proto::profile::v1::{self as profile_pb, profile_service_client::ProfileServiceClient};
use portal_proto::refdata::v1::{refdata_service_client::RefdataServiceClient, GetConfigRequest};
use redirect::safe_redirect;
use serde::{Deserialize, Serialize};
use sqlx::Row;
use std::sync::{Arc, RwLock};
use std::time::Duration;
use tonic::{Request, Response, Status};

pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// The answer to every sign-in request, whether or not the address has an account.
pub const LINK_SENT: &str = "If that address has an account, a sign-in link is on its way.";
/// The answer to every code request, whether or not the address has an account.
pub const CODE_SENT: &str = "If that address has an account, a sign-in code is on its way.";
/// The answer to every registration that passes the field checks, whether or not the address
/// already has an account (its mailbox is told which).
pub const REGISTERED: &str = "Check your inbox: we've emailed you a link to finish signing up.";

/// Wrong guesses allowed per code; the next attempt locks it.
pub const MAX_CODE_ATTEMPTS: i64 = 5;
/// Longest life of a one-time link or code, and of an impersonation token.
const MAX_LINK_TTL: i64 = 600;
const MAX_IMPERSONATION_TTL: i64 = 3600;

pub const STAFF_DEMO_ID: &str = "stf_0000000000000000000000s1";

pub async fn build(settings: &Settings) -> anyhow::Result<GrpcApp> {
    // The tenant file is checked before anything else: a bad one stops this process at start-up,
    // naming the field (the services read it from refdata afterwards, typed once per version).
    portal_tenant::load(&settings.tenant_config)?;
    let db = Db::connect(settings, "auth", &MIGRATOR).await?;
    let kv = Kv::connect(settings).await?.scoped("auth");
    if settings.demo_data {
        sqlx::query("INSERT INTO staff_users (id, tenant, email, name) VALUES ($1, $2, 'staff@example.com', 'Sam Staff') ON CONFLICT (id) DO NOTHING")
            .bind(STAFF_DEMO_ID)
            .bind(&settings.tenant)
            .execute(&db.pool)
            .await?;
    }
    let keys = RwLock::new(keys::load_or_create(&db).await?);
    let profiles = ProfileServiceClient::new(portal_common::grpc::channel(&settings.service_url("profile")?)?);
    let refdata = RefdataServiceClient::new(portal_common::grpc::channel(&settings.service_url("refdata")?)?);
    let delivery = Delivery::new(settings, &db)?;
    let public_url = url::Url::parse(&settings.public_url).map_err(|e| anyhow::anyhow!("PORTAL_PUBLIC_URL: {e}"))?;
    let geo = portal_common::geo::GeoIp::open(settings)?;
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

/// Picks up keys rotated by another instance; stops when the service is dropped.
async fn reload_keys(inner: std::sync::Weak<Inner>) {
    let mut tick = tokio::time::interval(Duration::from_secs(60));
    tick.tick().await;
    loop {
        tick.tick().await;
        let Some(inner) = inner.upgrade() else { return };
        match keys::load(&inner.db).await {
            Ok(k) => *inner.keys.write().unwrap() = k,
            Err(e) => tracing::warn!(error = %e, "reloading signing keys"),
        }
    }
}

/// The current signing key from the service's store, for tooling and tests that must mint a
/// token the gateway will recognise (an already-expired one, say).
pub async fn current_signer(settings: &Settings) -> anyhow::Result<token::Signer> {
    let db = Db::connect(settings, "auth", &MIGRATOR).await?;
    Ok(keys::load_or_create(&db).await?.signer)
}

#[derive(Clone)]
struct Auth {
    inner: Arc<Inner>,
}

struct Inner {
    db: Db,
    kv: Kv,
    keys: RwLock<keys::Keys>,
    profiles: ProfileServiceClient<Channel>,
    refdata: RefdataServiceClient<Channel>,
    delivery: Delivery,
    public_url: url::Url,
    /// The approximate place of a sign-in's address, when a GeoIP database is configured.
    geo: portal_common::geo::GeoIp,
    settings: Settings,
    /// The tenant config from refdata, parsed once per version.
    config: portal_tenant::Cache,
}

/// Who an address belongs to.
struct Account {
    id: String,
    first_name: String,
    phone: String,
    staff: bool,
}

/// A code waiting to be redeemed, kept in the KV under the address's hash.
#[derive(Serialize, Deserialize)]
struct CodeRecord {
    code_hash: String,
    pid: String,
    staff: bool,
    redirect: String,
    pending: Pending,
}

impl Inner {
    fn ttl(&self) -> i64 {
        self.settings.link_ttl_secs.clamp(1, MAX_LINK_TTL)
    }

    fn now() -> i64 {
        portal_common::now_unix()
    }

    /// Counts an attempt against the address (if any) and the client IP; refuses past either limit.
    async fn limit(&self, route: &str, address: Option<&str>, ip: Option<&str>, factor: i64) -> Result<(), AuthError> {
        let rl = &self.settings.rate_limit;
        let window = Duration::from_secs(rl.window_secs.max(1));
        let a = match address {
            Some(a) => self.kv.incr(&format!("rl:{route}:a:{}", token::hash_hex(a)), window).await?,
            None => 0,
        };
        let i = match ip {
            Some(ip) => self.kv.incr(&format!("rl:{route}:ip:{ip}"), window).await?,
            None => 0,
        };
        if a > rl.per_address * factor || i > rl.per_ip * factor {
            tracing::info!(route, "rate limited");
            return Err(AuthError::RateLimited);
        }
        Ok(())
    }

    async fn account(&self, email: &Email) -> Result<Option<Account>, AuthError> {
        let staff = sqlx::query("SELECT id, name FROM staff_users WHERE tenant = $1 AND LOWER(email) = $2")
            .bind(&self.settings.tenant)
            .bind(email.as_str())
            .fetch_optional(&self.db.pool)
            .await?;
        if let Some(r) = staff {
            let name: String = r.get("name");
            let first = name.split_whitespace().next().unwrap_or_default().to_string();
            return Ok(Some(Account { id: r.get("id"), first_name: first, phone: String::new(), staff: true }));
        }
        let found =
            self.profiles.clone().find_by_email(profile_pb::FindByEmailRequest { email: email.as_str().into() }).await?.into_inner();
        Ok(found.found.then_some(Account { id: found.profile_id, first_name: found.first_name, phone: found.phone, staff: false }))
    }

    async fn staff_name(&self, id: &str) -> Result<Option<String>, AuthError> {
        Ok(sqlx::query("SELECT name FROM staff_users WHERE tenant = $1 AND id = $2")
            .bind(&self.settings.tenant)
            .bind(id)
            .fetch_optional(&self.db.pool)
            .await?
            .map(|r| r.get("name")))
    }

    fn sign(&self, claims: &Claims) -> Result<String, AuthError> {
        Ok(self.keys.read().unwrap().signer.sign(claims)?)
    }

    fn session(&self, pid: &str, staff: bool, exp: i64, auth_time: i64, act: Option<Actor>) -> Result<(String, Claims), AuthError> {
        let claims = Claims {
            pid: pid.to_string(),
            exp,
            iat: Self::now(),
            auth_time,
            jti: portal_common::new_id("ses_"),
            typ: token::TYPE_SESSION.into(),
            staff,
            tenant: self.settings.tenant.clone(),
            redirect: None,
            act,
        };
        Ok((self.sign(&claims)?, claims))
    }

    /// A member's (or staff user's own) session, recorded for "My sessions" with where it came
    /// from. `auth_time`: when the member really signed in, now unless this renews a session (a
    /// renewal keeps the original, and so the original's absolute end).
    async fn issue_session(
        &self,
        pid: &str,
        staff: bool,
        origin: &sessions::Origin,
        auth_time: Option<i64>,
    ) -> Result<(String, Claims), AuthError> {
        let now = Self::now();
        let auth_time = auth_time.unwrap_or(now).min(now);
        let exp = auth_time + self.settings.session_ttl_secs.max(1);
        if exp <= now {
            return Err(AuthError::LinkUnusable);
        }
        let (t, c) = self.session(pid, staff, exp, auth_time, None)?;
        privacy::record_session(self, &c, auth_time, origin, None).await?;
        self.mark_live(&c.jti, c.exp).await?;
        Ok((t, c))
    }

    fn greeting(first_name: &str) -> String {
        if first_name.is_empty() {
            "Hi,".to_string()
        } else {
            format!("Hi {first_name},")
        }
    }

    /// Origins besides the portal's own that links may lead to: the tenant config's
    /// `general.allowedOrigins`, asked of the refdata service.
    async fn allowed_origins(&self) -> Result<Vec<String>, AuthError> {
        Ok(self.tenant().await?.general.allowed_origins.clone())
    }

    /// The tenant config, typed: asked of refdata on each use (an edit applies at once), parsed
    /// only when its text changed.
    pub(crate) async fn tenant(&self) -> Result<Arc<portal_tenant::Tenant>, AuthError> {
        let cfg = self.refdata.clone().get_config(GetConfigRequest {}).await?.into_inner();
        self.config.get(&cfg.json).map_err(|e| AuthError::Other(e.into()))
    }

    async fn link_target(&self, o: &LinkOptions<'_>) -> Result<LinkTarget, AuthError> {
        if o.url_path.trim().is_empty() && o.external_redirect.trim().is_empty() && !o.iframe {
            return Ok(LinkTarget::portal(&self.public_url).with_params(o.url_params));
        }
        LinkTarget::parse(&self.public_url, &self.allowed_origins().await?, o).map_err(AuthError::Fields)
    }

    async fn send_link(
        &self,
        acct: &Account,
        email: &Email,
        redirect: &str,
        pending: &Pending,
        target: &LinkTarget,
    ) -> Result<(), AuthError> {
        self.send_link_with(acct, email, redirect, pending, target, LinkText::SignIn).await
    }

    async fn send_link_with(
        &self,
        acct: &Account,
        email: &Email,
        redirect: &str,
        pending: &Pending,
        target: &LinkTarget,
        kind: LinkText,
    ) -> Result<(), AuthError> {
        let now = Self::now();
        let ttl = self.ttl();
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
            act: None,
            auth_time: 0,
        };
        let link_token = self.sign(&claims)?;
        let record = serde_json::to_vec(pending).map_err(anyhow::Error::from)?;
        self.kv.set(&link_key(&jti), &record, Some(Duration::from_secs(ttl as u64))).await?;
        let link = target.url(&link_token, redirect);
        let minutes = (ttl / 60).max(1);
        let text = match kind {
            LinkText::SignIn => format!(
                "{}\n\nUse the link below to sign in to your account. It works once and expires in {minutes} minutes.\n\n{link}\n\nIf you didn't ask to sign in, you can ignore this email.",
                Self::greeting(&acct.first_name),
            ),
            LinkText::AlreadyMember => format!(
                "{}\n\nSomeone asked to create an account with this email address, but you already have one. Use the link below to sign in to it. It works once and expires in {minutes} minutes.\n\n{link}\n\nIf you didn't ask for this, you can ignore this email.",
                Self::greeting(&acct.first_name),
            ),
        };
        self.delivery.email(&Outgoing { to: email.as_str(), subject: "Your sign-in link", text: &text, link: &link }).await?;
        Ok(())
    }

    /// Someone asked to register an address that has an account: its mailbox gets a sign-in link
    /// instead, saying so.
    async fn send_existing_account_link(&self, acct: &Account, email: &Email, redirect: &str) -> Result<(), AuthError> {
        self.send_link_with(acct, email, redirect, &Pending::default(), &LinkTarget::portal(&self.public_url), LinkText::AlreadyMember)
            .await
    }

    async fn log_access(&self, profile_id: &str, staff_id: &str, staff_name: &str, action: &str, reason: &str) -> Result<(), AuthError> {
        self.log_access_token(profile_id, staff_id, staff_name, action, reason, "", 0).await
    }

    /// An access log entry tied to an impersonation token: a start (with the token's expiry, so
    /// a view that simply runs out is still shown as ended) or an explicit stop.
    #[allow(clippy::too_many_arguments)]
    async fn log_access_token(
        &self,
        profile_id: &str,
        staff_id: &str,
        staff_name: &str,
        action: &str,
        reason: &str,
        token_id: &str,
        ends_at: i64,
    ) -> Result<(), AuthError> {
        sqlx::query(
            "INSERT INTO access_log (id, profile_id, staff_id, staff_name, action, reason, at_ms, token_id, ends_at_ms)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(portal_common::new_id("acc_"))
        .bind(profile_id)
        .bind(staff_id)
        .bind(staff_name)
        .bind(action)
        .bind(reason.trim().chars().take(500).collect::<String>())
        .bind(chrono::Utc::now().timestamp_millis())
        .bind(token_id)
        .bind(ends_at * 1000)
        .execute(&self.db.pool)
        .await?;
        Ok(())
    }

    /// The caller must be a staff member signed in as themselves, still on the staff list.
    async fn staff_caller(&self, md: &tonic::metadata::MetadataMap) -> Result<(Caller, String), AuthError> {
        let c = Caller::from_metadata(md).map_err(|_| AuthError::NotSignedIn)?;
        if !c.staff || c.actor.is_some() {
            return Err(AuthError::Forbidden("Only staff can do this"));
        }
        let name = self.staff_name(&c.profile_id).await?.ok_or(AuthError::Forbidden("Only staff can do this"))?;
        Ok((c, name))
    }
}

/// Which sign-in email to write.
enum LinkText {
    SignIn,
    /// To an address someone tried to register again.
    AlreadyMember,
}

/// The reason shown for a staff view that ended because its time ran out.
const EXPIRED_VIEW: &str = "The viewing time ran out";
/// The reason shown for a staff view that ended with the staff user's own session.
const STAFF_SIGNED_OUT: &str = "The staff member signed out";
/// The reason shown for a staff view the member ended.
const MEMBER_ENDED_VIEW: &str = "You ended this view";
/// The reason shown for staff views ended because the member deleted their account.
const ACCOUNT_DELETED: &str = "The account was deleted";
/// The reason shown for staff views ended by a change of the member's sign-in address.
const EMAIL_CHANGED: &str = "Your sign-in address changed";

fn link_key(jti: &str) -> String {
    format!("link:{}", token::hash_hex(jti))
}

fn code_key(tenant: &str, email: &Email) -> String {
    format!("code:{}", token::hash_hex(&format!("{tenant}:{}", email.as_str())))
}

fn origin(md: &tonic::metadata::MetadataMap) -> sessions::Origin {
    sessions::Origin { ip: Caller::client_ip(md), user_agent: Caller::user_agent(md) }
}

fn code_hash(key: &str, code: &str) -> String {
    token::hash_hex(&format!("{key}:{code}"))
}

fn parse_email(raw: &str) -> Result<Email, AuthError> {
    Email::parse(raw).map_err(|m| AuthError::field("email", m))
}

#[tonic::async_trait]
impl AuthService for Auth {
    #[tracing::instrument(skip_all)]
    async fn request_magic_link(
        &self,
        req: Request<pb::RequestMagicLinkRequest>,
    ) -> Result<Response<pb::RequestMagicLinkResponse>, Status> {
        let ip = Caller::client_ip(req.metadata());
        let r = req.into_inner();
        let email = parse_email(&r.email)?;
        let pending = self.inner.pending(&r.mode, &r.location, &r.event_data_json, &r.custom_fields_json).await?;
        let target = self
            .inner
            .link_target(&LinkOptions {
                url_path: &r.url_path,
                url_params: &r.url_params,
                iframe: r.iframe,
                external_redirect: &r.external_redirect,
            })
            .await?;
        self.inner.limit("link", Some(email.as_str()), ip.as_deref(), 1).await?;
        let redirect = safe_redirect(&r.redirect);
        if let Some(acct) = self.inner.account(&email).await? {
            self.inner.send_link(&acct, &email, &redirect, &pending, &target).await?;
        }
        Ok(Response::new(pb::RequestMagicLinkResponse { message: LINK_SENT.into() }))
    }

    #[tracing::instrument(skip_all)]
    async fn exchange_link_token(&self, req: Request<pb::ExchangeLinkTokenRequest>) -> Result<Response<pb::SessionToken>, Status> {
        let inner = &self.inner;
        let now = Inner::now();
        let ip = Caller::client_ip(req.metadata());
        let from = origin(req.metadata());
        // No address to count against here: the client IP alone, with more room.
        inner.limit("exchange", None, ip.as_deref(), 5).await?;
        let raw = req.into_inner().token;
        let verified = {
            let keys = inner.keys.read().unwrap();
            keys.verify.verify(&raw, token::TYPE_LINK, now).map(Ok).or_else(|e| match e {
                token::TokenError::WrongType => keys.verify.verify(&raw, token::TYPE_SESSION, now).map(Err),
                e => Err(e),
            })
        };
        match verified.map_err(|_| AuthError::LinkUnusable)? {
            Ok(link) => {
                // Single use: of any number of concurrent redemptions, one takes the record.
                let record = inner.kv.take(&link_key(&link.jti)).await?.ok_or(AuthError::LinkUnusable)?;
                let pending: Pending = serde_json::from_slice(&record).unwrap_or_default();
                let activity = inner.record_activity(&link.pid, &pending).await?;
                let (t, c) = inner.issue_session(&link.pid, link.staff, &from, None).await?;
                Ok(Response::new(pb::SessionToken {
                    token: t,
                    expiry: c.exp,
                    profile_id: c.pid,
                    staff: c.staff,
                    redirect: link.redirect.unwrap_or_else(|| "/home".into()),
                    activity,
                }))
            }
            Err(session) => {
                // A session token handed over in a URL (native wrapper): swap it for a fresh one
                // and end it, so the copy in the URL is worthless. The fresh token is the same
                // sign-in: its `auth_time` and absolute end are the original's, so swapping never
                // extends a session nor passes for a recent sign-in. Impersonations can't be swapped.
                if session.is_impersonation() {
                    return Err(AuthError::Forbidden("An impersonation session cannot be extended").into());
                }
                let (holder, auth_time) =
                    sessions::holder(&inner.db, &session.jti, now).await.map_err(AuthError::from)?.ok_or(AuthError::LinkUnusable)?;
                if holder != session.pid || !matches!(inner.check_session(&session.jti).await?, sessions::State::Live { .. }) {
                    return Err(AuthError::LinkUnusable.into());
                }
                // Of concurrent swaps of one token, one ends it and gets the fresh token.
                if !inner.end_session(&session.jti).await? {
                    return Err(AuthError::LinkUnusable.into());
                }
                let (t, c) = inner.issue_session(&session.pid, session.staff, &from, Some(auth_time)).await?;
                Ok(Response::new(pb::SessionToken {
                    token: t,
                    expiry: c.exp,
                    profile_id: c.pid,
                    staff: c.staff,
                    redirect: "/home".into(),
                    activity: None,
                }))
            }
        }
    }

    async fn get_verification_keys(
        &self,
        _req: Request<pb::GetVerificationKeysRequest>,
    ) -> Result<Response<pb::GetVerificationKeysResponse>, Status> {
        let keys = self.inner.keys.read().unwrap();
        Ok(Response::new(keys_response(&keys)))
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

    #[tracing::instrument(skip_all)]
    async fn check_availability(
        &self,
        req: Request<pb::CheckAvailabilityRequest>,
    ) -> Result<Response<pb::CheckAvailabilityResponse>, Status> {
        let ip = Caller::client_ip(req.metadata());
        let email = parse_email(&req.into_inner().email)?;
        self.inner.limit("availability", Some(email.as_str()), ip.as_deref(), 2).await?;
        // Whether the address has an account is told to its mailbox only (by Register), never
        // here: every valid address can be used to register.
        Ok(Response::new(pb::CheckAvailabilityResponse { available: true }))
    }

    #[tracing::instrument(skip_all)]
    async fn send_code(&self, req: Request<pb::SendCodeRequest>) -> Result<Response<pb::RequestMagicLinkResponse>, Status> {
        use rand::Rng;
        let inner = &self.inner;
        let ip = Caller::client_ip(req.metadata());
        let r = req.into_inner();
        let email = parse_email(&r.email)?;
        if !matches!(r.channel.as_str(), "email" | "sms") {
            return Err(AuthError::field("channel", "Use email or sms").into());
        }
        let pending = inner.pending(&r.mode, &r.location, &r.event_data_json, &r.custom_fields_json).await?;
        inner.limit("code", Some(email.as_str()), ip.as_deref(), 1).await?;
        let redirect = safe_redirect(&r.redirect);
        let Some(acct) = inner.account(&email).await? else {
            return Ok(Response::new(pb::RequestMagicLinkResponse { message: CODE_SENT.into() }));
        };
        if r.channel == "sms" && acct.phone.is_empty() {
            // Same answer as for an unknown address: nothing to send to.
            return Ok(Response::new(pb::RequestMagicLinkResponse { message: CODE_SENT.into() }));
        }
        let code = format!("{:06}", rand::thread_rng().gen_range(0..1_000_000u32));
        let key = code_key(&inner.settings.tenant, &email);
        let record = CodeRecord { code_hash: code_hash(&key, &code), pid: acct.id.clone(), staff: acct.staff, redirect, pending };
        let ttl = Duration::from_secs(inner.ttl() as u64);
        inner.kv.set(&key, &serde_json::to_vec(&record).map_err(|e| AuthError::Other(e.into()))?, Some(ttl)).await?;
        inner.kv.del(&format!("{key}:attempts")).await?;
        let minutes = (inner.ttl() / 60).max(1);
        if r.channel == "sms" {
            let text = format!("{code} is your sign-in code. It expires in {minutes} minutes.");
            inner
                .delivery
                .sms(&Outgoing { to: &acct.phone, subject: "Sign-in code", text: &text, link: "" })
                .await
                .map_err(AuthError::Other)?;
        } else {
            let text = format!(
                "{}\n\nYour sign-in code is {code}. It works once and expires in {minutes} minutes.\n\nIf you didn't ask to sign in, you can ignore this email.",
                Inner::greeting(&acct.first_name)
            );
            inner
                .delivery
                .email(&Outgoing { to: email.as_str(), subject: "Your sign-in code", text: &text, link: "" })
                .await
                .map_err(AuthError::Other)?;
        }
        Ok(Response::new(pb::RequestMagicLinkResponse { message: CODE_SENT.into() }))
    }

    #[tracing::instrument(skip_all)]
    async fn verify_code(&self, req: Request<pb::VerifyCodeRequest>) -> Result<Response<pb::SessionToken>, Status> {
        let inner = &self.inner;
        let ip = Caller::client_ip(req.metadata());
        let from = origin(req.metadata());
        let r = req.into_inner();
        let email = parse_email(&r.email)?;
        let code = r.code.trim();
        if code.len() != 6 || !code.chars().all(|c| c.is_ascii_digit()) {
            return Err(AuthError::field("code", "Enter the 6-digit code").into());
        }
        inner.limit("verify", Some(email.as_str()), ip.as_deref(), 3).await?;
        let key = code_key(&inner.settings.tenant, &email);
        let ttl = Duration::from_secs(inner.ttl() as u64);
        let attempts = inner.kv.incr(&format!("{key}:attempts"), ttl).await?;
        if attempts > MAX_CODE_ATTEMPTS {
            inner.kv.del(&key).await?;
            return Err(AuthError::CodeLocked.into());
        }
        let raw = inner.kv.get(&key).await?.ok_or(AuthError::CodeWrong)?;
        let record: CodeRecord = serde_json::from_slice(&raw).map_err(|e| AuthError::Other(e.into()))?;
        if record.code_hash != code_hash(&key, code) {
            return Err(AuthError::CodeWrong.into());
        }
        // Single use: of concurrent correct attempts, one takes the record.
        if inner.kv.take(&key).await?.is_none() {
            return Err(AuthError::CodeWrong.into());
        }
        let activity = inner.record_activity(&record.pid, &record.pending).await?;
        let (t, c) = inner.issue_session(&record.pid, record.staff, &from, None).await?;
        Ok(Response::new(pb::SessionToken {
            token: t,
            expiry: c.exp,
            profile_id: c.pid,
            staff: c.staff,
            redirect: record.redirect,
            activity,
        }))
    }

    #[tracing::instrument(skip_all)]
    async fn register(&self, req: Request<pb::RegisterRequest>) -> Result<Response<pb::RegisterResponse>, Status> {
        let inner = &self.inner;
        let ip = Caller::client_ip(req.metadata());
        let r = req.into_inner();
        let email = Email::parse(&r.email);
        if let Ok(e) = &email {
            inner.limit("register", Some(e.as_str()), ip.as_deref(), 1).await?;
        }
        // A staff address is never a member's; it gets nothing, and the answer is the same.
        let staff = match &email {
            Ok(e) => inner.staff_name_by_email(e).await?.is_some(),
            Err(_) => false,
        };
        // The profile service checks the other fields, whatever the address.
        let created = inner
            .profiles
            .clone()
            .create_profile(profile_pb::CreateProfileRequest {
                email: if staff { String::new() } else { email.as_ref().map(|e| e.to_string()).unwrap_or_default() },
                first_name: r.first_name,
                last_name: r.last_name,
                phone: r.phone,
                birth_date: r.birth_date,
                dry_run: staff || email.is_err(),
            })
            .await;
        let answer = || Ok(Response::new(pb::RegisterResponse { message: REGISTERED.into(), profile_id: String::new() }));
        let redirect = safe_redirect(&r.redirect);
        match (email, created) {
            (Err(m), Err(s)) if s.code() == tonic::Code::InvalidArgument => {
                let mut f = portal_common::error::field_errors(&s);
                f.insert("email".into(), m.to_string());
                Err(AuthError::Fields(f).into())
            }
            (Err(m), _) => Err(AuthError::field("email", m).into()),
            (Ok(_), Ok(_)) if staff => answer(),
            (Ok(email), Ok(res)) => {
                let acct = Account { id: res.into_inner().profile_id, first_name: String::new(), phone: String::new(), staff: false };
                inner.send_link(&acct, &email, &redirect, &Pending::default(), &LinkTarget::portal(&inner.public_url)).await?;
                answer()
            }
            // Already a member: their mailbox is told, with a way in; the answer is the same.
            (Ok(email), Err(s)) if s.code() == tonic::Code::AlreadyExists => {
                if let Some(acct) = inner.account(&email).await? {
                    inner.send_existing_account_link(&acct, &email, &redirect).await?;
                }
                answer()
            }
            (Ok(_), Err(s)) => Err(s),
        }
    }

    #[tracing::instrument(skip_all)]
    async fn logout(&self, req: Request<pb::LogoutRequest>) -> Result<Response<pb::LogoutResponse>, Status> {
        let c = Caller::from_metadata(req.metadata()).map_err(|_| AuthError::NotSignedIn)?;
        let jti = c.token_id.clone().ok_or(AuthError::NotSignedIn)?;
        // A staff user's own sign-out ends every view of a member's account it opened, too.
        let ended = self.inner.end_session(&jti).await?;
        if let (true, Some(staff_id)) = (ended, &c.actor) {
            let name = self.inner.staff_name(staff_id).await?.unwrap_or_default();
            self.inner.log_access_token(&c.profile_id, staff_id, &name, "stop", "", &jti, 0).await?;
        }
        Ok(Response::new(pb::LogoutResponse {}))
    }

    #[tracing::instrument(skip_all)]
    async fn search_members(&self, req: Request<pb::SearchMembersRequest>) -> Result<Response<pb::SearchMembersResponse>, Status> {
        self.inner.staff_caller(req.metadata()).await?;
        let r = req.into_inner();
        if !matches!(r.r#type.as_str(), "id" | "email" | "qff_number") {
            return Err(AuthError::field("type", "Use id, email or qff_number").into());
        }
        if r.id.trim().is_empty() {
            return Err(AuthError::field("id", "Required").into());
        }
        let found = self
            .inner
            .profiles
            .clone()
            .search_profiles(profile_pb::SearchProfilesRequest { r#type: r.r#type, id: r.id })
            .await?
            .into_inner();
        let members = found
            .profiles
            .into_iter()
            .map(|p| pb::MemberSummary { id: p.id, email: p.email, first_name: p.first_name, last_name: p.last_name })
            .collect();
        Ok(Response::new(pb::SearchMembersResponse { members }))
    }

    #[tracing::instrument(skip_all)]
    async fn impersonate(&self, req: Request<pb::ImpersonateRequest>) -> Result<Response<pb::ImpersonationToken>, Status> {
        let inner = &self.inner;
        let (staff, staff_name) = inner.staff_caller(req.metadata()).await?;
        let req_md = req.metadata().clone();
        let r = req.into_inner();
        let target = r.profile_id.trim().to_string();
        // The staff id comes from the staff token; a body value may only repeat it.
        if !r.staff_id.is_empty() && r.staff_id != staff.profile_id {
            inner
                .log_access(&target, &staff.profile_id, &staff_name, "attempt", "staffId did not match the signed-in staff member")
                .await?;
            return Err(AuthError::Forbidden("staffId does not match the signed-in staff member").into());
        }
        let summary = match inner.profiles.clone().get_summary(profile_pb::GetSummaryRequest { profile_id: target.clone() }).await {
            Ok(s) => s.into_inner(),
            Err(s) if s.code() == tonic::Code::NotFound => {
                inner.log_access(&target, &staff.profile_id, &staff_name, "attempt", "no such member").await?;
                return Err(AuthError::NotFound("No member with that id").into());
            }
            Err(s) => return Err(s),
        };
        if inner.staff_name_by_email(&Email::parse(&summary.email).map_err(|m| AuthError::field("email", m))?).await?.is_some() {
            inner.log_access(&target, &staff.profile_id, &staff_name, "attempt", "staff accounts cannot be impersonated").await?;
            return Err(AuthError::Forbidden("Staff accounts cannot be impersonated").into());
        }
        // The view lives at most as long as the staff user's own session, which it names.
        let parent = staff.token_id.clone().ok_or(AuthError::NotSignedIn)?;
        let Some((_, parent_auth)) = sessions::holder(&inner.db, &parent, Inner::now()).await.map_err(AuthError::from)? else {
            return Err(AuthError::NotSignedIn.into());
        };
        let ttl = inner.settings.impersonation_ttl_secs.clamp(1, MAX_IMPERSONATION_TTL);
        let exp = (Inner::now() + ttl).min(staff.token_exp.unwrap_or(i64::MAX));
        let act = Actor { sub: staff.profile_id.clone(), name: staff_name.clone(), sid: parent.clone() };
        let (t, c) = inner.session(&summary.id, false, exp, parent_auth, Some(act))?;
        let view = sessions::ViewOf { staff_id: &staff.profile_id, staff_name: &staff_name, parent_id: &parent };
        privacy::record_session(inner, &c, c.iat, &origin(&req_md), Some(view)).await?;
        inner.mark_live(&c.jti, c.exp).await?;
        inner.log_access_token(&summary.id, &staff.profile_id, &staff_name, "start", &r.reason, &c.jti, c.exp).await?;
        Ok(Response::new(pb::ImpersonationToken {
            token: t,
            expiry: c.exp,
            profile_id: summary.id,
            first_name: summary.first_name,
            last_name: summary.last_name,
        }))
    }

    #[tracing::instrument(skip_all)]
    async fn list_access_log(&self, req: Request<pb::ListAccessLogRequest>) -> Result<Response<pb::ListAccessLogResponse>, Status> {
        let c = Caller::from_metadata(req.metadata()).map_err(|_| AuthError::NotSignedIn)?;
        let entries = self.inner.access_log(&c.profile_id, Some(200)).await?;
        Ok(Response::new(pb::ListAccessLogResponse { entries }))
    }

    #[tracing::instrument(skip_all)]
    async fn list_sessions(&self, req: Request<pb::ListSessionsRequest>) -> Result<Response<pb::ListSessionsResponse>, Status> {
        let c = privacy::owner(req.metadata())?;
        Ok(Response::new(self.inner.list_sessions(&c).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn revoke_session(&self, req: Request<pb::RevokeSessionRequest>) -> Result<Response<pb::RevokeSessionResponse>, Status> {
        let c = privacy::owner(req.metadata())?;
        self.inner.revoke_session(&c, req.get_ref().id.trim()).await?;
        Ok(Response::new(pb::RevokeSessionResponse {}))
    }

    #[tracing::instrument(skip_all)]
    async fn revoke_other_sessions(
        &self,
        req: Request<pb::RevokeOtherSessionsRequest>,
    ) -> Result<Response<pb::RevokeOtherSessionsResponse>, Status> {
        let c = privacy::owner(req.metadata())?;
        Ok(Response::new(pb::RevokeOtherSessionsResponse { revoked: self.inner.revoke_others(&c).await? }))
    }

    #[tracing::instrument(skip_all)]
    async fn send_deletion_code(
        &self,
        req: Request<pb::SendDeletionCodeRequest>,
    ) -> Result<Response<pb::SendDeletionCodeResponse>, Status> {
        let c = privacy::member_owner(req.metadata())?;
        let ip = Caller::client_ip(req.metadata());
        Ok(Response::new(pb::SendDeletionCodeResponse { email: self.inner.send_deletion_code(&c, ip.as_deref()).await? }))
    }

    #[tracing::instrument(skip_all)]
    async fn confirm_deletion(&self, req: Request<pb::ConfirmDeletionRequest>) -> Result<Response<pb::ConfirmDeletionResponse>, Status> {
        let c = privacy::member_owner(req.metadata())?;
        let ip = Caller::client_ip(req.metadata());
        self.inner.confirm_deletion(&c, &req.get_ref().code, ip.as_deref()).await?;
        Ok(Response::new(pb::ConfirmDeletionResponse {}))
    }

    #[tracing::instrument(skip_all)]
    async fn export_member(&self, req: Request<pb::ExportMemberRequest>) -> Result<Response<pb::MemberExport>, Status> {
        let c = privacy::member_owner(req.metadata())?;
        Ok(Response::new(self.inner.export(&c).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn erase_member(&self, req: Request<pb::EraseMemberRequest>) -> Result<Response<pb::EraseMemberResponse>, Status> {
        let c = privacy::member_owner(req.metadata())?;
        self.inner.erase(&c).await?;
        tracing::info!("member erased from the auth service");
        Ok(Response::new(pb::EraseMemberResponse {}))
    }

    async fn check_session(&self, req: Request<pb::CheckSessionRequest>) -> Result<Response<pb::CheckSessionResponse>, Status> {
        use pb::check_session_response::State;
        let state = match self.inner.check_session(req.get_ref().id.trim()).await? {
            sessions::State::Live { .. } => State::Live,
            sessions::State::Ended => State::Ended,
            sessions::State::Expired => State::Expired,
            sessions::State::Idle => State::Idle,
        };
        Ok(Response::new(pb::CheckSessionResponse { state: state as i32 }))
    }

    #[tracing::instrument(skip_all)]
    async fn start_email_change(
        &self,
        req: Request<pb::StartEmailChangeRequest>,
    ) -> Result<Response<pb::StartEmailChangeResponse>, Status> {
        let c = Caller::from_metadata(req.metadata()).map_err(|_| AuthError::NotSignedIn)?;
        let ip = Caller::client_ip(req.metadata());
        Ok(Response::new(self.inner.start_email_change(&c, &req.get_ref().email, ip.as_deref()).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn confirm_email_change(
        &self,
        req: Request<pb::ConfirmEmailChangeRequest>,
    ) -> Result<Response<pb::ConfirmEmailChangeResponse>, Status> {
        let c = Caller::from_metadata(req.metadata()).map_err(|_| AuthError::NotSignedIn)?;
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
        let keys = keys::rotate(&self.inner.db).await.map_err(AuthError::Other)?;
        let res = keys_response(&keys);
        *self.inner.keys.write().unwrap() = keys;
        Ok(Response::new(res))
    }
}

impl Inner {
    /// A staff user's name by address, in any case.
    async fn staff_name_by_email(&self, email: &Email) -> Result<Option<String>, AuthError> {
        Ok(sqlx::query("SELECT name FROM staff_users WHERE tenant = $1 AND LOWER(email) = $2")
            .bind(&self.settings.tenant)
            .bind(email.as_str())
            .fetch_optional(&self.db.pool)
            .await?
            .map(|r| r.get("name")))
    }
}

fn keys_response(keys: &keys::Keys) -> pb::GetVerificationKeysResponse {
    pb::GetVerificationKeysResponse {
        keys: keys.public_keys.iter().map(|(kid, k)| pb::VerificationKey { kid: kid.clone(), public_key: k.clone() }).collect(),
    }
}
