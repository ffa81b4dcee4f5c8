//! A service that is down answers the member at once with 503 and `Retry-After`, in the error
//! shape; when it comes back, the gateway reconnects on its own.
use crate::helpers::{assert_error_shape, spawn_app, Reply};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_service_that_is_down_answers_503_and_the_gateway_reconnects_when_it_returns() {
    let app = spawn_app(Default::default()).await.unwrap();
    // A second gateway, whose refdata service is down: a free port nobody listens on yet.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut settings = app.settings.clone();
    settings.port = 0;
    settings.grpc_socket_dir = None;
    settings.grpc_in_process = None;
    settings.services.refdata = Some(format!("http://127.0.0.1:{port}"));
    let gateway = portal_gateway::Application::build(settings.clone()).await.unwrap();
    let base = format!("http://127.0.0.1:{}", gateway.port());
    let (stop, rx) = tokio::sync::oneshot::channel::<()>();
    let served = tokio::spawn(gateway.run(async {
        let _ = rx.await;
    }));
    let http = reqwest::Client::new();
    let get = |path: &'static str| {
        let (http, base) = (http.clone(), base.clone());
        async move {
            let started = std::time::Instant::now();
            let res = http.get(format!("{base}{path}")).send().await.unwrap();
            let retry_after = res.headers().get("retry-after").map(|v| v.to_str().unwrap().to_string());
            let status = res.status().as_u16();
            (Reply { status, body: res.json().await.unwrap() }, retry_after, started.elapsed())
        }
    };

    let (r, retry_after, took) = get("/api/config").await;
    assert_error_shape(&r, 503);
    assert_eq!(r.body["message"], "A service is unavailable, please try again shortly");
    assert_eq!(retry_after.as_deref(), Some("5"));
    assert!(took < std::time::Duration::from_secs(5), "no hang: {took:?}");

    // refdata comes up on its address: the same gateway answers without a restart.
    settings.grpc_port = port;
    let refdata = portal_refdata::build(&settings).await.unwrap();
    let (stop_refdata, rx2) = tokio::sync::oneshot::channel::<()>();
    let refdata_task = tokio::spawn(refdata.run(async {
        let _ = rx2.await;
    }));
    let mut answered = None;
    for _ in 0..50 {
        let (r, _, _) = get("/api/config").await;
        if r.status == 200 {
            answered = Some(r);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(answered.expect("the gateway reconnected within 5 s").body["general"]["tenant"], "demo");
    let _ = stop_refdata.send(());
    refdata_task.await.unwrap().unwrap();
    let _ = stop.send(());
    served.await.unwrap().unwrap();
    app.stop().await;
}
