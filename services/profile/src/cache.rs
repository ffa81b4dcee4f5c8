//! Encoded profiles by id in the KV, each tagged with the profile's version token. Every write to
//! a profile's rows (details, attributes, comms, its tier) must call `invalidate`.
use crate::store;
use portal_common::db::Db;
use portal_common::kv::Kv;
use portal_proto::profile::v1 as pb;
use prost::Message;
use tonic::Status;

/// How long a cached profile may be served; writes invalidate it sooner.
const CACHE_TTL: std::time::Duration = std::time::Duration::from_secs(300);
/// How long a profile's version token is kept: far longer than any cached copy lives.
const VERSION_TTL: std::time::Duration = std::time::Duration::from_secs(86_400);

#[derive(Clone)]
pub struct ProfileCache {
    kv: Kv,
}

/// The profile in a cache entry (`[token length][token][profile]`) if its token is `version`.
fn cached_entry(entry: &[u8], version: &[u8]) -> Option<pb::Profile> {
    let (&n, rest) = entry.split_first()?;
    let (token, body) = rest.split_at_checked(n as usize)?;
    if token != version {
        return None;
    }
    pb::Profile::decode(body).map_err(|e| tracing::warn!(error = %e, "undecodable cached profile")).ok()
}

fn cache_key(id: &str) -> String {
    format!("p:{id}")
}

/// A token that changes on every write to the profile. A cached copy is tagged with the token
/// read *before* its SQL read, and served only while the token is unchanged, so a read that
/// raced a write can never leave a stale copy in the cache.
fn version_key(id: &str) -> String {
    format!("v:{id}")
}

impl ProfileCache {
    pub fn new(kv: Kv) -> Self {
        ProfileCache { kv }
    }

    /// The profile from the cache, else from SQL (then cached). A cache failure only costs speed.
    pub async fn profile(&self, db: &Db, id: &str) -> Result<pb::Profile, Status> {
        let (ck, vk) = (cache_key(id), version_key(id));
        let version = match self.kv.get_many(&[&ck, &vk]).await {
            Ok(mut got) => {
                let version = got.pop().flatten().unwrap_or_default();
                if let Some(p) = got.pop().flatten().and_then(|entry| cached_entry(&entry, &version)) {
                    return Ok(p);
                }
                Some(version)
            }
            Err(e) => {
                tracing::warn!(error = %e, "profile cache read");
                None
            }
        };
        let p = store::profiles::profile(db, id).await?;
        if let Some(version) = version {
            let mut entry = Vec::with_capacity(1 + version.len() + p.encoded_len());
            entry.push(version.len() as u8);
            entry.extend_from_slice(&version);
            p.encode(&mut entry).map_err(|e| portal_common::error::internal("encoding profile", e))?;
            if let Err(e) = self.kv.set(&ck, &entry, Some(CACHE_TTL)).await {
                tracing::warn!(error = %e, "profile cache write");
            }
        }
        Ok(p)
    }

    /// Removes the cached copy and the version token of a profile that no longer exists (an
    /// erased member): nothing of it is left in the KV. `Unavailable` while the KV is down.
    pub async fn forget(&self, id: &str) -> Result<(), Status> {
        self.kv.del(&cache_key(id)).await?;
        self.kv.del(&version_key(id)).await?;
        Ok(())
    }

    /// Marks every cached copy of the profile stale. Failing to would serve stale data for up to
    /// `CACHE_TTL`, so it is an error, not a warning: `Unavailable` (503, `Retry-After`) while the
    /// KV is down.
    pub async fn invalidate(&self, id: &str) -> Result<(), Status> {
        let token = portal_common::new_id("");
        Ok(self.kv.set(&version_key(id), token.as_bytes(), Some(VERSION_TTL)).await?)
    }
}
