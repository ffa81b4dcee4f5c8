//! Client-side load balancing over the replicas of one service. A tonic channel keeps one HTTP/2
//! connection, so behind one address every call would reach one pod; here every address of the
//! name gets its own connection and each call goes to the less busy of two picked at random.
//!
//! The set follows the name (re-resolved every [`RESOLVE_EVERY`] and after a connection fails);
//! an endpoint whose connection fails is left out for [`EJECT_FOR`]; a call that never reached a
//! server, and a read whose connection broke, is sent once more to another endpoint.
use futures::future::BoxFuture;
use http_body_util::BodyExt;
use rand::Rng;
use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};
use tonic::body::Body;
use tower::{Service, ServiceExt};

/// How often the name is looked up again, for replicas that came or went.
pub const RESOLVE_EVERY: Duration = Duration::from_secs(5);
/// How long an endpoint whose connection failed gets no calls (unless no other is left).
pub const EJECT_FOR: Duration = Duration::from_secs(10);

type Response = http::Response<Body>;
type Result<T> = std::result::Result<T, tonic::transport::Error>;

/// Where the endpoints of a balanced URL come from.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    /// `http://a:1,http://b:2`: these, always.
    Static(Vec<String>),
    /// `dns:///name:port`: every address the name resolves to; with `?hosts=/path`, the name is
    /// looked up in that file (the `/etc/hosts` format, read again each time) instead of DNS.
    Dns { host: String, port: u16, hosts_file: Option<PathBuf> },
}

impl Target {
    /// The target of a balanced URL, or `None` for a URL of one endpoint (`http://host:port`).
    pub fn parse(url: &str) -> anyhow::Result<Option<Target>> {
        if let Some(rest) = url.strip_prefix("dns:") {
            let rest = rest.trim_start_matches('/');
            let (authority, query) = rest.split_once('?').unwrap_or((rest, ""));
            let (host, port) = authority.rsplit_once(':').ok_or_else(|| anyhow::anyhow!("{url}: a dns: URL needs host:port"))?;
            let port = port.parse().map_err(|_| anyhow::anyhow!("{url}: the port is not a number"))?;
            let hosts_file = query.split('&').find_map(|kv| kv.strip_prefix("hosts=")).map(PathBuf::from);
            let host = host.trim_matches(|c| c == '[' || c == ']').to_string();
            return Ok(Some(Target::Dns { host, port, hosts_file }));
        }
        if url.contains(',') {
            let urls: Vec<String> = url.split(',').map(str::trim).filter(|u| !u.is_empty()).map(String::from).collect();
            for u in &urls {
                u.parse::<http::Uri>().map_err(|e| anyhow::anyhow!("{u}: {e}"))?;
            }
            return Ok(Some(Target::Static(urls)));
        }
        Ok(None)
    }

    /// The URL of every endpoint, sorted.
    async fn resolve(&self) -> std::io::Result<Vec<String>> {
        let (host, port, hosts_file) = match self {
            Target::Static(urls) => return Ok(urls.clone()),
            Target::Dns { host, port, hosts_file } => (host, *port, hosts_file),
        };
        let mut ips: Vec<IpAddr> = match hosts_file {
            Some(path) => hosts_lookup(&tokio::fs::read_to_string(path).await?, host),
            None => tokio::net::lookup_host((host.as_str(), port)).await?.map(|a| a.ip()).collect(),
        };
        ips.sort();
        ips.dedup();
        Ok(ips.into_iter().map(|ip| format!("http://{}", SocketAddr::new(ip, port))).collect())
    }
}

/// Every address `/etc/hosts`-format `text` gives `host`.
fn hosts_lookup(text: &str, host: &str) -> Vec<IpAddr> {
    text.lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .filter_map(|l| {
            let mut words = l.split_whitespace();
            let ip: IpAddr = words.next()?.parse().ok()?;
            words.any(|w| w.eq_ignore_ascii_case(host)).then_some(ip)
        })
        .collect()
}

/// Whether a call may be sent again after its connection broke: the reads, by their name.
pub fn is_read(path: &str) -> bool {
    const READS: [&str; 8] = ["Get", "List", "Search", "Find", "Check", "Locate", "Validate", "Export"];
    let method = path.rsplit('/').next().unwrap_or("");
    READS.iter().any(|r| method.starts_with(r))
}

/// One replica: its own connection and the calls on it now.
struct Endpoint {
    url: String,
    channel: tonic::transport::Channel,
    in_flight: AtomicUsize,
    ejected_until: Mutex<Option<Instant>>,
}

impl Endpoint {
    fn ejected(&self, now: Instant) -> bool {
        self.ejected_until.lock().unwrap().is_some_and(|t| t > now)
    }
}

/// Counts a call on an endpoint while it runs.
struct InFlight(Arc<Endpoint>);
impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.in_flight.fetch_sub(1, Ordering::Relaxed);
    }
}

struct Shared {
    target: Target,
    connect: fn(&str) -> anyhow::Result<tonic::transport::Channel>,
    endpoints: Mutex<Vec<Arc<Endpoint>>>,
    resolved: AtomicBool,
    turn: AtomicUsize,
    /// Wakes the resolver early, after a connection failed.
    failed: Arc<tokio::sync::Notify>,
}

/// A balanced channel to the endpoints of a [`Target`].
#[derive(Clone)]
pub struct Balanced {
    shared: Arc<Shared>,
}

impl std::fmt::Debug for Balanced {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Balanced").field("target", &self.shared.target).finish_non_exhaustive()
    }
}

impl Balanced {
    /// Balances over `target`, each endpoint reached through a channel from `connect`. A DNS
    /// target is resolved by a task that ends when the last clone is dropped.
    pub fn new(target: Target, connect: fn(&str) -> anyhow::Result<tonic::transport::Channel>) -> anyhow::Result<Self> {
        let shared = Arc::new(Shared {
            target,
            connect,
            endpoints: Mutex::new(vec![]),
            resolved: AtomicBool::new(false),
            turn: AtomicUsize::new(0),
            failed: Arc::new(tokio::sync::Notify::new()),
        });
        if let Target::Static(urls) = &shared.target {
            shared.update(urls.clone());
            shared.resolved.store(true, Ordering::Release);
        } else {
            tokio::spawn(resolve_loop(Arc::downgrade(&shared)));
        }
        Ok(Self { shared })
    }

    /// The endpoints now, with their calls in flight, and whether each is ejected.
    pub fn endpoints(&self) -> Vec<(String, usize, bool)> {
        let now = Instant::now();
        let all = self.shared.endpoints.lock().unwrap();
        all.iter().map(|e| (e.url.clone(), e.in_flight.load(Ordering::Relaxed), e.ejected(now))).collect()
    }

    /// Sends `req` to the less busy of two endpoints, and once more to another
    /// when it never reached a server, or it is a read and its connection broke.
    pub fn call(&self, req: http::Request<Body>) -> BoxFuture<'static, Result<Response>> {
        let shared = self.shared.clone();
        Box::pin(async move {
            if !shared.resolved.load(Ordering::Acquire) {
                shared.refresh().await;
            }
            let Some(first) = shared.pick(None) else { return Ok(no_endpoint(&shared.target)) };
            let read = is_read(req.uri().path());
            // A unary request is one small message: kept, so that it can be sent again.
            let (parts, body) = req.into_parts();
            let bytes = match body.collect().await {
                Ok(b) => b.to_bytes(),
                Err(e) => return Ok(tonic::Status::internal(format!("reading the request: {e}")).into_http()),
            };
            let mut again = http::Request::new(Body::new(http_body_util::Full::new(bytes.clone())));
            (*again.method_mut(), *again.uri_mut(), *again.version_mut(), *again.headers_mut()) =
                (parts.method.clone(), parts.uri.clone(), parts.version, parts.headers.clone());
            let res = shared.send(&first, http::Request::from_parts(parts, Body::new(http_body_util::Full::new(bytes)))).await;
            // A call that never reached a server goes elsewhere, write or not; a read whose
            // connection broke too (but not one that ran out of time).
            let retry = matches!(&res, Err(e) if never_sent(e) || (read && !timed_out(e)));
            match shared.pick(Some(&first)).filter(|_| retry) {
                Some(next) => shared.send(&next, again).await,
                None => res,
            }
        })
    }
}

fn no_endpoint(target: &Target) -> Response {
    tonic::Status::unavailable(format!("no endpoint of {target:?} is known")).into_http()
}

fn sources(e: &tonic::transport::Error) -> impl Iterator<Item = &(dyn std::error::Error + 'static)> {
    std::iter::successors(std::error::Error::source(e), |s| s.source())
}

/// The call never reached a server: its connection could not be made.
fn never_sent(e: &tonic::transport::Error) -> bool {
    sources(e).any(|s| s.is::<tonic::ConnectError>())
}

/// The call ran out of time: sending it again would outlive the caller's deadline.
fn timed_out(e: &tonic::transport::Error) -> bool {
    sources(e).any(|s| s.is::<tonic::TimeoutExpired>())
}

impl Shared {
    async fn refresh(&self) {
        match self.target.resolve().await {
            Ok(urls) if !urls.is_empty() => self.update(urls),
            // A failed lookup keeps the endpoints known: better stale than none.
            Ok(_) => tracing::warn!(target = ?self.target, "no endpoint resolved; keeping the known ones"),
            Err(e) => tracing::warn!(target = ?self.target, error = %e, "resolving failed; keeping the known ones"),
        }
        self.resolved.store(true, Ordering::Release);
    }

    /// Keeps the endpoints still in `urls` (and their connections), adds the new ones.
    fn update(&self, urls: Vec<String>) {
        let mut all = self.endpoints.lock().unwrap();
        let before = all.len();
        all.retain(|e| urls.contains(&e.url));
        let kept = all.len();
        for url in urls {
            if all.iter().any(|e| e.url == url) {
                continue;
            }
            match (self.connect)(&url) {
                Ok(channel) => {
                    all.push(Arc::new(Endpoint { url, channel, in_flight: AtomicUsize::new(0), ejected_until: Mutex::new(None) }))
                }
                Err(e) => tracing::warn!(url, error = %e, "an endpoint that cannot be dialled"),
            }
        }
        if kept != before || all.len() != kept {
            tracing::info!(target = ?self.target, endpoints = all.len(), removed = before - kept, "endpoints changed");
        }
    }

    /// Power of two choices: of two endpoints, the one with fewer calls in flight.
    /// Ejected endpoints are passed over while any other is left; `not` is never picked.
    fn pick(&self, not: Option<&Arc<Endpoint>>) -> Option<Arc<Endpoint>> {
        let now = Instant::now();
        let all = self.endpoints.lock().unwrap();
        let others: Vec<&Arc<Endpoint>> = all.iter().filter(|e| not.is_none_or(|n| !Arc::ptr_eq(e, n))).collect();
        let live: Vec<&Arc<Endpoint>> = others.iter().copied().filter(|e| !e.ejected(now)).collect();
        let pool = if live.is_empty() { others } else { live };
        let mut rng = rand::thread_rng();
        match pool.len() {
            0 => None,
            1 => Some(pool[0].clone()),
            n => {
                // The first choice takes turns, so that calls spread evenly while every
                // endpoint is idle; the second is random.
                let a = self.turn.fetch_add(1, Ordering::Relaxed) % n;
                let b = (a + rng.gen_range(1..n)) % n;
                let (a, b) = (pool[a], pool[b]);
                Some(if b.in_flight.load(Ordering::Relaxed) < a.in_flight.load(Ordering::Relaxed) { b } else { a }.clone())
            }
        }
    }

    async fn send(&self, e: &Arc<Endpoint>, req: http::Request<Body>) -> Result<Response> {
        e.in_flight.fetch_add(1, Ordering::Relaxed);
        let _counted = InFlight(e.clone());
        let mut channel = e.channel.clone();
        let res = match channel.ready().await {
            Ok(ch) => ch.call(req).await,
            Err(err) => Err(err),
        };
        match &res {
            Err(err) if !timed_out(err) => {
                *e.ejected_until.lock().unwrap() = Some(Instant::now() + EJECT_FOR);
                tracing::warn!(url = e.url, error = %err, "endpoint ejected");
                self.failed.notify_one();
            }
            Ok(_) => *e.ejected_until.lock().unwrap() = None,
            Err(_) => {}
        }
        res
    }
}

async fn resolve_loop(shared: Weak<Shared>) {
    loop {
        let Some(s) = shared.upgrade() else { return };
        s.refresh().await;
        let failed = s.failed.clone();
        let woken = async move {
            failed.notified().await;
            // After a failure, a moment for the name to change before looking again.
            tokio::time::sleep(Duration::from_millis(200)).await;
        };
        let wait = tokio::time::timeout(RESOLVE_EVERY, woken);
        drop(s);
        let _ = wait.await;
    }
}
