//! Issue 22, finding 3: one client can't take the gateway down. Connections over the per-address
//! or the total cap are closed by the server as soon as they arrive (while a member elsewhere is
//! served at once), a trusted proxy is held only to the total, a client that sends a partial
//! header or nothing is dropped after the header-read timeout, an idle HTTP/2 connection after
//! the idle timeout, and a slow body gets 408. An https portal sends HSTS on every answer.
//! Everything here speaks raw TCP from chosen loopback addresses (127.0.0.x), so the caps are seen
//! as the server sees them; the timeouts are short so the tests are.
use crate::helpers::{assert_error_shape, spawn_app, Options, Reply, TestApp};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

fn gateway(app: &TestApp) -> SocketAddr {
    app.base.trim_start_matches("http://").parse().unwrap()
}

/// A TCP connection to the gateway from the loopback address `from`.
async fn open_from(app: &TestApp, from: &str) -> TcpStream {
    let s = TcpSocket::new_v4().unwrap();
    s.bind(format!("{from}:0").parse().unwrap()).unwrap();
    s.connect(gateway(app)).await.unwrap()
}

/// How long until the server closed `s` (end of stream or reset), reading and dropping whatever
/// it sent first; `None` if it was still open after `within`.
async fn closed_within(s: &mut TcpStream, within: Duration) -> Option<Duration> {
    let start = Instant::now();
    let mut buf = [0u8; 4096];
    loop {
        match tokio::time::timeout(within.saturating_sub(start.elapsed()), s.read(&mut buf)).await {
            Err(_) => return None,
            Ok(Ok(0) | Err(_)) => return Some(start.elapsed()),
            Ok(Ok(_)) => continue,
        }
    }
}

/// Open, with nothing to read: the server neither closed it nor answered.
fn still_open(s: &TcpStream) -> bool {
    let mut b = [0u8; 1];
    matches!(s.try_read(&mut b), Err(e) if e.kind() == std::io::ErrorKind::WouldBlock)
}

/// One request on a new connection from `from`, `Connection: close`: the answer's status and body,
/// and how long the whole exchange took, connecting included.
async fn request_from(app: &TestApp, from: &str, head: &str, body: &[u8]) -> (Reply, Duration) {
    let start = Instant::now();
    let mut s = open_from(app, from).await;
    s.write_all(format!("{head}Host: portal\r\nConnection: close\r\n\r\n").as_bytes()).await.unwrap();
    s.write_all(body).await.unwrap();
    let mut raw = Vec::new();
    tokio::time::timeout(Duration::from_secs(10), s.read_to_end(&mut raw)).await.expect("an answer").unwrap();
    (parse(&raw), start.elapsed())
}

/// An HTTP/1.1 answer (not chunked: the gateway's JSON answers carry a length).
fn parse(raw: &[u8]) -> Reply {
    let text = String::from_utf8_lossy(raw);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or_else(|| panic!("not an HTTP answer: {text:?}"));
    let status = head.split(' ').nth(1).unwrap().parse().unwrap();
    Reply { status, body: serde_json::from_str(body).unwrap_or(serde_json::Value::String(body.into())) }
}

async fn get_from(app: &TestApp, from: &str, path: &str) -> (Reply, Duration) {
    request_from(app, from, &format!("GET {path} HTTP/1.1\r\n"), b"").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_over_the_per_address_cap_are_closed_at_once() {
    let app = spawn_app(Options {
        tweak: |s| {
            s.server.max_connections_per_ip = 50;
            // Long enough that no socket here is closed for its silence during the test.
            s.server.header_read_timeout_ms = 5_000;
        },
        ..Options::default()
    })
    .await
    .unwrap();
    // One client opens its 50 connections and sends nothing on them...
    let mut held = Vec::new();
    for _ in 0..50 {
        held.push(open_from(&app, "127.0.0.1").await);
    }
    // ...and 20 more, which the server accepts after those (one accept loop, in order) and closes.
    let mut extra = Vec::new();
    for _ in 0..20 {
        extra.push(open_from(&app, "127.0.0.1").await);
    }
    for s in &mut extra {
        let closed = closed_within(s, Duration::from_secs(2)).await;
        assert!(closed.is_some(), "a connection over the per-address cap is closed by the server at once");
    }
    assert!(held.iter().all(still_open), "the first 50 are held open, not closed by a timeout");
    // A member at another address is served at once.
    let (r, took) = get_from(&app, "127.0.0.2", "/api/network/available").await;
    assert_eq!(r.status, 200, "{:?}", r.body);
    assert!(took < Duration::from_millis(100), "answered in {took:?}");
    // Once the client lets its connections go, it is served again (the server frees their places
    // when it sees them close).
    drop(held);
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let mut s = open_from(&app, "127.0.0.1").await;
        s.write_all(b"GET /api/network/available HTTP/1.1\r\nHost: portal\r\nConnection: close\r\n\r\n").await.unwrap();
        let mut raw = Vec::new();
        let _ = tokio::time::timeout(Duration::from_secs(2), s.read_to_end(&mut raw)).await;
        if raw.starts_with(b"HTTP/1.1 200") {
            break;
        }
        assert!(Instant::now() < deadline, "the client's places were never given back");
    }
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_over_the_total_cap_are_closed_at_once() {
    let app = spawn_app(Options {
        tweak: |s| {
            s.server.max_connections = 30;
            s.server.max_connections_per_ip = 10;
            s.server.header_read_timeout_ms = 5_000;
        },
        ..Options::default()
    })
    .await
    .unwrap();
    let mut held = Vec::new();
    for from in ["127.0.0.3", "127.0.0.4", "127.0.0.5"] {
        for _ in 0..10 {
            held.push(open_from(&app, from).await);
        }
    }
    // Every address is within its own cap, but the gateway holds as many as it may.
    let mut over = open_from(&app, "127.0.0.6").await;
    assert!(closed_within(&mut over, Duration::from_secs(2)).await.is_some(), "over the total cap: closed at once");
    assert!(held.iter().all(still_open));
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trusted_proxy_is_held_only_to_the_total() {
    let app = spawn_app(Options {
        tweak: |s| {
            s.server.max_connections_per_ip = 5;
            s.server.header_read_timeout_ms = 5_000;
            s.trusted_proxies = vec!["127.0.0.7".into()];
        },
        ..Options::default()
    })
    .await
    .unwrap();
    let mut held = Vec::new();
    for _ in 0..12 {
        held.push(open_from(&app, "127.0.0.7").await);
    }
    let (r, _) = get_from(&app, "127.0.0.7", "/api/network/available").await;
    assert_eq!(r.status, 200, "the proxy's 13th connection is served");
    assert!(held.iter().all(still_open));
    // A client that is no proxy gets its 5.
    let mut direct = Vec::new();
    for _ in 0..6 {
        direct.push(open_from(&app, "127.0.0.8").await);
    }
    assert!(closed_within(&mut direct[5], Duration::from_secs(2)).await.is_some());
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_and_silent_clients_are_dropped() {
    let app = spawn_app(Options {
        tweak: |s| {
            s.server.header_read_timeout_ms = 1_000;
            s.server.idle_timeout_ms = 1_500;
            s.server.body_timeout_ms = 1_000;
        },
        ..Options::default()
    })
    .await
    .unwrap();
    let within = Duration::from_secs(5);
    let about = |took: Duration, timeout_ms: u64| {
        assert!(
            took >= Duration::from_millis(timeout_ms - 200) && took < Duration::from_millis(timeout_ms + 2_500),
            "closed after {took:?}"
        );
    };

    // Slowloris: part of a request's headers, then nothing.
    let mut slow = open_from(&app, "127.0.0.1").await;
    slow.write_all(b"GET /api/network/available HTTP/1.1\r\nHost: portal\r\nX-Slow: ").await.unwrap();
    about(closed_within(&mut slow, within).await.expect("a partial header is dropped"), 1_000);

    // Nothing at all.
    let mut silent = open_from(&app, "127.0.0.1").await;
    about(closed_within(&mut silent, within).await.expect("a silent connection is dropped"), 1_000);

    // A kept-alive connection after its answer waits for its next request's headers as long.
    let mut kept = open_from(&app, "127.0.0.1").await;
    kept.write_all(b"GET /api/network/available HTTP/1.1\r\nHost: portal\r\n\r\n").await.unwrap();
    let mut first = [0u8; 12];
    kept.read_exact(&mut first).await.unwrap();
    assert_eq!(&first, b"HTTP/1.1 200");
    about(closed_within(&mut kept, within).await.expect("an idle kept-alive connection is dropped"), 1_000);

    // HTTP/2 without TLS (prior knowledge): the preface and empty settings, then nothing.
    let mut h2 = open_from(&app, "127.0.0.1").await;
    h2.write_all(b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00").await.unwrap();
    about(closed_within(&mut h2, within).await.expect("an idle HTTP/2 connection is dropped"), 1_500);

    // A body that doesn't come: 408 in the error shape, and the connection closed.
    let mut body = open_from(&app, "127.0.0.1").await;
    body.write_all(b"PUT /api/profile/attributes/comms HTTP/1.1\r\nHost: portal\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"sms\":").await.unwrap();
    let start = Instant::now();
    let mut raw = Vec::new();
    tokio::time::timeout(within, body.read_to_end(&mut raw)).await.expect("answered and closed").unwrap();
    about(start.elapsed(), 1_000);
    assert_error_shape(&parse(&raw), 408);
    app.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_https_portal_sends_hsts_on_every_answer() {
    let app = spawn_app(Options { tweak: |s| s.public_url = "https://portal.brand.example".into(), ..Options::default() }).await.unwrap();
    for path in ["/api/network/available", "/", "/api/nothing-here", "/api/profile"] {
        let res = app.http.get(app.url(path)).send().await.unwrap();
        assert_eq!(res.headers()["strict-transport-security"], "max-age=31536000; includeSubDomains", "{path}: {}", res.status());
    }
    app.stop().await;
    // Over plain http (a dev portal on localhost) a browser would ignore it: not sent.
    let app = spawn_app(Options::default()).await.unwrap();
    let res = app.http.get(app.url("/api/network/available")).send().await.unwrap();
    assert!(res.headers().get("strict-transport-security").is_none());
    app.stop().await;
}
