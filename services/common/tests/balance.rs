//! The balanced channel against real servers on loopback addresses 127.0.0.2–5 (Linux routes
//! all of 127/8 to lo): calls spread over the replicas, a killed replica costs no read, and a
//! replica the name gains takes calls within one re-resolve period.
use futures::StreamExt;
use portal_common::grpc::balance::{is_read, Target, RESOLVE_EVERY};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tonic_health::pb::health_client::HealthClient;
use tonic_health::pb::HealthCheckRequest;

/// A replica: the health service on its own runtime (dropping it closes every connection at
/// once, as a killed process would), counting the calls it answers.
struct Replica {
    calls: Arc<AtomicUsize>,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Replica {
    fn start(ip: &str, port: u16) -> (Replica, u16) {
        let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(1).enable_all().build().unwrap();
        let calls = Arc::new(AtomicUsize::new(0));
        let listener = runtime.block_on(tokio::net::TcpListener::bind((ip, port))).expect("bind a loopback address");
        let port = listener.local_addr().unwrap().port();
        let counted = calls.clone();
        runtime.spawn(async move {
            let (_reporter, health) = tonic_health::server::health_reporter();
            let count = tower::util::MapRequestLayer::new(move |req: http::Request<tonic::body::Body>| {
                counted.fetch_add(1, Ordering::Relaxed);
                req
            });
            let incoming = tokio_stream::wrappers::TcpListenerStream::new(listener);
            tonic::transport::Server::builder().layer(count).add_service(health).serve_with_incoming(incoming).await.unwrap();
        });
        (Replica { calls, runtime: Some(runtime) }, port)
    }
    fn calls(&self) -> usize {
        self.calls.load(Ordering::Relaxed)
    }
    fn kill(&mut self) {
        self.runtime.take().unwrap().shutdown_background();
    }
}

fn hosts(path: &PathBuf, ips: &[&str]) {
    let text: String = ips.iter().map(|ip| format!("{ip} replicas.test\n")).collect();
    std::fs::write(path, text).unwrap();
}

/// `n` health checks, `at_once` at a time; answers how many failed.
async fn calls_at(client: &HealthClient<portal_common::grpc::Channel>, n: usize, at_once: usize) -> usize {
    let check = |_| {
        let mut c = client.clone();
        async move { c.check(HealthCheckRequest { service: String::new() }).await.is_err() }
    };
    futures::stream::iter(0..n).map(check).buffer_unordered(at_once).filter(|failed| std::future::ready(*failed)).count().await
}

/// `n` health checks one after the other (on a machine shared with builds, concurrent calls go
/// to whichever replica's thread is scheduled, which is the balancer doing its job but makes
/// shares noisy); answers how many failed.
async fn calls(client: &HealthClient<portal_common::grpc::Channel>, n: usize) -> usize {
    calls_at(client, n, 1).await
}

fn share(r: &Replica, before: usize, total: usize) -> f64 {
    (r.calls() - before) as f64 / total as f64
}

#[test]
fn replicas_share_calls_survive_a_kill_and_gain_a_newcomer() {
    let (mut a, port) = Replica::start("127.0.0.2", 0);
    let (b, _) = Replica::start("127.0.0.3", port);
    let (c, _) = Replica::start("127.0.0.4", port);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hosts");
    hosts(&file, &["127.0.0.2", "127.0.0.3", "127.0.0.4"]);
    // Started now, but not in the name until later.
    let (d, _) = Replica::start("127.0.0.5", port);
    let client_rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    client_rt.block_on(async {
        let url = format!("dns:///replicas.test:{port}?hosts={}", file.display());
        let channel = portal_common::grpc::channel(&url).unwrap();
        let client = HealthClient::new(channel.clone());

        // Spread: each of three takes 25–42 % of 300 calls.
        assert_eq!(calls(&client, 300).await, 0);
        for r in [&a, &b, &c] {
            let s = share(r, 0, 300);
            assert!((0.25..=0.42).contains(&s), "a replica took {:.0} % of the calls", s * 100.0);
        }
        assert_eq!(channel.endpoints().len(), 3);

        // Kill one while calls run: the reads on it are sent again elsewhere; none fails.
        let load = tokio::spawn({
            let client = client.clone();
            async move { calls_at(&client, 600, 8).await }
        });
        tokio::time::sleep(Duration::from_millis(30)).await;
        a.kill();
        assert_eq!(load.await.unwrap(), 0, "reads failed after a replica was killed");
        let (b0, c0) = (b.calls(), c.calls());
        assert_eq!(calls(&client, 100).await, 0);
        assert_eq!(b.calls() - b0 + c.calls() - c0, 100, "calls after the kill reach the two left");

        // A newcomer: the name now gives .5 instead of the dead .2; it takes calls within one
        // re-resolve period.
        hosts(&file, &["127.0.0.3", "127.0.0.4", "127.0.0.5"]);
        let since = Instant::now();
        while d.calls() == 0 {
            assert!(since.elapsed() < RESOLVE_EVERY + Duration::from_secs(2), "the new replica took no call");
            assert_eq!(calls(&client, 10).await, 0);
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let urls: Vec<String> = channel.endpoints().into_iter().map(|(u, ..)| u).collect();
        assert!(urls.iter().any(|u| u.contains("127.0.0.5")) && !urls.iter().any(|u| u.contains("127.0.0.2")), "{urls:?}");
        let before = [b.calls(), c.calls(), d.calls()];
        assert_eq!(calls(&client, 300).await, 0);
        for (r, n) in [&b, &c, &d].into_iter().zip(before) {
            let s = share(r, n, 300);
            assert!((0.25..=0.42).contains(&s), "after the change a replica took {:.0} %", s * 100.0);
        }
    });
}

#[test]
fn a_static_list_balances_and_skips_a_dead_endpoint() {
    let (a, port_a) = Replica::start("127.0.0.6", 0);
    let (b, port_b) = Replica::start("127.0.0.7", 0);
    // Nothing listens on the third: its connection is refused, it is ejected, calls go on.
    let dead = std::net::TcpListener::bind("127.0.0.8:0").unwrap();
    let port_dead = dead.local_addr().unwrap().port();
    drop(dead);
    let url = format!("http://127.0.0.6:{port_a}, http://127.0.0.7:{port_b},http://127.0.0.8:{port_dead}");
    let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
    rt.block_on(async {
        let channel = portal_common::grpc::channel(&url).unwrap();
        let client = HealthClient::new(channel.clone());
        assert_eq!(calls(&client, 200).await, 0);
        assert!(a.calls() >= 60 && b.calls() >= 60, "{} / {}", a.calls(), b.calls());
        assert!(channel.endpoints().iter().any(|(u, _, ejected)| u.contains("127.0.0.8") && *ejected));
    });
}

#[test]
fn balanced_urls_parse_and_one_endpoint_urls_stay_as_they_were() {
    assert_eq!(Target::parse("http://profile:50051").unwrap(), None);
    assert_eq!(Target::parse("unix:/tmp/profile.sock").unwrap(), None);
    assert_eq!(Target::parse("inproc:x/profile").unwrap(), None);
    assert_eq!(
        Target::parse("dns:///profile.portal.svc:50051").unwrap(),
        Some(Target::Dns { host: "profile.portal.svc".into(), port: 50051, hosts_file: None })
    );
    assert_eq!(
        Target::parse("dns:///p:1?hosts=/tmp/h").unwrap(),
        Some(Target::Dns { host: "p".into(), port: 1, hosts_file: Some("/tmp/h".into()) })
    );
    assert_eq!(
        Target::parse("http://127.0.0.2:1,http://127.0.0.3:1").unwrap(),
        Some(Target::Static(vec!["http://127.0.0.2:1".into(), "http://127.0.0.3:1".into()]))
    );
    assert!(Target::parse("dns:///profile").is_err());
    assert!(is_read("/portal.profile.v1.ProfileService/GetProfile"));
    assert!(is_read("/grpc.health.v1.Health/Check"));
    assert!(!is_read("/portal.profile.v1.LoyaltyService/Redeem"));
    assert!(!is_read("/portal.profile.v1.ProfileService/UpdateProfile"));
}
