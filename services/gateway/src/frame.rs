//! Who may frame the portal: every HTML answer carries `Content-Security-Policy:
//! frame-ancestors 'self' <origins>`, the origins being the tenant's allow-list
//! (`general.allowedOrigins`, the same list the portal's iframe protocol listens to). A browser
//! refuses to show the portal inside any other site. Never `*`: entries that are not an
//! http(s) origin are left out.
use crate::state::AppState;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use portal_proto::refdata::v1::GetConfigRequest;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How long a policy built from the tenant config is reused before the config is asked again.
const REFRESH: Duration = Duration::from_secs(5);

/// The policy, rebuilt at most every few seconds. When the config can't be read and nothing was
/// read before, only the portal itself may frame it.
#[derive(Default)]
pub struct FramePolicy {
    cached: Mutex<Option<(Instant, HeaderValue)>>,
}

/// `frame-ancestors 'self' https://a.example http://127.0.0.1:8081` from the allow-list.
pub fn policy(allowed: &[String]) -> HeaderValue {
    let mut p = String::from("frame-ancestors 'self'");
    let mut seen = Vec::new();
    for raw in allowed {
        let Ok(u) = url::Url::parse(raw.trim()) else { continue };
        if !matches!(u.scheme(), "http" | "https") || u.host_str().is_none() {
            continue;
        }
        let origin = u.origin().ascii_serialization();
        if !seen.contains(&origin) {
            p.push(' ');
            p.push_str(&origin);
            seen.push(origin);
        }
    }
    // Serialised origins are ASCII without control characters.
    HeaderValue::from_str(&p).unwrap_or_else(|_| HeaderValue::from_static("frame-ancestors 'self'"))
}

impl FramePolicy {
    async fn current(&self, s: &AppState) -> HeaderValue {
        if let Some((at, v)) = self.cached.lock().unwrap().as_ref() {
            if at.elapsed() < REFRESH {
                return v.clone();
            }
        }
        let fresh = async {
            let r = s.clients.refdata.clone().get_config(GetConfigRequest {}).await.ok()?.into_inner();
            let doc: serde_json::Value = serde_json::from_str(&r.json).ok()?;
            let allowed: Vec<String> = doc["general"]["allowedOrigins"]
                .as_array()
                .map(|a| a.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect())
                .unwrap_or_default();
            Some(policy(&allowed))
        }
        .await;
        let mut cached = self.cached.lock().unwrap();
        match fresh {
            Some(v) => {
                *cached = Some((Instant::now(), v.clone()));
                v
            }
            None => {
                tracing::warn!("tenant config unavailable: frame-ancestors from the last policy read, or 'self'");
                cached.as_ref().map(|(_, v)| v.clone()).unwrap_or_else(|| policy(&[]))
            }
        }
    }
}

/// Adds the policy to HTML answers (the shell, its deep links, dev pages).
pub async fn frame_ancestors(State(s): State<AppState>, req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let html = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("text/html"));
    if html {
        let v = s.frame_policy.current(&s).await;
        res.headers_mut().insert(header::CONTENT_SECURITY_POLICY, v);
    }
    res
}

#[cfg(test)]
mod tests {
    use super::policy;

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
        assert_eq!(policy(&allowed), "frame-ancestors 'self' https://partner.example http://127.0.0.1:8081");
        assert_eq!(policy(&[]), "frame-ancestors 'self'");
    }
}
