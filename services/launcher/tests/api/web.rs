//! Everything outside /api: the shell with its SPA fallback, the micro-frontend manifest read
//! from configuration at request time, and the dev-only outbox.
use crate::helpers::{assert_error_shape, spawn_app, Options};
use portal_common::config::Mode;

#[tokio::test]
async fn deep_links_get_the_shell_and_missing_files_404() {
    let app = spawn_app(Default::default()).await.unwrap();
    for path in ["/", "/profile", "/rewards/item/12", "/loc/melbourne-central"] {
        let r = app.http.get(app.url(path)).send().await.unwrap();
        assert_eq!(r.status(), 200, "{path}");
        assert!(r.text().await.unwrap().contains("<title>shell</title>"), "{path}");
    }
    let js = app.http.get(app.url("/assets/app.js")).send().await.unwrap();
    assert_eq!(js.status(), 200);
    assert_eq!(js.headers()["referrer-policy"], "no-referrer");
    assert_error_shape(&app.get("/assets/missing.js", None).await, 404);
    app.stop().await;
}

#[tokio::test]
async fn the_manifest_is_read_at_request_time() {
    let app = spawn_app(Default::default()).await.unwrap();
    let m = app.get("/mfe-manifest.json", None).await;
    assert_eq!(m.body["mfe_profile"]["version"], "0.1.0");
    std::fs::write(
        app.settings.manifest_path(),
        r#"{"mfe_profile":{"entry":"/mfe/mfe-profile/0.2.0/mf-manifest.json","version":"0.2.0"}}"#,
    )
    .unwrap();
    let m = app.get("/mfe-manifest.json", None).await;
    assert_eq!(m.body["mfe_profile"]["version"], "0.2.0", "no restart needed");
    app.stop().await;
}

#[tokio::test]
async fn the_outbox_exists_only_in_dev_mode() {
    let dev = spawn_app(Default::default()).await.unwrap();
    assert_eq!(dev.get("/_dev/outbox.json", None).await.status, 200);
    let page = dev.http.get(dev.url("/_dev/outbox")).send().await.unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.text().await.unwrap().contains("Dev outbox"));
    dev.stop().await;

    let prod = spawn_app(Options { mode: Mode::Production, ..Options::default() }).await.unwrap();
    assert_error_shape(&prod.get("/_dev/outbox.json", None).await, 404);
    let page = prod.http.get(prod.url("/_dev/outbox")).send().await.unwrap();
    assert!(!page.text().await.unwrap().contains("Dev outbox"));
    // Sign-in still answers the same, but nothing lands in an outbox.
    assert_eq!(prod.request_link("demo@example.com", "/home").await.status, 200);
    prod.stop().await;
}

#[tokio::test]
async fn only_the_tenants_allowed_origins_may_frame_the_portal() {
    let app = spawn_app(Default::default()).await.unwrap();
    // The shell and its deep links, and dev pages: every HTML answer.
    for path in ["/", "/profile", "/loc/melbourne-central", "/index.html", "/_dev/outbox"] {
        let r = app.http.get(app.url(path)).send().await.unwrap();
        assert!(r.headers()["content-type"].to_str().unwrap().starts_with("text/html"), "{path}");
        assert_eq!(r.headers()["content-security-policy"], "frame-ancestors 'self' https://partner.example", "{path}");
        assert!(r.headers().get("x-frame-options").is_none(), "{path}: X-Frame-Options would refuse the allowed origins too");
    }
    // The client package for partner pages is importable as a module from their origins.
    std::fs::create_dir_all(app.settings.static_dir.join("embed")).unwrap();
    std::fs::write(app.settings.static_dir.join("embed/portal-embed.js"), "export {}").unwrap();
    let js = app.http.get(app.url("/embed/portal-embed.js")).send().await.unwrap();
    assert_eq!(js.status(), 200);
    assert_eq!(js.headers()["access-control-allow-origin"], "*");
    assert!(app.http.get(app.url("/assets/app.js")).send().await.unwrap().headers().get("access-control-allow-origin").is_none());
    // Not on JSON or scripts.
    for path in ["/api/config", "/assets/app.js", "/healthz"] {
        let r = app.http.get(app.url(path)).send().await.unwrap();
        assert!(r.headers().get("content-security-policy").is_none(), "{path}");
    }
    app.stop().await;
}
