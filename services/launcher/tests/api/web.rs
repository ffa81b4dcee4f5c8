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
async fn html_answers_carry_the_security_policy_and_only_allowed_origins_may_frame_the_portal() {
    let app = spawn_app(Default::default()).await.unwrap();
    // The shell and its deep links, and dev pages: every HTML answer.
    for path in ["/", "/profile", "/loc/melbourne-central", "/index.html", "/_dev/outbox"] {
        let r = app.http.get(app.url(path)).send().await.unwrap();
        assert!(r.headers()["content-type"].to_str().unwrap().starts_with("text/html"), "{path}");
        let csp = r.headers()["content-security-policy"].to_str().unwrap().to_string();
        assert!(csp.ends_with("; frame-ancestors 'self' https://partner.example"), "{path}: {csp}");
        assert!(csp.contains("script-src 'self';") && !csp.contains("unsafe-eval"), "{path}: {csp}");
        assert_eq!(r.headers()["permissions-policy"], "geolocation=(self), camera=(), microphone=(), payment=()", "{path}");
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

#[tokio::test]
async fn the_front_end_is_served_as_a_cdn_would() {
    let app = spawn_app(Default::default()).await.unwrap();
    let dir = app.settings.static_dir.clone();
    std::fs::create_dir_all(dir.join("shell")).unwrap();
    std::fs::write(dir.join("shell/main.1a2b3c4d.js"), "console.log('main')").unwrap();
    std::fs::write(dir.join("shell/main.1a2b3c4d.js.br"), "BROTLI-BYTES").unwrap();
    std::fs::write(dir.join("shell/main.1a2b3c4d.js.gz"), "GZIP-BYTES").unwrap();
    std::fs::write(dir.join("index.html.br"), "BROTLI-HTML").unwrap();
    let get = |path: &str, encoding: Option<&str>| {
        let mut r = app.http.get(app.url(path));
        if let Some(e) = encoding {
            r = r.header("accept-encoding", e);
        }
        r.send()
    };

    // The copy the browser accepts, made at build time; the plain file otherwise.
    let r = get("/shell/main.1a2b3c4d.js", Some("gzip, deflate, br")).await.unwrap();
    assert_eq!(r.headers()["content-encoding"], "br");
    assert_eq!(r.headers()["vary"], "Accept-Encoding");
    // Content-hashed: a year, immutable, in dev mode too.
    assert_eq!(r.headers()["cache-control"], "public, max-age=31536000, immutable");
    assert_eq!(r.text().await.unwrap(), "BROTLI-BYTES");
    let r = get("/shell/main.1a2b3c4d.js", Some("gzip")).await.unwrap();
    assert_eq!(r.headers()["content-encoding"], "gzip");
    assert_eq!(r.text().await.unwrap(), "GZIP-BYTES");
    let r = get("/shell/main.1a2b3c4d.js", None).await.unwrap();
    assert!(r.headers().get("content-encoding").is_none());
    assert_eq!(r.text().await.unwrap(), "console.log('main')");

    // HTML, deep links included, and files without a content hash: revalidated.
    for path in ["/", "/rewards/item/12"] {
        let r = get(path, Some("br")).await.unwrap();
        assert_eq!(r.headers()["content-encoding"], "br", "{path}");
        assert_eq!(r.headers()["cache-control"], "no-cache", "{path}");
        assert_eq!(r.headers()["content-type"], "text/html; charset=utf-8", "{path}");
        assert_eq!(r.text().await.unwrap(), "BROTLI-HTML", "{path}");
    }
    let r = get("/assets/app.js", Some("br")).await.unwrap();
    assert_eq!(r.headers()["cache-control"], "no-cache");
    assert!(r.headers().get("content-encoding").is_none(), "no .br copy of it: sent as it is");
    app.stop().await;
}

#[tokio::test]
async fn json_answers_above_a_kilobyte_are_compressed_and_signed_in_answers_never_cached() {
    let app = spawn_app(Default::default()).await.unwrap();
    let big = app.http.get(app.url("/api/countries")).header("accept-encoding", "gzip").send().await.unwrap();
    assert_eq!(big.status(), 200);
    assert_eq!(big.headers()["content-encoding"], "gzip");
    let small = app.http.get(app.url("/api/config/age")).header("accept-encoding", "gzip").send().await.unwrap();
    assert!(small.headers().get("content-encoding").is_none(), "a few bytes are not worth it");
    assert!(small.headers().get("cache-control").is_none());

    let token = app.sign_in("demo@example.com").await;
    let mine = app.http.get(app.url("/api/profile")).bearer_auth(&token).send().await.unwrap();
    assert_eq!(mine.status(), 200);
    assert_eq!(mine.headers()["cache-control"], "no-store");
    // Refusals to a signed-in caller too.
    let refused = app.http.get(app.url("/api/profile")).bearer_auth("bm90IGEgdG9rZW4=").send().await.unwrap();
    assert_eq!(refused.status(), 401);
    assert_eq!(refused.headers()["cache-control"], "no-store");
    app.stop().await;
}

#[tokio::test]
async fn the_web_app_manifest_follows_the_tenant_config() {
    let app = spawn_app(Default::default()).await.unwrap();
    let r = app.http.get(app.url("/manifest.webmanifest")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.headers()["content-type"], "application/manifest+json");
    assert_eq!(r.headers()["cache-control"], "no-cache");
    let m: serde_json::Value = r.json().await.unwrap();
    // The test tenant's title; no theme in its config: the defaults.
    assert_eq!(m["name"], "My account");
    assert_eq!(m["start_url"], "/home");
    assert_eq!(m["display"], "standalone");
    assert_eq!(m["theme_color"], "#1f4e79");
    let sizes: Vec<&str> = m["icons"].as_array().unwrap().iter().map(|i| i["sizes"].as_str().unwrap()).collect();
    assert_eq!(sizes, ["16x16", "32x32", "64x64", "128x128", "192x192", "512x512", "512x512"]);
    assert_eq!(m["icons"][6]["purpose"], "maskable");
    app.stop().await;
}
