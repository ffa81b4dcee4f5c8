//! Session-token checks on every call. An Ed25519 verification costs tens of microseconds, so a
//! token that verified once is remembered (bounded cache keyed by the token itself) until it
//! expires; a forged token never enters the cache. Keys come from the auth service and are
//! refreshed when a token names a key we have not seen. Revocation (logout) is checked in the KV
//! on every call, cached or not; when the KV does not answer the token is refused as
//! `Unavailable` (503, try again), never let through and never treated as signed out.
use portal_common::kv::Kv;
use portal_common::token::{revoked_key, Claims, KeySet, TokenError, TYPE_SESSION};
use portal_proto::auth::v1::{auth_service_client::AuthServiceClient, GetVerificationKeysRequest};
use quick_cache::sync::Cache;
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};
use portal_common::grpc::Channel;

pub struct Verifier {
    keys: RwLock<KeySet>,
    last_refresh: Mutex<Option<Instant>>,
    cache: Cache<String, Arc<Claims>>,
    auth: AuthServiceClient<Channel>,
    /// The auth service's KV scope, where revoked token ids are kept.
    revoked: Kv,
}

const REFRESH_AT_MOST_EVERY: Duration = Duration::from_secs(1);

impl Verifier {
    /// Fetches the keys, retrying while the auth service starts.
    pub async fn connect(auth: AuthServiceClient<Channel>, revoked: Kv) -> anyhow::Result<Verifier> {
        let v = Verifier { keys: RwLock::new(KeySet::default()), last_refresh: Mutex::new(None), cache: Cache::new(50_000), auth, revoked };
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

    /// A valid, unexpired, unrevoked session token's claims.
    pub async fn verify(&self, token: &str) -> Result<Arc<Claims>, TokenError> {
        let claims = self.verify_signature(token).await?;
        match self.revoked.get(&revoked_key(&claims.jti)).await {
            Ok(None) => Ok(claims),
            Ok(Some(_)) => Err(TokenError::Revoked),
            Err(e) => {
                // Fail closed: without the KV we cannot tell a logged-out token from a live one.
                // But the member is not signed out: they are told to try again shortly.
                tracing::warn!(error = %e, "checking token revocation");
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
        self.last_refresh.lock().unwrap().map_or(true, |t| t.elapsed() >= REFRESH_AT_MOST_EVERY)
    }
}
