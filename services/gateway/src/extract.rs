//! Who is calling. A handler's signature says who may call it: `Member` a member's session (or a
//! staff view of a member's account), `Owner` the member acting as themselves, `Staff` a staff
//! user's own session, `SignedIn` any of them (sign-out). A session of the wrong kind is refused
//! (403) before any service is called; the identity they carry is the only source of the
//! caller's profile id. The `identify` middleware verifies a bearer token once per request and
//! refuses every write made with an impersonation token (read-only by design). `IdempotencyKey`
//! is the one check of the `Idempotency-Key` header that a write made once per key needs.
use crate::error::ApiError;
use crate::state::AppState;
use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderName, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use portal_common::identity::{Caller, CLIENT_IP, IMPERSONATION_PRIVACY, IMPERSONATION_READ_ONLY, USER_AGENT};
use portal_token::{Claims, TokenError};
use std::net::SocketAddr;
use std::sync::Arc;

/// Verified claims of the request's bearer token, set by `identify`.
#[derive(Clone)]
struct Verified(Arc<Claims>);

/// The token could not be checked (the KV did not answer), noted by `identify` so the
/// extractors answer 503 at once instead of asking the KV a second time.
#[derive(Clone)]
struct Unchecked;

/// The client's address as the gateway saw it.
#[derive(Clone)]
pub struct ClientIp(pub Option<String>);

/// The verified caller when there is one; `None` for a visitor without a session (or whose token
/// did not verify). For answers open to everybody that differ per member (`/mfe-manifest.json`).
pub struct MaybeSignedIn(pub Option<Arc<Claims>>);

impl<S: Send + Sync> FromRequestParts<S> for MaybeSignedIn {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(MaybeSignedIn(parts.extensions.get::<Verified>().map(|v| v.0.clone())))
    }
}

/// Writes a staff member may make while viewing a member's account: ending that view.
const IMPERSONATION_WRITES: &[&str] = &["/api/auth/logout"];
/// The privacy centre refuses staff viewing an account itself (`Owner`), reads too, in its own words.
const PRIVACY: &str = "/api/privacy/";

fn bearer(parts: &axum::http::HeaderMap) -> Option<&str> {
    let v = parts.get(axum::http::header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = v.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

fn rejection(e: TokenError) -> ApiError {
    match e {
        // `errors.session` tells the client why: signed out elsewhere is not an expiry.
        TokenError::Expired | TokenError::Idle => {
            let why = if matches!(e, TokenError::Idle) { "idle" } else { "expired" };
            ApiError::field(StatusCode::UNAUTHORIZED, "Your secure visit has expired. Please log in again", "session", why)
        }
        TokenError::Revoked => {
            ApiError::field(StatusCode::UNAUTHORIZED, "You have been logged out. Please log in again", "session", "revoked")
        }
        TokenError::Unavailable => {
            let mut e = ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "A service is unavailable, please try again shortly");
            e.retry_after = Some(crate::error::RETRY_AFTER_SECS);
            e
        }
        _ => ApiError::unauthorized("Invalid token"),
    }
}

pub async fn identify(State(state): State<AppState>, mut req: Request, next: Next) -> Response {
    let peer = req.extensions().get::<ConnectInfo<SocketAddr>>().map(|c| c.0.ip());
    let ip = client_ip(peer, req.headers(), &state.trusted_proxies).map(|ip| ip.to_string());
    req.extensions_mut().insert(ClientIp(ip));
    // An answer to a signed-in caller is theirs alone: no cache (browser, proxy, CDN) keeps it.
    let signed_in = bearer(req.headers()).is_some();
    let mut res = identify_inner(&state, req, next).await;
    if signed_in {
        res.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    res
}

async fn identify_inner(state: &AppState, mut req: Request, next: Next) -> Response {
    if let Some(token) = bearer(req.headers()) {
        match state.verifier.verify(token).await {
            Ok(claims) => {
                let write = !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
                let path = req.uri().path();
                if claims.is_impersonation() && write && !IMPERSONATION_WRITES.contains(&path) && !path.starts_with(PRIVACY) {
                    return ApiError::new(StatusCode::FORBIDDEN, IMPERSONATION_READ_ONLY).into_response();
                }
                req.extensions_mut().insert(Verified(claims));
            }
            Err(TokenError::Unavailable) => {
                req.extensions_mut().insert(Unchecked);
            }
            Err(_) => {}
        }
    }
    next.run(req).await
}

/// `PORTAL_TRUSTED_PROXIES` entries: single addresses or CIDR blocks.
pub fn parse_proxies(entries: &[String]) -> anyhow::Result<Vec<ipnet::IpNet>> {
    entries
        .iter()
        .map(|e| {
            let e = e.trim();
            e.parse::<ipnet::IpNet>()
                .or_else(|_| e.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
                .map_err(|_| anyhow::anyhow!("trusted proxy {e:?} is not an IP address or CIDR block"))
        })
        .collect()
}

/// The client's address: the TCP peer, unless the peer is a trusted proxy; then the rightmost
/// `X-Forwarded-For` hop that is not itself a trusted proxy. Hops to the left of that were
/// written by the client and prove nothing.
pub fn client_ip(peer: Option<std::net::IpAddr>, headers: &axum::http::HeaderMap, trusted: &[ipnet::IpNet]) -> Option<std::net::IpAddr> {
    let peer = peer?;
    let is_trusted = |ip: &std::net::IpAddr| trusted.iter().any(|n| n.contains(ip));
    if !is_trusted(&peer) {
        return Some(peer);
    }
    let hops: Vec<std::net::IpAddr> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .filter_map(|h| h.trim().parse().ok())
        .collect();
    hops.iter().rev().find(|ip| !is_trusted(ip)).or(hops.first()).copied().or(Some(peer))
}

pub struct Member(pub Arc<Claims>);

impl Member {
    /// A gRPC request carrying the caller's identity as metadata.
    pub fn request<T>(&self, msg: T) -> tonic::Request<T> {
        let c = &self.0;
        let mut req = tonic::Request::new(msg);
        // The deadline travels with the call (grpc-timeout), so the service stops working on an
        // answer nobody waits for.
        req.set_timeout(portal_common::grpc::CALL_DEADLINE);
        Caller {
            profile_id: c.pid.clone(),
            actor: c.act.as_ref().map(|a| a.sub.clone()),
            tenant: Some(c.tenant.clone()).filter(|t| !t.is_empty()),
            staff: c.is_staff(),
            token_id: Some(c.jti.clone()),
            token_exp: Some(c.exp),
            auth_time: Some(c.auth_time).filter(|t| *t > 0),
        }
        .write_to(req.metadata_mut());
        req
    }
}

/// The verified session of the request, whoever holds it.
async fn session(parts: &mut Parts, state: &AppState) -> Result<Arc<Claims>, ApiError> {
    if let Some(Verified(c)) = parts.extensions.get::<Verified>() {
        return Ok(c.clone());
    }
    if parts.extensions.get::<Unchecked>().is_some() {
        return Err(rejection(TokenError::Unavailable));
    }
    let token = bearer(&parts.headers).ok_or_else(|| ApiError::unauthorized("Please log in to continue"))?;
    state.verifier.verify(token).await.map_err(rejection)
}

/// The answer to a staff user's own session on a member's route: staff have no account of their
/// own here; they see a member's through a view (impersonation).
pub const MEMBERS_ONLY: &str = "Only members can do this. Staff view a member's account through Support.";

impl FromRequestParts<AppState> for Member {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let c = session(parts, state).await?;
        if c.is_staff() {
            return Err(ApiError::new(StatusCode::FORBIDDEN, MEMBERS_ONLY));
        }
        Ok(Member(c))
    }
}

/// Any signed-in session: a member's, a staff view's or a staff user's own (signing out).
pub struct SignedIn(pub Member);

impl FromRequestParts<AppState> for SignedIn {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        Ok(SignedIn(Member(session(parts, state).await?)))
    }
}

/// A staff member signed in as themselves (not viewing a member's account).
pub struct Staff(pub Member);

impl FromRequestParts<AppState> for Staff {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let c = session(parts, state).await?;
        if !c.is_staff() {
            return Err(ApiError::new(StatusCode::FORBIDDEN, "Only staff can do this"));
        }
        Ok(Staff(Member(c)))
    }
}

/// The member acting as themselves, for the privacy centre and the sign-in address: a staff
/// user's own session and a staff view of the member's account are refused (403), reads too.
pub struct Owner(pub Member);

impl FromRequestParts<AppState> for Owner {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        let m = Member::from_request_parts(parts, state).await?;
        if m.0.is_impersonation() {
            return Err(ApiError::new(StatusCode::FORBIDDEN, IMPERSONATION_PRIVACY));
        }
        Ok(Owner(m))
    }
}

/// Where a sign-in comes from: the client's address and User-Agent, passed to the auth service so
/// the session it issues is recorded with its device and place ("My sessions").
pub struct SignInClient {
    ip: ClientIp,
    user_agent: Option<String>,
}

/// Longer User-Agents are cut (no real browser's comes close).
const MAX_USER_AGENT: usize = 512;

impl SignInClient {
    pub fn request<T>(&self, msg: T) -> tonic::Request<T> {
        let mut req = self.ip.request(msg);
        if let Some(v) = self.user_agent.as_ref().and_then(|ua| ua.parse().ok()) {
            req.metadata_mut().insert(USER_AGENT, v);
        }
        req
    }
}

impl<S: Send + Sync> FromRequestParts<S> for SignInClient {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let ip = ClientIp::from_request_parts(parts, state).await?;
        // Visible ASCII only (what gRPC metadata carries); anything else is no User-Agent.
        let user_agent = parts
            .headers
            .get(header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .map(|ua| ua.chars().take(MAX_USER_AGENT).collect::<String>())
            .filter(|ua| !ua.trim().is_empty());
        Ok(SignInClient { ip, user_agent })
    }
}

impl ClientIp {
    /// A gRPC request carrying the client's IP, for the auth service's rate limits.
    pub fn request<T>(&self, msg: T) -> tonic::Request<T> {
        let mut req = tonic::Request::new(msg);
        self.tag(&mut req);
        req
    }

    /// Adds the client's IP to a request (e.g. one that carries the caller already).
    pub fn tag<T>(&self, req: &mut tonic::Request<T>) {
        if let Some(v) = self.0.as_ref().and_then(|ip| ip.parse().ok()) {
            req.metadata_mut().insert(CLIENT_IP, v);
        }
    }
}

impl<S: Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(parts.extensions.get::<ClientIp>().cloned().unwrap_or(ClientIp(None)))
    }
}

/// The `Idempotency-Key` header of a write made exactly once per key (a redemption, a points
/// conversion): 1 to 255 printable ASCII characters (`portal_common::is_idempotency_key`, the rule
/// the services check again). Missing, empty, too long or with other characters is refused before
/// the body is read: 400 with `errors.idempotency_key`. Document it on the route as a `Header`
/// parameter with `min_length = 1, max_length = 255, pattern = "^[!-~]+$"`.
pub struct IdempotencyKey(pub String);

/// The header a retry's answer carries (`Idempotent-Replayed: true`).
pub static REPLAYED: HeaderName = HeaderName::from_static("idempotent-replayed");

impl IdempotencyKey {
    pub const HEADER: &'static str = "idempotency-key";

    fn refused() -> ApiError {
        ApiError::field(
            StatusCode::BAD_REQUEST,
            "This request needs an Idempotency-Key header",
            "idempotency_key",
            portal_common::IDEMPOTENCY_KEY_PROBLEM,
        )
    }

    /// The key of `headers`, or the refusal.
    pub fn from_headers(headers: &axum::http::HeaderMap) -> Result<Self, ApiError> {
        let key = headers.get(Self::HEADER).ok_or_else(Self::refused)?.to_str().map_err(|_| Self::refused())?;
        if !portal_common::is_idempotency_key(key) {
            return Err(Self::refused());
        }
        Ok(IdempotencyKey(key.to_string()))
    }
}

impl<S: Send + Sync> FromRequestParts<S> for IdempotencyKey {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Self::from_headers(&parts.headers)
    }
}

/// `axum::extract::Query`, refusing a malformed query string in the spec's error shape (400,
/// `errors.query`) instead of axum's plain text.
pub struct Query<T>(pub T);

impl<T, S> FromRequestParts<S> for Query<T>
where
    T: serde::de::DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Query::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Query(v)) => Ok(Query(v)),
            Err(r) => Err(ApiError::field(StatusCode::BAD_REQUEST, "The query string is not valid for this call", "query", &r.body_text())),
        }
    }
}

/// `axum::extract::Path`, refusing a path parameter of the wrong shape in the spec's error
/// shape: 404, as for a path that names nothing (e.g. a reward id that is not a number).
pub struct Path<T>(pub T);

impl<T, S> FromRequestParts<S> for Path<T>
where
    T: serde::de::DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(v)) => Ok(Path(v)),
            Err(_) => Err(ApiError::not_found()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn xff(v: &str) -> axum::http::HeaderMap {
        let mut h = axum::http::HeaderMap::new();
        h.insert("x-forwarded-for", v.parse().unwrap());
        h
    }

    #[test]
    fn forwarded_for_is_believed_only_from_trusted_proxies() {
        let trusted = parse_proxies(&["10.0.0.0/8".into(), "192.168.1.1".into()]).unwrap();
        let ip = |s: &str| Some(s.parse::<std::net::IpAddr>().unwrap());
        // From an untrusted peer the header is ignored.
        assert_eq!(client_ip(ip("203.0.113.9"), &xff("1.2.3.4"), &trusted), ip("203.0.113.9"));
        // Through trusted proxies: the rightmost hop that is not one of them.
        assert_eq!(client_ip(ip("10.1.2.3"), &xff("6.6.6.6, 198.51.100.7, 10.9.9.9"), &trusted), ip("198.51.100.7"));
        assert_eq!(client_ip(ip("192.168.1.1"), &xff("198.51.100.7"), &trusted), ip("198.51.100.7"));
        // No header: the proxy itself.
        assert_eq!(client_ip(ip("10.1.2.3"), &axum::http::HeaderMap::new(), &trusted), ip("10.1.2.3"));
        assert!(parse_proxies(&["not-an-ip".into()]).is_err());
    }

    /// The extractor's answer for a request with this `Idempotency-Key` header (or none).
    async fn key(v: Option<&[u8]>) -> Result<String, ApiError> {
        let mut req = axum::http::Request::builder().method(Method::POST).uri("/api/qff/redeem");
        if let Some(v) = v {
            req = req.header("Idempotency-Key", HeaderValue::from_bytes(v).unwrap());
        }
        let (mut parts, ()) = req.body(()).unwrap().into_parts();
        IdempotencyKey::from_request_parts(&mut parts, &()).await.map(|k| k.0)
    }

    fn refused_for_the_key(r: Result<String, ApiError>) {
        let e = r.unwrap_err();
        assert_eq!(e.status, StatusCode::BAD_REQUEST);
        assert_eq!(e.message, "This request needs an Idempotency-Key header");
        assert_eq!(
            e.errors.get("idempotency_key").map(String::as_str),
            Some("Send an Idempotency-Key header of 1 to 255 printable characters, new for each redemption")
        );
    }

    #[tokio::test]
    async fn idempotency_key_is_1_to_255_printable_ascii_characters() {
        assert_eq!(key(Some(b"redeem-2024-01-01T10:00:00Z_#1")).await.unwrap(), "redeem-2024-01-01T10:00:00Z_#1");
        assert_eq!(key(Some(&[b'k'; 255])).await.unwrap().len(), 255);
        // Missing, empty, too long.
        refused_for_the_key(key(None).await);
        refused_for_the_key(key(Some(b"")).await);
        refused_for_the_key(key(Some(&[b'k'; 256])).await);
        // Bad characters: spaces, control characters, anything beyond ASCII.
        refused_for_the_key(key(Some(b"two words")).await);
        refused_for_the_key(key(Some(b"tab\there")).await);
        refused_for_the_key(key(Some("caf\u{e9}".as_bytes())).await);
        refused_for_the_key(key(Some(b"\x80\xff")).await);
    }
}
