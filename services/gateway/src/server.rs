//! The gateway's listener. Every connection is accepted at once and then either served or closed,
//! so none waits in the kernel's backlog and no client can hold the process's file descriptors
//! (`server` settings, [`portal_common::config::ServerLimits`]):
//! - **caps**: at most `max_connections` open (0: the open-files limit, raised to its hard limit
//!   at start, less a reserve for the process's own files and sockets), and at most
//!   `max_connections_per_ip` from one TCP peer (IPv6: one /64). A connection over either cap is
//!   closed as soon as it is accepted. The `trusted_proxies` are exempt from the per-address cap:
//!   one carries many members.
//! - **header read**: a connection has `header_read_timeout` for its first byte (the HTTP/2 sniff
//!   has no timer of its own); HTTP/1 then has it for each request's headers, counted by hyper
//!   from the first byte or from the end of the previous answer, which also ends an idle
//!   kept-alive connection. A trusted proxy keeps its idle connections up to `idle_timeout`
//!   instead: it pools them, and closing one it is about to reuse would fail a member's request.
//! - **idle**: nothing moving either way for `idle_timeout` closes the connection: an idle HTTP/2
//!   (h2c) connection, a stalled answer to a client that stopped reading.
//! - the request body's deadline is [`crate::limits`]'. Shutdown is graceful: no new connection,
//!   each open one finishes its request and closes.
use axum::extract::Request;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto::Builder;
use hyper_util::service::TowerToHyperService;
use portal_common::config::ServerLimits;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::pin::{pin, Pin};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::time::Instant;
use tower::{Service, ServiceExt};

/// The limits in force, with the connection cap worked out.
#[derive(Debug, Clone)]
pub struct Limits {
    pub header_read: Duration,
    pub idle: Duration,
    pub max_connections: usize,
    pub max_per_ip: usize,
}

impl Limits {
    /// The settings' limits. The open-files limit is raised to the hard limit first, whatever
    /// the settings; a `max_connections` of 0 is derived from it, one set above what it allows is
    /// kept but told in the log.
    pub fn from_settings(s: &ServerLimits) -> Limits {
        let open_files = raise_open_files_limit();
        let fits = derived_max_connections(open_files);
        let max_connections = match s.max_connections {
            0 => fits,
            n => {
                if n > fits {
                    tracing::warn!(max_connections = n, open_files, "more connections allowed than open files leave room for");
                }
                n
            }
        };
        Limits {
            header_read: Duration::from_millis(s.header_read_timeout_ms.max(1)),
            idle: Duration::from_millis(s.idle_timeout_ms.max(1)),
            max_connections: max_connections.max(1),
            max_per_ip: s.max_connections_per_ip.max(1),
        }
    }
}

/// Connections allowed for an open-files limit: all but a reserve of a quarter, at most 1,024,
/// for the database pools, Redis, the services' own sockets, logs and the GeoIP files.
pub fn derived_max_connections(open_files: u64) -> usize {
    let reserve = (open_files / 4).min(1024);
    usize::try_from(open_files - reserve).unwrap_or(usize::MAX)
}

/// Raises the soft open-files limit to the hard limit and answers the limit in force (1,024, the
/// usual default, when it can't be read).
pub fn raise_open_files_limit() -> u64 {
    #[cfg(unix)]
    {
        use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
        let now = getrlimit(Resource::Nofile);
        if let (Some(current), Some(maximum)) = (now.current, now.maximum) {
            if current < maximum {
                match setrlimit(Resource::Nofile, Rlimit { current: Some(maximum), maximum: Some(maximum) }) {
                    Ok(()) => tracing::info!(from = current, to = maximum, "open-files limit raised"),
                    Err(e) => tracing::warn!(error = %e, current, maximum, "open-files limit not raised"),
                }
            }
        }
        // Unlimited reads as None: cap what a process can sensibly count on.
        getrlimit(Resource::Nofile).current.unwrap_or(1 << 20)
    }
    #[cfg(not(unix))]
    {
        1024
    }
}

/// The per-address key: an IPv4 address (also when mapped into IPv6), or an IPv6 /64, which one
/// subscriber usually holds whole.
fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & !((1u128 << 64) - 1)).into()),
        },
        v4 => v4,
    }
}

#[derive(Default)]
struct Counts {
    total: usize,
    by_address: HashMap<IpAddr, usize>,
}

/// The open connections, by address.
struct Tracker {
    limits: Limits,
    trusted: Arc<Vec<ipnet::IpNet>>,
    counts: Mutex<Counts>,
}

/// Why a connection was closed at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refused {
    Total,
    PerAddress,
}

/// One admitted connection; gives its place back when dropped.
struct Slot {
    tracker: Arc<Tracker>,
    key: Option<IpAddr>,
}

impl Tracker {
    fn is_trusted(&self, ip: IpAddr) -> bool {
        self.trusted.iter().any(|n| n.contains(&ip))
    }

    fn admit(self: &Arc<Self>, peer: IpAddr) -> Result<Slot, Refused> {
        let key = (!self.is_trusted(peer)).then(|| address_key(peer));
        let mut c = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        if c.total >= self.limits.max_connections {
            return Err(Refused::Total);
        }
        if let Some(k) = key {
            let n = c.by_address.entry(k).or_default();
            if *n >= self.limits.max_per_ip {
                return Err(Refused::PerAddress);
            }
            *n += 1;
        }
        c.total += 1;
        metrics::gauge!("gateway_connections_open").set(c.total as f64);
        Ok(Slot { tracker: self.clone(), key })
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut c = self.tracker.counts.lock().unwrap_or_else(|p| p.into_inner());
        c.total -= 1;
        if let Some(k) = self.key {
            if let Some(n) = c.by_address.get_mut(&k) {
                *n -= 1;
                if *n == 0 {
                    c.by_address.remove(&k);
                }
            }
        }
        metrics::gauge!("gateway_connections_open").set(c.total as f64);
    }
}

/// When a connection last moved a byte either way, and whether the client ever sent one.
struct Activity {
    opened: Instant,
    last_ms: AtomicU64,
    heard: AtomicBool,
}

impl Activity {
    fn touch(&self, read: bool) {
        self.last_ms.store(self.opened.elapsed().as_millis() as u64, Ordering::Relaxed);
        if read {
            self.heard.store(true, Ordering::Relaxed);
        }
    }

    /// Resolves once the connection has been silent too long: `first_byte` after opening while
    /// the client has sent nothing, then `idle` after the last byte either way.
    async fn silent(&self, first_byte: Duration, idle: Duration) {
        loop {
            let deadline = if self.heard.load(Ordering::Relaxed) {
                self.opened + Duration::from_millis(self.last_ms.load(Ordering::Relaxed)) + idle
            } else {
                self.opened + first_byte
            };
            if Instant::now() >= deadline {
                return;
            }
            tokio::time::sleep_until(deadline).await;
        }
    }
}

/// The TCP stream, noting each byte that moves.
struct Watched {
    io: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for Watched {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.io).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.touch(true);
        }
        r
    }
}

impl AsyncWrite for Watched {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        let r = Pin::new(&mut self.io).poll_write(cx, buf);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch(false);
        }
        r
    }

    fn poll_write_vectored(mut self: Pin<&mut Self>, cx: &mut Context<'_>, bufs: &[std::io::IoSlice<'_>]) -> Poll<std::io::Result<usize>> {
        let r = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch(false);
        }
        r
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// The HTTP/1 and HTTP/2 settings of one connection.
fn builder(header_read: Duration) -> Builder<TokioExecutor> {
    let mut b = Builder::new(TokioExecutor::new());
    b.http1().timer(TokioTimer::new()).header_read_timeout(header_read);
    // No keep-alive pings: they would keep an idle connection busy. A bounded number of streams
    // at once, as for HTTP/1's one request at a time.
    b.http2().timer(TokioTimer::new()).max_concurrent_streams(100);
    b
}

/// Serves `router` on `listener` under `limits` until `shutdown` resolves, then waits for the
/// open connections to finish their requests.
pub async fn serve<F>(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    trusted: Arc<Vec<ipnet::IpNet>>,
    shutdown: F,
) -> std::io::Result<()>
where
    F: std::future::Future<Output = ()> + Send + 'static,
{
    let mut make_service = router.into_make_service_with_connect_info::<SocketAddr>();
    let tracker = Arc::new(Tracker { limits: limits.clone(), trusted, counts: Mutex::default() });
    // Told to every connection when shutting down; each holds `done_rx` until it has finished.
    let (stop_tx, stop_rx) = watch::channel(false);
    let (done_tx, done_rx) = watch::channel(());
    let mut shutdown = pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    accept_error(e).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let slot = match tracker.admit(peer.ip()) {
            Ok(s) => s,
            Err(why) => {
                // Closed here and now: the client learns at once, and the descriptor is free.
                metrics::counter!("gateway_connections_refused_total", "cap" => if why == Refused::Total { "total" } else { "per_address" }).increment(1);
                tracing::debug!(?why, "connection over the cap closed");
                drop(stream);
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let header_read = if slot.key.is_none() { limits.header_read.max(limits.idle) } else { limits.header_read };
        let idle = limits.idle;
        let tower_service = match make_service.call(peer).await {
            Ok(s) => s,
            Err(never) => match never {},
        };
        let hyper_service = TowerToHyperService::new(tower_service.map_request(|req: Request<Incoming>| req.map(axum::body::Body::new)));
        let mut stop_rx = stop_rx.clone();
        let done_rx = done_rx.clone();
        tokio::spawn(async move {
            let activity = Arc::new(Activity { opened: Instant::now(), last_ms: AtomicU64::new(0), heard: AtomicBool::new(false) });
            let io = TokioIo::new(Watched { io: stream, activity: activity.clone() });
            let b = builder(header_read);
            let mut conn = pin!(b.serve_connection(io, hyper_service));
            let mut silent = pin!(activity.silent(header_read, idle));
            let mut stopping = false;
            loop {
                tokio::select! {
                    served = conn.as_mut() => {
                        if let Err(e) = served {
                            tracing::trace!(error = %e, "connection ended with an error");
                        }
                        break;
                    }
                    // Dropping the connection closes it.
                    () = &mut silent => break,
                    changed = stop_rx.wait_for(|stop| *stop), if !stopping => {
                        stopping = true;
                        if changed.is_ok() {
                            conn.as_mut().graceful_shutdown();
                        }
                    }
                }
            }
            drop(slot);
            drop(done_rx);
        });
    }
    drop(listener);
    let _ = stop_tx.send(true);
    drop(done_rx);
    done_tx.closed().await;
    Ok(())
}

/// Errors that concern one connection are skipped; others (out of descriptors) are waited out
/// briefly rather than retried in a tight loop.
async fn accept_error(e: std::io::Error) {
    use std::io::ErrorKind::*;
    if matches!(e.kind(), ConnectionRefused | ConnectionAborted | ConnectionReset) {
        return;
    }
    tracing::error!(error = %e, "accepting a connection failed");
    tokio::time::sleep(Duration::from_millis(100)).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tracker(max: usize, per_ip: usize, trusted: &[&str]) -> Arc<Tracker> {
        let limits = Limits { header_read: Duration::from_secs(1), idle: Duration::from_secs(1), max_connections: max, max_per_ip: per_ip };
        Arc::new(Tracker { limits, trusted: Arc::new(trusted.iter().map(|t| t.parse().unwrap()).collect()), counts: Mutex::default() })
    }

    #[test]
    fn caps_per_address_and_in_all() {
        let t = tracker(5, 2, &["10.0.0.0/8"]);
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        let a1 = t.admit(ip("192.0.2.1")).unwrap();
        let _a2 = t.admit(ip("192.0.2.1")).unwrap();
        assert_eq!(t.admit(ip("192.0.2.1")).err(), Some(Refused::PerAddress));
        // The same /64, and the same IPv4 address mapped into IPv6, count as one address.
        let _b1 = t.admit(ip("2001:db8::1")).unwrap();
        let _b2 = t.admit(ip("2001:db8::ffff:2")).unwrap();
        assert_eq!(t.admit(ip("2001:db8::3")).err(), Some(Refused::PerAddress));
        assert_eq!(t.admit(ip("::ffff:192.0.2.1")).err(), Some(Refused::PerAddress));
        drop(a1);
        let _a3 = t.admit(ip("::ffff:192.0.2.1")).unwrap();
        // A trusted proxy is not held to the per-address cap, only to the total.
        let p1 = t.admit(ip("10.1.2.3")).unwrap();
        assert!(p1.key.is_none());
        assert_eq!(t.admit(ip("10.1.2.3")).err(), Some(Refused::Total), "5 open");
    }

    #[test]
    fn the_cap_leaves_a_reserve_of_descriptors() {
        assert_eq!(derived_max_connections(20_000), 18_976);
        assert_eq!(derived_max_connections(1024), 768);
        assert!(raise_open_files_limit() >= 1024);
    }
}
