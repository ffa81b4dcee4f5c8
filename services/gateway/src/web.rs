//! Everything outside `/api`: the built shell and micro-frontends (the micro-frontend manifest is
//! `routes::mfe`), the SPA fallback for deep links, and in dev mode the outbox.
use crate::error::ApiError;
use crate::state::AppState;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use axum::Json;
use portal_proto::auth::v1::ListOutboxRequest;
use serde::Serialize;
use tower::ServiceExt;
use tower_http::services::{ServeDir, ServeFile};

/// Files from the static directory, as a CDN would serve them: the brotli or gzip copy made at
/// build time when the browser accepts it (`Vary: Accept-Encoding`); content-hashed files
/// (`main.1a2b3c4d.js`) cached for a year as immutable, everything else (HTML, `remoteEntry.js`,
/// `mf-manifest.json`, icons) revalidated on every use. Paths without a file extension get one of
/// the shell's pages so deep links such as `/profile` work (`page_for`). Unknown `/api` paths are
/// JSON 404s.
pub async fn fallback(State(s): State<AppState>, req: Request) -> Response {
    let path = req.uri().path().to_string();
    if path == "/api" || path.starts_with("/api/") {
        return ApiError::not_found().into_response();
    }
    let dir = &s.settings.static_dir;
    let last = path.rsplit('/').next().unwrap_or_default().to_string();
    let accept = req.headers().get(header::ACCEPT_ENCODING).cloned();
    let serve = ServeDir::new(dir).append_index_html_on_directories(false).precompressed_br().precompressed_gzip();
    let mut res = match serve.oneshot(req).await {
        Ok(r) => r.map(Body::new),
        Err(never) => match never {},
    };
    if res.status() == StatusCode::NOT_FOUND || res.status() == StatusCode::METHOD_NOT_ALLOWED {
        if last.contains('.') {
            return ApiError::not_found().into_response();
        }
        let page = page_for(&path, |name| s.static_origin.is_some() || dir.join(name).exists());
        return match &s.static_origin {
            Some(origin) => origin.page(page, accept).await,
            None => index(dir, page, accept).await,
        };
    }
    let cache = if content_hashed(&last) { "public, max-age=31536000, immutable" } else { "no-cache" };
    let h = res.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    // The client package for partner pages (docs/embedding.md): a public script, importable
    // from any origin as an ES module (no credentials are involved).
    if path.starts_with("/embed/") {
        h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, HeaderValue::from_static("*"));
    }
    res
}

/// The page the shell's build prerendered for a path (HTML and CSS drawn before any script runs):
/// `index.html`, the login page, for `/`; `app.html`, the signed-in frame, for every other route,
/// when the build made one (`exists`), else `index.html`.
pub fn page_for(path: &str, exists: impl Fn(&str) -> bool) -> &'static str {
    if path != "/" && exists(APP_PAGE) {
        APP_PAGE
    } else {
        "index.html"
    }
}

const APP_PAGE: &str = "app.html";

/// `name.<8+ hex digits>.ext`: the build names such files after their content.
fn content_hashed(file: &str) -> bool {
    let parts: Vec<&str> = file.split('.').collect();
    parts.len() >= 3 && {
        let hash = parts[parts.len() - 2];
        hash.len() >= 8 && hash.bytes().all(|b| b.is_ascii_hexdigit())
    }
}

/// The shell's `index.html` from the front end's own server (`static_url`), with the browser's
/// `Accept-Encoding` passed on and the encoded bytes passed back as they are.
pub struct StaticOrigin {
    base: String,
    client: reqwest::Client,
}

impl StaticOrigin {
    pub fn new(base: &str) -> anyhow::Result<StaticOrigin> {
        let base = url::Url::parse(base.trim_end_matches('/'))?;
        let client = reqwest::Client::builder().timeout(std::time::Duration::from_secs(5)).build()?;
        Ok(StaticOrigin { base: base.as_str().trim_end_matches('/').to_string(), client })
    }

    /// The page `name` (`index.html`, `app.html`): a 404 for `app.html` (a build without it) falls
    /// back to `index.html`.
    pub async fn page(&self, name: &str, accept_encoding: Option<HeaderValue>) -> Response {
        let res = self.fetch(name, accept_encoding.clone()).await;
        if res.status() == StatusCode::NOT_FOUND && name != "index.html" {
            return self.fetch("index.html", accept_encoding).await;
        }
        res
    }

    async fn fetch(&self, name: &str, accept_encoding: Option<HeaderValue>) -> Response {
        let mut req = self.client.get(format!("{}/{name}", self.base));
        if let Some(v) = accept_encoding {
            req = req.header(header::ACCEPT_ENCODING, v);
        }
        let fetched = async {
            let r = req.send().await?;
            if r.status() == reqwest::StatusCode::NOT_FOUND {
                return Ok(None);
            }
            let r = r.error_for_status()?;
            let encoding = r.headers().get(header::CONTENT_ENCODING).cloned();
            Ok::<_, reqwest::Error>(Some((encoding, r.bytes().await?)))
        }
        .await;
        match fetched {
            Ok(None) => ApiError::not_found().into_response(),
            Ok(Some((encoding, body))) => {
                let mut res = Response::new(Body::from(body));
                let h = res.headers_mut();
                h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
                h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
                h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
                if let Some(e) = encoding {
                    h.insert(header::CONTENT_ENCODING, e);
                }
                res
            }
            Err(e) => {
                tracing::warn!(error = %e, page = name, "the front end's server did not give the page");
                let mut e =
                    ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "The portal is starting up or being updated; try again in a moment");
                e.retry_after = Some(crate::error::RETRY_AFTER_SECS);
                e.into_response()
            }
        }
    }
}

/// One of the shell's pages (revalidated, precompressed like the rest) for a deep link.
async fn index(dir: &std::path::Path, page: &str, accept_encoding: Option<HeaderValue>) -> Response {
    let file = dir.join(page);
    if !file.exists() {
        return ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "The front end has not been built: run `make run`").into_response();
    }
    let mut req = Request::new(Body::empty());
    if let Some(v) = accept_encoding {
        req.headers_mut().insert(header::ACCEPT_ENCODING, v);
    }
    let mut res = match ServeFile::new(file).precompressed_br().precompressed_gzip().oneshot(req).await {
        Ok(r) => r.map(Body::new),
        Err(never) => match never {},
    };
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    res
}

#[cfg(test)]
mod tests {
    use axum::http::{header, HeaderValue, StatusCode};
    use axum::response::{IntoResponse, Response};

    #[tokio::test]
    async fn index_html_from_the_front_ends_own_server() {
        use axum::routing::get;
        // The front end's server: a precompressed index.html for a browser that takes brotli.
        let web = axum::Router::new().route(
            "/index.html",
            get(|h: axum::http::HeaderMap| async move {
                let br = h.get(header::ACCEPT_ENCODING).and_then(|v| v.to_str().ok()).is_some_and(|v| v.contains("br"));
                if br {
                    ([(header::CONTENT_ENCODING, "br")], "BROTLI-HTML").into_response()
                } else {
                    "<!doctype html><title>shell</title>".into_response()
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, web).await.unwrap() });
        let origin = super::StaticOrigin::new(&format!("http://{addr}/")).unwrap();
        let body = |r: Response| async move { axum::body::to_bytes(r.into_body(), 1 << 20).await.unwrap() };

        let r = origin.page("index.html", Some(HeaderValue::from_static("gzip, br"))).await;
        assert_eq!(r.headers()[header::CONTENT_ENCODING], "br");
        assert_eq!(r.headers()[header::CONTENT_TYPE], "text/html; charset=utf-8");
        assert_eq!(r.headers()[header::CACHE_CONTROL], "no-cache");
        assert_eq!(&body(r).await[..], b"BROTLI-HTML");
        let r = origin.page("index.html", None).await;
        assert!(r.headers().get(header::CONTENT_ENCODING).is_none());
        assert_eq!(&body(r).await[..], b"<!doctype html><title>shell</title>");
        // A build without the signed-in frame's page: the login page's instead.
        let r = origin.page("app.html", None).await;
        assert_eq!(r.status(), StatusCode::OK);
        assert_eq!(&body(r).await[..], b"<!doctype html><title>shell</title>");

        // Its server down: 503 in the error shape, with Retry-After.
        let gone = super::StaticOrigin::new("http://127.0.0.1:9").unwrap();
        let r = gone.page("index.html", None).await;
        assert_eq!(r.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(r.headers()[header::RETRY_AFTER], "5");
    }

    #[test]
    fn the_login_page_for_the_root_the_frame_elsewhere() {
        use super::page_for;
        assert_eq!(page_for("/", |_| true), "index.html");
        assert_eq!(page_for("/home", |_| true), "app.html");
        assert_eq!(page_for("/rewards/item/3", |_| true), "app.html");
        assert_eq!(page_for("/home", |_| false), "index.html");
    }

    #[test]
    fn content_hashed_names() {
        for name in ["main.931aa5d6.js", "87.f05ec1e5.js", "__federation_expose_app.52feabc4.js", "i18n-fr-json.47441445.js"] {
            assert!(super::content_hashed(name), "{name}");
        }
        for name in ["remoteEntry.js", "mf-manifest.json", "index.html", "icon-16.png", "portal-embed.js", "a.b.js", "x.1234567.js"] {
            assert!(!super::content_hashed(name), "{name}");
        }
    }
}

#[derive(Serialize)]
pub struct OutboxEntry {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub link: String,
    pub sent_at: String,
    pub channel: String,
}

async fn outbox_entries(s: &AppState) -> Result<Vec<OutboxEntry>, ApiError> {
    let r = s.clients.auth.clone().list_outbox(ListOutboxRequest { limit: 100 }).await?.into_inner();
    Ok(r.messages
        .into_iter()
        .map(|m| OutboxEntry { to: m.to, subject: m.subject, text: m.text, link: m.link, sent_at: m.sent_at, channel: m.channel })
        .collect())
}

/// Dev mode only: outgoing email and SMS as JSON, newest first.
pub async fn outbox_json(State(s): State<AppState>) -> Result<Json<Vec<OutboxEntry>>, ApiError> {
    Ok(Json(outbox_entries(&s).await?))
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Dev mode only: the outbox as a page.
pub async fn outbox_html(State(s): State<AppState>) -> Result<Html<String>, ApiError> {
    let items = outbox_entries(&s).await?;
    let mut html = String::from(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\">\
         <title>Dev outbox</title><style>body{font:16px system-ui,sans-serif;max-width:48rem;margin:2rem auto;padding:0 1rem}\
         article{border:1px solid #ccc;border-radius:8px;padding:1rem;margin:1rem 0}pre{white-space:pre-wrap}</style></head>\
         <body><h1>Dev outbox</h1><p>Email and SMS the portal would have sent, newest first.</p>",
    );
    if items.is_empty() {
        html.push_str("<p>Nothing sent yet.</p>");
    }
    for m in items {
        html.push_str(&format!(
            "<article><h2>{}</h2><p>To {} by {} at <time>{}</time></p><pre>{}</pre>{}</article>",
            esc(&m.subject),
            esc(&m.to),
            esc(&m.channel),
            esc(&m.sent_at),
            esc(&m.text),
            if m.link.is_empty() { String::new() } else { format!("<p><a href=\"{0}\">Open the link</a></p>", esc(&m.link)) }
        ));
    }
    html.push_str("</body></html>");
    Ok(Html(html))
}

#[derive(Serialize)]
pub struct Health {
    pub status: &'static str,
    pub services: std::collections::BTreeMap<&'static str, &'static str>,
}

/// Readiness: the gateway and every service's gRPC health check.
pub async fn healthz(State(s): State<AppState>) -> (StatusCode, Json<Health>) {
    use tonic_health::pb::{health_check_response::ServingStatus, health_client::HealthClient, HealthCheckRequest};
    let mut services = std::collections::BTreeMap::new();
    let mut ok = true;
    for (name, ch) in &s.clients.channels {
        let r = tokio::time::timeout(
            std::time::Duration::from_secs(2),
            HealthClient::new(ch.clone()).check(HealthCheckRequest { service: String::new() }),
        )
        .await;
        let serving = matches!(r, Ok(Ok(ref resp)) if resp.get_ref().status == ServingStatus::Serving as i32);
        ok &= serving;
        services.insert(*name, if serving { "serving" } else { "not serving" });
    }
    let code = if ok { StatusCode::OK } else { StatusCode::SERVICE_UNAVAILABLE };
    (code, Json(Health { status: if ok { "ok" } else { "degraded" }, services }))
}

/// Icons listed in the web app manifest: built from one source image by `scripts/icons.mjs`.
const MANIFEST_ICON_SIZES: [u32; 6] = [16, 32, 64, 128, 192, 512];

/// `/manifest.webmanifest`: what an installer needs, from the tenant config (name, description,
/// theme and background colours), so a brand's change needs no rebuild. Revalidated on each use.
pub async fn web_manifest(State(s): State<AppState>) -> Response {
    let tenant = match s.clients.refdata.clone().get_config(portal_proto::refdata::v1::GetConfigRequest {}).await {
        Ok(r) => s
            .tenant
            .typed(&r.into_inner().json)
            .map_err(|e| tracing::warn!(error = %e, "tenant config for the web app manifest: defaults"))
            .ok(),
        Err(e) => {
            tracing::warn!(error = %e, "tenant config unavailable for the web app manifest: defaults");
            None
        }
    };
    let general = tenant.as_ref().map(|t| &t.general);
    let meta = general.and_then(|g| g.site_meta.as_ref());
    let colours = general.and_then(|g| g.theme.as_ref());
    let text = |v: Option<&str>, default: &str| v.filter(|t| !t.trim().is_empty()).unwrap_or(default).to_string();
    let name = text(meta.and_then(|m| m.title.as_ref()).map(portal_tenant::Text::default_text), "My account");
    let theme = text(colours.and_then(|t| t.primary.as_deref()), "#1f4e79");
    let page = text(general.and_then(|g| g.background.as_ref()).and_then(|b| b.color.as_deref()), "#ffffff");
    let background = text(colours.and_then(|t| t.background.as_deref()), &page);
    let mut icons: Vec<serde_json::Value> = MANIFEST_ICON_SIZES
        .iter()
        .map(|n| serde_json::json!({"src": format!("/assets/icon-{n}.png"), "sizes": format!("{n}x{n}"), "type": "image/png", "purpose": "any"}))
        .collect();
    icons.push(serde_json::json!({"src": "/assets/icon-maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"}));
    let manifest = serde_json::json!({
        "id": "/",
        "name": name,
        "short_name": name.chars().take(12).collect::<String>(),
        "description": text(meta.and_then(|m| m.description.as_ref()).map(portal_tenant::Text::default_text), "Manage your profile, transactions and more"),
        "start_url": "/home",
        "scope": "/",
        "display": "standalone",
        "theme_color": theme,
        "background_color": background,
        "icons": icons,
    });
    ([(header::CONTENT_TYPE, "application/manifest+json"), (header::CACHE_CONTROL, "no-cache")], manifest.to_string()).into_response()
}
