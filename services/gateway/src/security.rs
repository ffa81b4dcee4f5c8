//! Security headers of every HTML answer (the shell, its deep links, dev pages):
//! - `Content-Security-Policy`: scripts only from the portal itself (no inline script, no eval),
//!   styles from the portal (its one inline `<style>` block) and the tenant's `styleUrl`, images
//!   from anywhere over https (tenant logos, offer banners), calls to the portal only, and
//!   `frame-ancestors 'self'` plus the tenant's allow-list (`general.allowedOrigins`, the same list
//!   the iframe protocol listens to), so a browser refuses to show the portal inside any other
//!   site. Never `*`: config entries that are not an http(s) origin are left out.
//! - `Permissions-Policy`: geolocation for the portal itself only; no camera, microphone or
//!   payment.
//!
//! And on every answer, HTML or not, when the public URL is https: `Strict-Transport-Security`
//! for a year, subdomains included, so a browser never again asks for the portal over plain
//! HTTP (where a session token could be read or an answer changed on the way).
use crate::state::AppState;
use axum::extract::{Request, State};
use axum::http::{header, HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use portal_proto::refdata::v1::GetConfigRequest;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a policy built from the tenant config is reused before the config is asked again.
const REFRESH: Duration = Duration::from_secs(5);

pub const HSTS: &str = "max-age=31536000; includeSubDomains";

/// The `Strict-Transport-Security` value for a portal served at `public_url`: only over https
/// (a browser ignores it over http, and a dev portal on localhost must stay reachable).
pub fn hsts(public_url: &str) -> Option<HeaderValue> {
    let https = url::Url::parse(public_url).is_ok_and(|u| u.scheme() == "https");
    https.then(|| HeaderValue::from_static(HSTS))
}

pub const PERMISSIONS_POLICY: &str = "geolocation=(self), camera=(), microphone=(), payment=()";

/// The policy, rebuilt at most every few seconds. When the config can't be read and nothing was
/// read before, only the portal itself may frame it.
#[derive(Default)]
pub struct HtmlPolicy {
    cached: Mutex<Option<(Instant, HeaderValue)>>,
}

/// An http(s) origin from a config entry, if it is one.
fn origin(raw: &str) -> Option<String> {
    let u = url::Url::parse(raw.trim()).ok()?;
    (matches!(u.scheme(), "http" | "https") && u.host_str().is_some()).then(|| u.origin().ascii_serialization())
}

/// The Content-Security-Policy for the tenant's allow-list and stylesheet.
pub fn policy(allowed: &[String], style_url: Option<&str>) -> HeaderValue {
    let mut ancestors = vec!["'self'".to_string()];
    for o in allowed.iter().filter_map(|a| origin(a)) {
        if !ancestors.contains(&o) {
            ancestors.push(o);
        }
    }
    let mut styles = vec!["'self'", "'unsafe-inline'"].into_iter().map(String::from).collect::<Vec<_>>();
    styles.extend(style_url.and_then(origin));
    let p = format!(
        "default-src 'self'; script-src 'self'; style-src {}; img-src 'self' data: blob: https:; font-src 'self' data: https:; \
         connect-src 'self'; worker-src 'self'; manifest-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; \
         frame-ancestors {}",
        styles.join(" "),
        ancestors.join(" ")
    );
    // Serialised origins are ASCII without control characters.
    HeaderValue::from_str(&p).unwrap_or_else(|_| policy(&[], None))
}

impl HtmlPolicy {
    async fn current(&self, s: &AppState) -> HeaderValue {
        if let Some((at, v)) = self.cached.lock().unwrap().as_ref() {
            if at.elapsed() < REFRESH {
                return v.clone();
            }
        }
        let fresh = async {
            let r = s.clients.refdata.clone().get_config(GetConfigRequest {}).await.ok()?.into_inner();
            let tenant = s.tenant.typed(&r.json).ok()?;
            Some(policy(&tenant.general.allowed_origins, tenant.general.style_url.as_deref()))
        }
        .await;
        let mut cached = self.cached.lock().unwrap();
        match fresh {
            Some(v) => {
                *cached = Some((Instant::now(), v.clone()));
                v
            }
            None => {
                tracing::warn!("tenant config unavailable: the last policy read, or frame-ancestors 'self'");
                cached.as_ref().map(|(_, v)| v.clone()).unwrap_or_else(|| policy(&[], None))
            }
        }
    }
}

/// Adds the policies to HTML answers.
pub async fn html_headers(State(s): State<AppState>, req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let html = res.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| v.starts_with("text/html"));
    if html {
        let v = s.html_policy.current(&s).await;
        let h = res.headers_mut();
        h.insert(header::CONTENT_SECURITY_POLICY, v);
        h.insert(HeaderName::from_static("permissions-policy"), HeaderValue::from_static(PERMISSIONS_POLICY));
    }
    res
}

#[cfg(test)]
mod tests {
    use super::policy;

    fn directive(p: &axum::http::HeaderValue, name: &str) -> String {
        p.to_str().unwrap().split("; ").find(|d| d.starts_with(name)).unwrap_or_default().to_string()
    }

    #[test]
    fn hsts_only_for_an_https_portal() {
        assert_eq!(super::hsts("https://portal.brand.example").unwrap(), super::HSTS);
        assert!(super::hsts("http://localhost:8080").is_none());
        assert!(super::hsts("not a url").is_none());
    }

    #[test]
    fn lists_only_http_origins_once() {
        let allowed = [
            "https://partner.example/shop?x=1".to_string(),
            "http://127.0.0.1:8081".into(),
            "*".into(),
            "'unsafe-inline'".into(),
            "javascript:alert(1)".into(),
            "https://partner.example".into(),
            "https://evil.example; script-src *".into(),
        ];
        let p = policy(&allowed, None);
        assert_eq!(directive(&p, "frame-ancestors"), "frame-ancestors 'self' https://partner.example http://127.0.0.1:8081");
        assert_eq!(directive(&policy(&[], None), "frame-ancestors"), "frame-ancestors 'self'");
    }

    #[test]
    fn scripts_only_from_the_portal_styles_also_from_the_tenant() {
        let p = policy(&[], Some("https://cdn.brand.example/portal/theme.css"));
        assert_eq!(directive(&p, "script-src"), "script-src 'self'");
        assert_eq!(directive(&p, "style-src"), "style-src 'self' 'unsafe-inline' https://cdn.brand.example");
        assert_eq!(directive(&p, "object-src"), "object-src 'none'");
        assert!(!p.to_str().unwrap().contains("unsafe-eval"));
        assert_eq!(directive(&policy(&[], Some("not a url")), "style-src"), "style-src 'self' 'unsafe-inline'");
    }
}
