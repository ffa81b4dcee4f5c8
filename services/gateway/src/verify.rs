//! Session-token checks on every call. An Ed25519 verification costs tens of microseconds, so a
//! token that verified once is remembered (bounded cache keyed by the token itself) until it
//! expires; a forged token never enters the cache. Keys come from the auth service and are
//! refreshed when a token names a key we have not seen.
//!
//! A valid signature is not enough: the session must be live (not signed out, not past its
//! absolute lifetime, not idle too long), which the auth service's record decides. Its answer is
//! kept in the KV (`token::live_key`, read on every call); a missing key (never checked, or the
//! in-process KV emptied by a restart) or one older than `RECHECK_AFTER_SECS` is asked of the
//! auth service again, which also keeps the idle clock running. A staff view of a member's
//! account is live only while the staff user's own session is. When the KV does not answer the
//! token is refused as `Unavailable` (503, try again), never let through and never treated as
//! signed out.
use portal_common::grpc::Channel;
use portal_common::kv::Kv;
use portal_proto::auth::v1::check_session_response::State;
use portal_proto::auth::v1::{auth_service_client::AuthServiceClient, CheckSessionRequest, GetVerificationKeysRequest};
use portal_token::{live_key, Claims, KeySet, TokenError, TYPE_SESSION};
use quick_cache::sync::Cache;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

pub struct Verifier {
    keys: RwLock<KeySet>,
    last_refresh: Mutex<Option<Instant>>,
    cache: Cache<String, Arc<Claims>>,
    auth: AuthServiceClient<Channel>,
    /// The auth service's KV scope, where live sessions are noted.
    live: Kv,
}

const REFRESH_AT_MOST_EVERY: Duration = Duration::from_secs(1);
/// How old a "live" note may be before the auth service is asked again (which also marks the
/// session as used: the idle timeout's resolution).
const RECHECK_AFTER_SECS: i64 = 60;

impl Verifier {
    /// Fetches the keys, retrying while the auth service starts.
    pub async fn connect(auth: AuthServiceClient<Channel>, live: Kv) -> anyhow::Result<Verifier> {
        let v = Verifier { keys: RwLock::new(KeySet::default()), last_refresh: Mutex::new(None), cache: Cache::new(50_000), auth, live };
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            match v.refresh().await {
                Ok(()) => return Ok(v),
                Err(e) if Instant::now() < deadline => {
                    tracing::info!(error = %e, "waiting for the auth service");
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(e) => return Err(e.context("fetching verification keys from the auth service")),
            }
        }
    }

    async fn refresh(&self) -> anyhow::Result<()> {
        *self.last_refresh.lock().unwrap() = Some(Instant::now());
        let keys = self.auth.clone().get_verification_keys(GetVerificationKeysRequest {}).await?.into_inner().keys;
        anyhow::ensure!(!keys.is_empty(), "the auth service has no keys");
        *self.keys.write().unwrap() = KeySet::new(keys.iter().map(|k| k.public_key.as_slice()));
        Ok(())
    }

    /// A valid token's claims, while its session (and, for a staff view, the staff user's own
    /// session) is live.
    pub async fn verify(&self, token: &str) -> Result<Arc<Claims>, TokenError> {
        let claims = self.verify_signature(token).await?;
        self.live(&claims.jti).await?;
        if let Some(act) = &claims.act {
            if act.sid.is_empty() {
                return Err(TokenError::Revoked);
            }
            self.live(&act.sid).await?;
        }
        Ok(claims)
    }

    /// Whether session `id` is live: the KV's note when it is fresh, else the auth service.
    async fn live(&self, id: &str) -> Result<(), TokenError> {
        let noted = match self.live.get(&live_key(id)).await {
            Ok(v) => v.and_then(|v| std::str::from_utf8(&v).ok()?.parse::<i64>().ok()),
            Err(e) => {
                // Fail closed: without the KV we cannot tell a logged-out token from a live one.
                // But the member is not signed out: they are told to try again shortly.
                tracing::warn!(error = %e, "checking the session");
                return Err(TokenError::Unavailable);
            }
        };
        if noted.is_some_and(|at| portal_common::now_unix() - at < RECHECK_AFTER_SECS) {
            return Ok(());
        }
        match self.auth.clone().check_session(CheckSessionRequest { id: id.to_string() }).await {
            Ok(r) => match r.into_inner().state() {
                State::Live => Ok(()),
                State::Expired => Err(TokenError::Expired),
                State::Idle => Err(TokenError::Idle),
                State::Ended | State::Unspecified => Err(TokenError::Revoked),
            },
            // A live note, only stale: the session was live a minute ago, and the auth service
            // will mark it used on a later call.
            Err(_) if noted.is_some() => Ok(()),
            Err(e) => {
                tracing::warn!(error = %e, "checking the session with the auth service");
                Err(TokenError::Unavailable)
            }
        }
    }

    async fn verify_signature(&self, token: &str) -> Result<Arc<Claims>, TokenError> {
        let now = portal_common::now_unix();
        if let Some(c) = self.cache.get(token) {
            return if c.exp > now { Ok(c) } else { Err(TokenError::Expired) };
        }
        let first = self.keys.read().unwrap().verify(token, TYPE_SESSION, now);
        let claims = match first {
            Err(TokenError::UnknownKey) if self.may_refresh() => {
                if let Err(e) = self.refresh().await {
                    tracing::warn!(error = %e, "refreshing verification keys");
                }
                self.keys.read().unwrap().verify(token, TYPE_SESSION, now)?
            }
            other => other?,
        };
        let claims = Arc::new(claims);
        self.cache.insert(token.to_string(), claims.clone());
        Ok(claims)
    }

    fn may_refresh(&self) -> bool {
        self.last_refresh.lock().unwrap().is_none_or(|t| t.elapsed() >= REFRESH_AT_MOST_EVERY)
    }
}
