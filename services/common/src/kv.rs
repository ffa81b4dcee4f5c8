//! The one KV interface for sessions, one-time links, rate limits and caches: in-process by
//! default, Redis when `REDIS_URL` is set. Every operation the portal relies on for safety
//! (`take`, `set_nx`, `incr`) is atomic on both backends.
//!
//! Redis down or slow is an answer, never a hang: every call gives up after `OP_TIMEOUT` with a
//! `KvError`, which callers turn into a refusal (gRPC `Unavailable` with `retry-after`, so HTTP
//! 503), never a guess. The connection is re-established in the background as soon as Redis
//! answers again, without waiting for a member's request to notice.
use async_trait::async_trait;
use secrecy::ExposeSecret;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock, Weak};
use std::time::{Duration, Instant};

use crate::config::Settings;

/// Longest wait for one KV call, reconnecting included. Redis answers in well under a
/// millisecond; a call this slow means it is gone.
pub const OP_TIMEOUT: Duration = Duration::from_millis(1000);
/// Longest wait for a TCP connection to Redis, and for one reply on it.
const CONNECT_TIMEOUT: Duration = Duration::from_millis(500);
const RESPONSE_TIMEOUT: Duration = Duration::from_millis(500);
/// While the connection is broken, how often the background task tries it again.
const RECONNECT_EVERY: Duration = Duration::from_millis(100);
/// What a member is told to wait while the KV is unavailable.
pub const RETRY_AFTER_SECS: u64 = 5;

/// The KV store did not answer: down, unreachable, or slower than `OP_TIMEOUT`. Whatever needed
/// it (a revocation check, a rate limit, a one-time code) must refuse rather than guess; as a
/// gRPC status it is `Unavailable` with a `retry-after` the gateway passes on as 503.
#[derive(Debug, thiserror::Error)]
#[error("KV store unavailable: {0}")]
pub struct KvError(String);

impl KvError {
    fn new(e: impl std::fmt::Display) -> Self {
        KvError(e.to_string())
    }
}

impl From<KvError> for tonic::Status {
    fn from(e: KvError) -> tonic::Status {
        tracing::warn!(error = %e, "KV call failed");
        let mut s = tonic::Status::unavailable("A service is unavailable, please try again shortly");
        s.metadata_mut().insert("retry-after", RETRY_AFTER_SECS.into());
        s
    }
}

pub type KvResult<T> = Result<T, KvError>;

#[async_trait]
pub trait KvBackend: Send + Sync + 'static {
    /// Whether calls cross the network (and so may hang): only those get a timeout.
    fn remote(&self) -> bool {
        false
    }
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
    /// Every live key starting with `prefix`, with its value. Walks the whole store: for tests
    /// and tooling (proving an erased member left nothing behind), never on a request's path.
    async fn entries(&self, prefix: &str) -> anyhow::Result<Vec<(String, Vec<u8>)>>;
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
            Some(url) => RedisKv::connect(url.expose_secret()).await?,
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
    pub async fn get(&self, key: &str) -> KvResult<Option<Vec<u8>>> {
        within("get", self.backend.remote(), self.backend.get(&self.k(key))).await
    }
    pub async fn get_many(&self, keys: &[&str]) -> KvResult<Vec<Option<Vec<u8>>>> {
        let keys: Vec<String> = keys.iter().map(|k| self.k(k)).collect();
        within("get_many", self.backend.remote(), self.backend.get_many(&keys)).await
    }
    pub async fn set(&self, key: &str, value: &[u8], ttl: Option<Duration>) -> KvResult<()> {
        within("set", self.backend.remote(), self.backend.set(&self.k(key), value, ttl)).await
    }
    pub async fn set_nx(&self, key: &str, value: &[u8], ttl: Option<Duration>) -> KvResult<bool> {
        within("set_nx", self.backend.remote(), self.backend.set_nx(&self.k(key), value, ttl)).await
    }
    pub async fn take(&self, key: &str) -> KvResult<Option<Vec<u8>>> {
        within("take", self.backend.remote(), self.backend.take(&self.k(key))).await
    }
    pub async fn del(&self, key: &str) -> KvResult<bool> {
        within("del", self.backend.remote(), self.backend.del(&self.k(key))).await
    }
    pub async fn incr(&self, key: &str, ttl: Duration) -> KvResult<i64> {
        within("incr", self.backend.remote(), self.backend.incr(&self.k(key), ttl)).await
    }
    /// Every live key under this handle's prefix (the prefix removed), with its value. Walks the
    /// whole store, so only for tests and tooling, never on a request's path.
    pub async fn entries(&self) -> KvResult<Vec<(String, Vec<u8>)>> {
        let all = self.backend.entries(&self.prefix).await.map_err(|e| KvError::new(format!("{e:#}")))?;
        Ok(all.into_iter().map(|(k, v)| (k[self.prefix.len()..].to_string(), v)).collect())
    }
}

/// One backend call, bounded by `OP_TIMEOUT` (any failure is a `KvError`), counted and timed
/// for `/metrics` (`kv_operations_total`, `kv_operation_duration_seconds`); an error is Redis
/// not answering.
async fn within<T>(op: &'static str, remote: bool, call: impl std::future::Future<Output = anyhow::Result<T>>) -> KvResult<T> {
    let start = Instant::now();
    // The in-process store cannot hang; a timer per call would only cost time.
    let answered = if remote { tokio::time::timeout(OP_TIMEOUT, call).await.ok() } else { Some(call.await) };
    let r = match answered {
        Some(Ok(v)) => Ok(v),
        Some(Err(e)) => Err(KvError::new(format!("{e:#}"))),
        None => Err(KvError::new(format!("no answer within {OP_TIMEOUT:?}"))),
    };
    if !crate::metrics::enabled() {
        return r;
    }
    metrics::histogram!("kv_operation_duration_seconds", "op" => op).record(start.elapsed().as_secs_f64());
    metrics::counter!("kv_operations_total", "op" => op, "outcome" => if r.is_ok() { "ok" } else { "error" }).increment(1);
    r
}

static PROCESS_STORE: std::sync::OnceLock<Arc<dyn KvBackend>> = std::sync::OnceLock::new();

/// A value and, if it expires, when.
type Entry = (Vec<u8>, Option<Instant>);

#[derive(Default)]
struct MemoryKv {
    /// Reads (every token check, every cached profile) share the lock; an expired entry is
    /// absent to them and removed by the next write that meets it.
    map: RwLock<HashMap<String, Entry>>,
}

impl MemoryKv {
    fn read(map: &HashMap<String, (Vec<u8>, Option<Instant>)>, key: &str, now: Instant) -> Option<Vec<u8>> {
        match map.get(key) {
            Some((v, t)) if t.is_none_or(|t| t > now) => Some(v.clone()),
            _ => None,
        }
    }
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
            map.retain(|_, (_, t)| t.is_none_or(|t| t > now));
        }
    }
}

#[async_trait]
impl KvBackend for MemoryKv {
    async fn get(&self, key: &str) -> anyhow::Result<Option<Vec<u8>>> {
        let m = self.map.read().unwrap();
        Ok(Self::read(&m, key, Instant::now()))
    }
    async fn get_many(&self, keys: &[String]) -> anyhow::Result<Vec<Option<Vec<u8>>>> {
        let m = self.map.read().unwrap();
        let now = Instant::now();
        Ok(keys.iter().map(|k| Self::read(&m, k, now)).collect())
    }
    async fn set(&self, key: &str, value: &[u8], ttl: Option<Duration>) -> anyhow::Result<()> {
        let mut m = self.map.write().unwrap();
        Self::sweep(&mut m);
        m.insert(key.into(), (value.to_vec(), ttl.map(|d| Instant::now() + d)));
        Ok(())
    }
    async fn set_nx(&self, key: &str, value: &[u8], ttl: Option<Duration>) -> anyhow::Result<bool> {
        let mut m = self.map.write().unwrap();
        if Self::live(&mut m, key).is_some() {
            return Ok(false);
        }
        m.insert(key.into(), (value.to_vec(), ttl.map(|d| Instant::now() + d)));
        Ok(true)
    }
    async fn take(&self, key: &str) -> anyhow::Result<Option<Vec<u8>>> {
        let mut m = self.map.write().unwrap();
        Self::live(&mut m, key);
        Ok(m.remove(key).map(|(v, _)| v))
    }
    async fn del(&self, key: &str) -> anyhow::Result<bool> {
        let mut m = self.map.write().unwrap();
        let was = Self::live(&mut m, key).is_some();
        m.remove(key);
        Ok(was)
    }
    async fn incr(&self, key: &str, ttl: Duration) -> anyhow::Result<i64> {
        let mut m = self.map.write().unwrap();
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
    async fn entries(&self, prefix: &str) -> anyhow::Result<Vec<(String, Vec<u8>)>> {
        let m = self.map.read().unwrap();
        let now = Instant::now();
        Ok(m.keys().filter(|k| k.starts_with(prefix)).filter_map(|k| Self::read(&m, k, now).map(|v| (k.clone(), v))).collect())
    }
}

struct RedisKv {
    conn: redis::aio::ConnectionManager,
    /// Set when a call failed; the background task then pings until Redis answers again.
    broken: AtomicBool,
}

impl RedisKv {
    /// Connects (retrying for a few seconds while Redis starts) and starts the task that
    /// re-establishes the connection after a failure.
    async fn connect(url: &str) -> anyhow::Result<Arc<Self>> {
        let client = redis::Client::open(url)?;
        // No retries inside the manager: a reconnect that fails fails at once (the background
        // task tries again), so no call waits on a backoff while Redis is down.
        let config = redis::aio::ConnectionManagerConfig::new()
            .set_number_of_retries(0)
            .set_connection_timeout(CONNECT_TIMEOUT)
            .set_response_timeout(RESPONSE_TIMEOUT);
        let started = Instant::now();
        let conn = loop {
            match redis::aio::ConnectionManager::new_with_config(client.clone(), config.clone()).await {
                Ok(c) => break c,
                Err(e) if started.elapsed() < Duration::from_secs(10) => {
                    tracing::info!(error = %e, "waiting for Redis");
                    tokio::time::sleep(RECONNECT_EVERY).await;
                }
                Err(e) => return Err(anyhow::Error::new(e).context("connecting to Redis")),
            }
        };
        let kv = Arc::new(Self { conn, broken: AtomicBool::new(false) });
        tokio::spawn(Self::keep_connected(Arc::downgrade(&kv)));
        Ok(kv)
    }

    /// After a failed call, pings every `RECONNECT_EVERY`: each failed ping makes the connection
    /// manager start a new connection, so the first member request after Redis returns already
    /// finds a live connection. Stops when the store is dropped.
    async fn keep_connected(kv: Weak<RedisKv>) {
        let mut tick = tokio::time::interval(RECONNECT_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let Some(kv) = kv.upgrade() else { return };
            if !kv.broken.load(Ordering::Relaxed) {
                continue;
            }
            let mut c = kv.conn.clone();
            let ping = tokio::time::timeout(OP_TIMEOUT, redis::cmd("PING").query_async::<()>(&mut c)).await;
            if matches!(ping, Ok(Ok(()))) {
                tracing::info!("Redis answers again");
                kv.broken.store(false, Ordering::Relaxed);
            }
        }
    }

    /// Runs one command on the shared connection, noting a failure for `keep_connected`.
    async fn run<T: redis::FromRedisValue>(&self, cmd: &redis::Cmd) -> anyhow::Result<T> {
        let mut c = self.conn.clone();
        let r = cmd.query_async(&mut c).await;
        self.note(r.is_err());
        Ok(r?)
    }

    fn note(&self, failed: bool) {
        if failed && !self.broken.swap(true, Ordering::Relaxed) {
            tracing::warn!("Redis call failed; reconnecting in the background");
        }
    }
}

fn ttl_ms(ttl: Duration) -> u64 {
    (ttl.as_millis() as u64).max(1)
}

#[async_trait]
impl KvBackend for RedisKv {
    fn remote(&self) -> bool {
        true
    }
    async fn get(&self, key: &str) -> anyhow::Result<Option<Vec<u8>>> {
        self.run(redis::cmd("GET").arg(key)).await
    }
    async fn get_many(&self, keys: &[String]) -> anyhow::Result<Vec<Option<Vec<u8>>>> {
        self.run(redis::cmd("MGET").arg(keys)).await
    }
    async fn set(&self, key: &str, value: &[u8], ttl: Option<Duration>) -> anyhow::Result<()> {
        let mut cmd = redis::cmd("SET");
        cmd.arg(key).arg(value);
        if let Some(t) = ttl {
            cmd.arg("PX").arg(ttl_ms(t));
        }
        self.run(&cmd).await
    }
    async fn set_nx(&self, key: &str, value: &[u8], ttl: Option<Duration>) -> anyhow::Result<bool> {
        let mut cmd = redis::cmd("SET");
        cmd.arg(key).arg(value).arg("NX");
        if let Some(t) = ttl {
            cmd.arg("PX").arg(ttl_ms(t));
        }
        let r: Option<String> = self.run(&cmd).await?;
        Ok(r.is_some())
    }
    async fn take(&self, key: &str) -> anyhow::Result<Option<Vec<u8>>> {
        self.run(redis::cmd("GETDEL").arg(key)).await
    }
    async fn del(&self, key: &str) -> anyhow::Result<bool> {
        let n: i64 = self.run(redis::cmd("DEL").arg(key)).await?;
        Ok(n > 0)
    }
    async fn incr(&self, key: &str, ttl: Duration) -> anyhow::Result<i64> {
        let mut c = self.conn.clone();
        let r: Result<(i64, i64), _> =
            redis::pipe().atomic().cmd("INCR").arg(key).cmd("PEXPIRE").arg(key).arg(ttl_ms(ttl)).arg("NX").query_async(&mut c).await;
        self.note(r.is_err());
        Ok(r?.0)
    }
    async fn entries(&self, prefix: &str) -> anyhow::Result<Vec<(String, Vec<u8>)>> {
        let pattern: String =
            prefix.chars().flat_map(|c| if "*?[]\\".contains(c) { vec!['\\', c] } else { vec![c] }).chain(['*']).collect();
        let mut cursor = 0u64;
        let mut keys: Vec<String> = Vec::new();
        loop {
            let (next, batch): (u64, Vec<String>) =
                self.run(redis::cmd("SCAN").arg(cursor).arg("MATCH").arg(&pattern).arg("COUNT").arg(1000)).await?;
            keys.extend(batch);
            if next == 0 {
                break;
            }
            cursor = next;
        }
        let mut out = Vec::with_capacity(keys.len());
        for k in keys {
            if let Some(v) = self.run::<Option<Vec<u8>>>(redis::cmd("GET").arg(&k)).await? {
                out.push((k, v));
            }
        }
        Ok(out)
    }
}
