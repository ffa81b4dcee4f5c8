//! What every capability of the auth service shares: its storage, KV, signing keys, clients of
//! the profile and refdata services and settings (`Inner`), and the steps each sign-in takes:
//! counting an attempt against the rate limits, signing a token, issuing and recording a session.
use crate::delivery::Delivery;
use crate::error::AuthError;
use crate::keys;
use crate::store::sessions;
use portal_common::config::Settings;
use portal_common::db::Db;
use portal_common::email::Email;
use portal_common::grpc::Channel;
use portal_common::identity::Caller;
use portal_common::kv::Kv;
use portal_proto::profile::v1::profile_service_client::ProfileServiceClient;
use portal_proto::refdata::v1::{refdata_service_client::RefdataServiceClient, GetConfigRequest};
use portal_token::{self as token, Actor, Claims};
use std::sync::{Arc, RwLock};
use std::time::Duration;

/// Longest life of a one-time link or code.
const MAX_LINK_TTL: i64 = 600;

pub(crate) struct Inner {
    pub(crate) db: Db,
    pub(crate) kv: Kv,
    pub(crate) keys: RwLock<keys::Keys>,
    pub(crate) profiles: ProfileServiceClient<Channel>,
    pub(crate) refdata: RefdataServiceClient<Channel>,
    pub(crate) delivery: Delivery,
    pub(crate) public_url: url::Url,
    /// The approximate place of a sign-in's address, when a GeoIP database is configured.
    pub(crate) geo: portal_geo::GeoIp,
    pub(crate) settings: Settings,
    /// The tenant config from refdata, parsed once per version.
    pub(crate) config: portal_tenant::Cache,
}

/// Picks up keys rotated by another instance; stops when the service is dropped. It runs on every
/// replica, with no lease (`portal_common::lease`): each replica signs and verifies with its own
/// copy of the keys in memory, and reading the table changes nothing, so there is no effect to
/// happen once.
pub(crate) async fn reload_keys(inner: std::sync::Weak<Inner>) {
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

impl Inner {
    pub(crate) fn ttl(&self) -> i64 {
        self.settings.link_ttl_secs.clamp(1, MAX_LINK_TTL)
    }

    pub(crate) fn now() -> i64 {
        portal_common::now_unix()
    }

    /// Counts an attempt against the address (if any) and the client IP; refuses past either limit.
    pub(crate) async fn limit(&self, route: &str, address: Option<&str>, ip: Option<&str>, factor: i64) -> Result<(), AuthError> {
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

    pub(crate) fn sign(&self, claims: &Claims) -> Result<String, AuthError> {
        Ok(self.keys.read().unwrap().signer.sign(claims)?)
    }

    pub(crate) fn session(
        &self,
        pid: &str,
        staff: bool,
        exp: i64,
        auth_time: i64,
        act: Option<Actor>,
    ) -> Result<(String, Claims), AuthError> {
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
    pub(crate) async fn issue_session(
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
        self.record_session(&c, auth_time, origin, None).await?;
        self.mark_live(&c.jti, c.exp).await?;
        Ok((t, c))
    }

    pub(crate) fn greeting(first_name: &str) -> String {
        if first_name.is_empty() {
            "Hi,".to_string()
        } else {
            format!("Hi {first_name},")
        }
    }

    /// Origins besides the portal's own that links may lead to: the tenant config's
    /// `general.allowedOrigins`, asked of the refdata service.
    pub(crate) async fn allowed_origins(&self) -> Result<Vec<String>, AuthError> {
        Ok(self.tenant().await?.general.allowed_origins.clone())
    }

    /// The tenant config, typed: asked of refdata on each use (an edit applies at once), parsed
    /// only when its text changed.
    pub(crate) async fn tenant(&self) -> Result<Arc<portal_tenant::Tenant>, AuthError> {
        let cfg = self.refdata.clone().get_config(GetConfigRequest {}).await?.into_inner();
        self.config.get(&cfg.json).map_err(|e| AuthError::Other(e.into()))
    }

    /// Records a session just issued; `origin` is where the sign-in came from, `staff` says whose
    /// view of the member's account it is, for a staff view.
    pub(crate) async fn record_session(
        &self,
        claims: &Claims,
        signed_in_at: i64,
        origin: &sessions::Origin,
        staff: Option<sessions::ViewOf<'_>>,
    ) -> Result<(), AuthError> {
        let s = sessions::NewSession { id: &claims.jti, profile_id: &claims.pid, signed_in_at, expires_at: claims.exp, staff };
        sessions::record(&self.db, &self.geo, &s, origin).await
    }
}

pub(crate) fn origin(md: &tonic::metadata::MetadataMap) -> sessions::Origin {
    sessions::Origin { ip: Caller::client_ip(md), user_agent: Caller::user_agent(md) }
}

pub(crate) fn code_hash(key: &str, code: &str) -> String {
    token::hash_hex(&format!("{key}:{code}"))
}

pub(crate) fn parse_email(raw: &str) -> Result<Email, AuthError> {
    Email::parse(raw).map_err(|m| AuthError::field("email", m))
}
