//! The one KV interface for sessions, one-time links, rate limits and caches: in-process by
//! default, Redis when `REDIS_URL` is set. Every operation the portal relies on for safety
//! (`take`, `set_nx`, `incr`) is atomic on both backends.
use async_trait::async_trait;
use secrecy::ExposeSecret;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::config::Settings;

#[async_trait]
pub trait KvBackend: Send + Sync + 'static {
    async fn get(&self, key: &str) -> anyhow::Result<Option<Vec<u8>>>;
    /// Several keys in one round trip.
    async fn get_many(&self, keys: &[String]) -> anyhow::Result<Vec<Option<Vec<u8>>>>;
    async fn set(&self, key: &str, value: &[u8], ttl: Option<Duration>) -> anyhow::Result<()>;
    /// Sets only if absent; true when this call set it.
    async fn set_nx(&self, key: &str, value: &[u8], ttl: Option<Duration>) -> anyhow::Result<bool>;
    /// Reads and deletes in one step: of many concurrent callers, one gets the value.
    async fn take(&self, key: &str) -> anyhow::Result<Option<Vec<u8>>>;
    async fn del(&self, key: &str) -> anyhow::Result<bool>;
    /// Adds one and returns the new count; the first increment starts the `ttl` window.
    async fn incr(&self, key: &str, ttl: Duration) -> anyhow::Result<i64>;
}

/// A KV handle with the caller's key prefix.
#[derive(Clone)]
pub struct Kv {
    backend: Arc<dyn KvBackend>,
    prefix: String,
}

impl std::fmt::Debug for Kv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Kv").field("prefix", &self.prefix).finish()
    }
}

impl Kv {
    pub async fn connect(settings: &Settings) -> anyhow::Result<Kv> {
        let backend: Arc<dyn KvBackend> = match &settings.redis_url {
            Some(url) => Arc::new(RedisKv::connect(url.expose_secret()).await?),
            // One store per process, so the services the launcher runs together share it
            // (revocations written by auth are seen by the gateway). Key prefixes separate users.
            None => PROCESS_STORE.get_or_init(|| Arc::new(MemoryKv::default())).clone(),
        };
        Ok(Kv { backend, prefix: settings.kv_prefix.clone() })
    }

    pub fn in_memory(prefix: &str) -> Kv {
        Kv { backend: Arc::new(MemoryKv::default()), prefix: prefix.into() }
    }

    /// The same store under a longer prefix (e.g. one per service).
    pub fn scoped(&self, scope: &str) -> Kv {
        Kv { backend: self.backend.clone(), prefix: format!("{}{}:", self.prefix, scope) }
    }

    fn k(&self, key: &str) -> String {
        format!("{}{}", self.prefix, key)
    }
    pub async fn get(&self, key: &str) -> anyhow::Result<Option<Vec<u8>>> {
        measured("get", self.backend.get(&self.k(key))).await
    }
    pub async fn get_many(&self, keys: &[&str]) -> anyhow::Result<Vec<Option<Vec<u8>>>> {
        let keys: Vec<String> = keys.iter().map(|k| self.k(k)).collect();
        measured("get_many", self.backend.get_many(&keys)).await
    }
    pub async fn set(&self, key: &str, value: &[u8], ttl: Option<Duration>) -> anyhow::Result<()> {
        measured("set", self.backend.set(&self.k(key), value, ttl)).await
    }
    pub async fn set_nx(&self, key: &str, value: &[u8], ttl: Option<Duration>) -> anyhow::Result<bool> {
        measured("set_nx", self.backend.set_nx(&self.k(key), value, ttl)).await
    }
    pub async fn take(&self, key: &str) -> anyhow::Result<Option<Vec<u8>>> {
        measured("take", self.backend.take(&self.k(key))).await
    }
    pub async fn del(&self, key: &str) -> anyhow::Result<bool> {
        measured("del", self.backend.del(&self.k(key))).await
    }
    pub async fn incr(&self, key: &str, ttl: Duration) -> anyhow::Result<i64> {
        measured("incr", self.backend.incr(&self.k(key), ttl)).await
    }
}

/// Counts and times one operation for `/metrics` (`kv_operations_total`,
/// `kv_operation_duration_seconds`); an error is Redis not answering.
async fn measured<T>(op: &'static str, fut: impl std::future::Future<Output = anyhow::Result<T>>) -> anyhow::Result<T> {
    let start = Instant::now();
    let r = fut.await;
    metrics::histogram!("kv_operation_duration_seconds", "op" => op).record(start.elapsed().as_secs_f64());
    metrics::counter!("kv_operations_total", "op" => op, "outcome" => if r.is_ok() { "ok" } else { "error" }).increment(1);
    r
}

static PROCESS_STORE: std::sync::OnceLock<Arc<dyn KvBackend>> = std::sync::OnceLock::new();

#[derive(Default)]
struct MemoryKv {
    map: Mutex<HashMap<String, (Vec<u8>, Option<Instant>)>>,
}

impl MemoryKv {
    fn live<'a>(map: &'a mut HashMap<String, (Vec<u8>, Option<Instant>)>, key: &str) -> Option<&'a mut (Vec<u8>, Option<Instant>)> {
        let expired = matches!(map.get(key), Some((_, Some(t))) if *t <= Instant::now());
        if expired {
            map.remove(key);
        }
        map.get_mut(key)
    }
    fn sweep(map: &mut HashMap<String, (Vec<u8>, Option<Instant>)>) {
        if map.len() > 10_000 {
            let now = Instant::now();
            map.retain(|_, (_, t)| t.map_or(true, |t| t > now));
        }
    }
}

#[async_trait]
impl KvBackend for MemoryKv {
    async fn get(&self, key: &str) -> anyhow::Result<Option<Vec<u8>>> {
        let mut m = self.map.lock().unwrap();
        Ok(Self::live(&mut m, key).map(|(v, _)| v.clone()))
    }
    async fn get_many(&self, keys: &[String]) -> anyhow::Result<Vec<Option<Vec<u8>>>> {
        let mut m = self.map.lock().unwrap();
        Ok(keys.iter().map(|k| Self::live(&mut m, k).map(|(v, _)| v.clone())).collect())
    }
    async fn set(&self, key: &str, value: &[u8], ttl: Option<Duration>) -> anyhow::Result<()> {
        let mut m = self.map.lock().unwrap();
        Self::sweep(&mut m);
        m.insert(key.into(), (value.to_vec(), ttl.map(|d| Instant::now() + d)));
        Ok(())
    }
    async fn set_nx(&self, key: &str, value: &[u8], ttl: Option<Duration>) -> anyhow::Result<bool> {
        let mut m = self.map.lock().unwrap();
        if Self::live(&mut m, key).is_some() {
            return Ok(false);
        }
        m.insert(key.into(), (value.to_vec(), ttl.map(|d| Instant::now() + d)));
        Ok(true)
    }
    async fn take(&self, key: &str) -> anyhow::Result<Option<Vec<u8>>> {
        let mut m = self.map.lock().unwrap();
        Self::live(&mut m, key);
        Ok(m.remove(key).map(|(v, _)| v))
    }
    async fn del(&self, key: &str) -> anyhow::Result<bool> {
        let mut m = self.map.lock().unwrap();
        let was = Self::live(&mut m, key).is_some();
        m.remove(key);
        Ok(was)
    }
    async fn incr(&self, key: &str, ttl: Duration) -> anyhow::Result<i64> {
        let mut m = self.map.lock().unwrap();
        let n = match Self::live(&mut m, key) {
            Some((v, _)) => {
                let n = std::str::from_utf8(v)?.parse::<i64>()? + 1;
                *v = n.to_string().into_bytes();
                n
            }
            None => {
                m.insert(key.into(), (b"1".to_vec(), Some(Instant::now() + ttl)));
                1
            }
        };
        Ok(n)
    }
}

struct RedisKv {
    conn: redis::aio::ConnectionManager,
}

impl RedisKv {
    async fn connect(url: &str) -> anyhow::Result<Self> {
        let client = redis::Client::open(url)?;
        let conn = redis::aio::ConnectionManager::new(client).await?;
        Ok(Self { conn })
    }
}

fn ttl_ms(ttl: Duration) -> u64 {
    (ttl.as_millis() as u64).max(1)
}

#[async_trait]
impl KvBackend for RedisKv {
    async fn get(&self, key: &str) -> anyhow::Result<Option<Vec<u8>>> {
        let mut c = self.conn.clone();
        Ok(redis::cmd("GET").arg(key).query_async(&mut c).await?)
    }
    async fn get_many(&self, keys: &[String]) -> anyhow::Result<Vec<Option<Vec<u8>>>> {
        let mut c = self.conn.clone();
        Ok(redis::cmd("MGET").arg(keys).query_async(&mut c).await?)
    }
    async fn set(&self, key: &str, value: &[u8], ttl: Option<Duration>) -> anyhow::Result<()> {
        let mut c = self.conn.clone();
        let mut cmd = redis::cmd("SET");
        cmd.arg(key).arg(value);
        if let Some(t) = ttl {
            cmd.arg("PX").arg(ttl_ms(t));
        }
        cmd.query_async::<()>(&mut c).await?;
        Ok(())
    }
    async fn set_nx(&self, key: &str, value: &[u8], ttl: Option<Duration>) -> anyhow::Result<bool> {
        let mut c = self.conn.clone();
        let mut cmd = redis::cmd("SET");
        cmd.arg(key).arg(value).arg("NX");
        if let Some(t) = ttl {
            cmd.arg("PX").arg(ttl_ms(t));
        }
        let r: Option<String> = cmd.query_async(&mut c).await?;
        Ok(r.is_some())
    }
    async fn take(&self, key: &str) -> anyhow::Result<Option<Vec<u8>>> {
        let mut c = self.conn.clone();
        Ok(redis::cmd("GETDEL").arg(key).query_async(&mut c).await?)
    }
    async fn del(&self, key: &str) -> anyhow::Result<bool> {
        let mut c = self.conn.clone();
        let n: i64 = redis::cmd("DEL").arg(key).query_async(&mut c).await?;
        Ok(n > 0)
    }
    async fn incr(&self, key: &str, ttl: Duration) -> anyhow::Result<i64> {
        let mut c = self.conn.clone();
        let (n, _): (i64, i64) = redis::pipe()
            .atomic()
            .cmd("INCR")
            .arg(key)
            .cmd("PEXPIRE")
            .arg(key)
            .arg(ttl_ms(ttl))
            .arg("NX")
            .query_async(&mut c)
            .await?;
        Ok(n)
    }
}
