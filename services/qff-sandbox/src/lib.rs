//! The airline partner sandbox: a small HTTP server implementing the partner contract the qff
//! service talks to, with the behaviour of the real thing where it matters to us: unknown
//! numbers, last-name mismatches, closed accounts, slow answers, and a credit posted twice with
//! the same reference answered with the first result. State lives in memory and starts from the
//! same seed every time.
//!
//! The contract (JSON; every `/v1` call needs `Authorization: Bearer <key>`; errors are
//! `{code, message}`):
//! - `POST /v1/members/verify {membership_number, last_name}` → 200 member; 404
//!   `member_not_found`; 422 `last_name_mismatch`; 409 `account_closed`.
//! - `GET /v1/members/{number}` → 200 member (with `points`, the balance); 404.
//! - `GET /v1/members/{number}/activity?page=&per_page=` → 200 `{data, total}`, newest first.
//! - `POST /v1/credits {reference, membership_number, points, description}` → 201 credit; the
//!   same reference with the same body → 200 and the first credit; with another body → 409
//!   `reference_conflict`; 404 `member_not_found`; 409 `account_closed`; 400 `invalid_request`.
//! - `GET /v1/credits/{reference}` → 200 credit; 404 `credit_not_found`.
//!
//! Test switches (sandbox only, no key): `POST /_sandbox/faults {operation?, kind, count?,
//! delay_ms?}` makes the next `count` calls of `operation` (verify, member, activity, credit,
//! credit_status; any when absent) fail as `kind` says: `timeout` (answers only after `delay_ms`,
//! default 30 s, having done nothing), `timeout_after_credit` (credits, then answers late),
//! `error_500`, `unavailable` (503), `refuse` (422 `refused`), `slow` (answers normally after
//! `delay_ms`). `DELETE /_sandbox/faults` clears them; `GET /_sandbox/credits` lists every
//! credit; `GET /_sandbox/calls` counts calls by operation.
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// A member of the airline's programme.
#[derive(Clone, Debug, Serialize)]
pub struct Member {
    pub membership_number: String,
    pub first_name: String,
    pub last_name: String,
    /// `active` or `closed`.
    pub status: String,
    pub tier: String,
    pub points: i64,
    #[serde(skip)]
    activity: Vec<Activity>,
    /// Answers about this member come this late (a slow back end).
    #[serde(skip)]
    delay_ms: u64,
}

#[derive(Clone, Debug, Serialize)]
pub struct Activity {
    pub id: String,
    pub date: String,
    pub description: String,
    pub points: i64,
    /// `partner`, `flight` or `other`.
    pub category: String,
}

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct CreditRequest {
    pub reference: String,
    pub membership_number: String,
    pub points: i64,
    #[serde(default)]
    pub description: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct Credit {
    pub credit_id: String,
    pub reference: String,
    pub membership_number: String,
    pub points: i64,
    pub status: &'static str,
    pub credited_at: String,
    #[serde(skip)]
    request: CreditRequest,
}

#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct Fault {
    /// verify, member, activity, credit or credit_status; every operation when absent.
    #[serde(default)]
    pub operation: Option<String>,
    pub kind: FaultKind,
    #[serde(default = "one")]
    pub count: u32,
    #[serde(default)]
    pub delay_ms: Option<u64>,
}

fn one() -> u32 {
    1
}

#[derive(Clone, Copy, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    Timeout,
    TimeoutAfterCredit,
    Error500,
    Unavailable,
    Refuse,
    Slow,
}

#[derive(Default)]
struct Inner {
    members: HashMap<String, Member>,
    credits: BTreeMap<String, Credit>,
    faults: VecDeque<Fault>,
    calls: BTreeMap<String, u64>,
    next_id: u64,
}

#[derive(Clone)]
pub struct Sandbox {
    key: Arc<str>,
    inner: Arc<Mutex<Inner>>,
}

fn member(number: &str, first: &str, last: &str, status: &str, tier: &str, points: i64, delay_ms: u64) -> Member {
    let today = chrono::Utc::now().date_naive();
    let day = |n: i64| (today - chrono::Duration::days(n)).to_string();
    let activity = if status == "active" {
        vec![
            Activity {
                id: format!("act_{number}_3"),
                date: day(4),
                description: "Flight MEL–SYD".into(),
                points: 800,
                category: "flight".into(),
            },
            Activity {
                id: format!("act_{number}_2"),
                date: day(19),
                description: "Points from Hotel partner".into(),
                points: 1500,
                category: "partner".into(),
            },
            Activity {
                id: format!("act_{number}_1"),
                date: day(47),
                description: "Reward seat SYD–BNE".into(),
                points: -9000,
                category: "flight".into(),
            },
        ]
    } else {
        vec![]
    };
    Member {
        membership_number: number.into(),
        first_name: first.into(),
        last_name: last.into(),
        status: status.into(),
        tier: tier.into(),
        points,
        activity,
        delay_ms,
    }
}

impl Sandbox {
    /// The seeded sandbox: 1900123456 (Dana Demo), 1900654321 (Oliver Other), 1900000002 (closed),
    /// 1900000003 (answers after 1.5 s). Any other number is unknown.
    pub fn new(key: &str) -> Self {
        let members = [
            member("1900123456", "Dana", "Demo", "active", "Silver", 48_250, 0),
            member("1900654321", "Oliver", "Other", "active", "Bronze", 12_000, 0),
            member("1900000002", "Cody", "Closed", "closed", "Bronze", 0, 0),
            member("1900000003", "Sam", "Slow", "active", "Gold", 5_000, 1_500),
        ]
        .into_iter()
        .map(|m| (m.membership_number.clone(), m))
        .collect();
        Sandbox { key: key.into(), inner: Arc::new(Mutex::new(Inner { members, ..Default::default() })) }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Opens an active airline account (Bronze, with the usual activity), e.g. one whose name a
    /// test can look for afterwards.
    pub fn add_member(&self, number: &str, first: &str, last: &str, points: i64) {
        self.lock().members.insert(number.to_string(), member(number, first, last, "active", "Bronze", points, 0));
    }

    /// The member's balance as the airline holds it.
    pub fn points(&self, number: &str) -> Option<i64> {
        self.lock().members.get(number).map(|m| m.points)
    }

    /// Every credit posted so far.
    pub fn credits(&self) -> Vec<Credit> {
        self.lock().credits.values().cloned().collect()
    }

    pub fn add_fault(&self, f: Fault) {
        self.lock().faults.push_back(f);
    }

    /// Counts the call and takes the first fault that applies to it, if any.
    fn call(&self, op: &str) -> Option<Fault> {
        let mut s = self.lock();
        *s.calls.entry(op.to_string()).or_default() += 1;
        let i = s.faults.iter().position(|f| f.operation.as_deref().is_none_or(|o| o == op))?;
        let f = s.faults[i].clone();
        if s.faults[i].count <= 1 {
            s.faults.remove(i);
        } else {
            s.faults[i].count -= 1;
        }
        Some(f)
    }

    pub fn router(self) -> Router {
        Router::new()
            .route("/v1/members/verify", post(verify))
            .route("/v1/members/{number}", get(get_member))
            .route("/v1/members/{number}/activity", get(activity))
            .route("/v1/credits", post(credit))
            .route("/v1/credits/{reference}", get(credit_status))
            .route("/_sandbox/faults", post(add_fault).delete(clear_faults))
            .route("/_sandbox/credits", get(list_credits))
            .route("/_sandbox/calls", get(calls))
            .route("/healthz", get(|| async { "ok" }))
            .with_state(self)
    }
}

fn error(status: StatusCode, code: &str, message: &str) -> Response {
    (status, Json(json!({ "code": code, "message": message }))).into_response()
}

/// What a call does before its own work: check the key, then apply a fault meant for it.
/// `Err` is the answer to give instead; `Ok(Some(kind))` a fault the handler applies itself.
async fn enter(s: &Sandbox, headers: &HeaderMap, op: &str) -> Result<Option<FaultKind>, Response> {
    let authorised =
        headers.get("authorization").and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer ")).is_some_and(|k| k == &*s.key);
    if !authorised {
        return Err(error(StatusCode::UNAUTHORIZED, "unauthorized", "Missing or wrong API key"));
    }
    let Some(f) = s.call(op) else { return Ok(None) };
    let delay = Duration::from_millis(f.delay_ms.unwrap_or(match f.kind {
        FaultKind::Slow => 1_000,
        _ => 30_000,
    }));
    match f.kind {
        FaultKind::Timeout => {
            tokio::time::sleep(delay).await;
            Err(error(StatusCode::GATEWAY_TIMEOUT, "timeout", "The request timed out"))
        }
        FaultKind::Slow => {
            tokio::time::sleep(delay).await;
            Ok(None)
        }
        FaultKind::Error500 => Err(error(StatusCode::INTERNAL_SERVER_ERROR, "internal_error", "Something went wrong")),
        FaultKind::Unavailable => Err(error(StatusCode::SERVICE_UNAVAILABLE, "unavailable", "The service is unavailable")),
        FaultKind::Refuse => Err(error(StatusCode::UNPROCESSABLE_ENTITY, "refused", "The request was refused")),
        FaultKind::TimeoutAfterCredit => Ok(Some(FaultKind::TimeoutAfterCredit)),
    }
}

async fn member_delay(s: &Sandbox, number: &str) {
    let d = s.lock().members.get(number).map_or(0, |m| m.delay_ms);
    if d > 0 {
        tokio::time::sleep(Duration::from_millis(d)).await;
    }
}

#[derive(Deserialize)]
struct VerifyRequest {
    membership_number: String,
    last_name: String,
}

fn same_name(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

async fn verify(State(s): State<Sandbox>, headers: HeaderMap, Json(r): Json<VerifyRequest>) -> Response {
    if let Err(resp) = enter(&s, &headers, "verify").await {
        return resp;
    }
    member_delay(&s, &r.membership_number).await;
    let found = s.lock().members.get(&r.membership_number).cloned();
    match found {
        None => error(StatusCode::NOT_FOUND, "member_not_found", "No member has this number"),
        Some(m) if !same_name(&m.last_name, &r.last_name) => {
            error(StatusCode::UNPROCESSABLE_ENTITY, "last_name_mismatch", "The last name does not match")
        }
        Some(m) if m.status != "active" => error(StatusCode::CONFLICT, "account_closed", "The account is closed"),
        Some(m) => Json(m).into_response(),
    }
}

async fn get_member(State(s): State<Sandbox>, headers: HeaderMap, Path(number): Path<String>) -> Response {
    if let Err(resp) = enter(&s, &headers, "member").await {
        return resp;
    }
    member_delay(&s, &number).await;
    let found = s.lock().members.get(&number).cloned();
    match found {
        None => error(StatusCode::NOT_FOUND, "member_not_found", "No member has this number"),
        Some(m) => Json(m).into_response(),
    }
}

#[derive(Deserialize)]
struct Page {
    page: Option<usize>,
    per_page: Option<usize>,
}

async fn activity(State(s): State<Sandbox>, headers: HeaderMap, Path(number): Path<String>, Query(p): Query<Page>) -> Response {
    if let Err(resp) = enter(&s, &headers, "activity").await {
        return resp;
    }
    member_delay(&s, &number).await;
    let found = s.lock().members.get(&number).cloned();
    let Some(m) = found else {
        return error(StatusCode::NOT_FOUND, "member_not_found", "No member has this number");
    };
    let (page, per_page) = (p.page.unwrap_or(1).max(1), p.per_page.unwrap_or(20).clamp(1, 100));
    let data: Vec<&Activity> = m.activity.iter().skip((page - 1) * per_page).take(per_page).collect();
    Json(json!({ "data": data, "total": m.activity.len() })).into_response()
}

async fn credit(State(s): State<Sandbox>, headers: HeaderMap, Json(r): Json<CreditRequest>) -> Response {
    let fault = match enter(&s, &headers, "credit").await {
        Ok(f) => f,
        Err(resp) => return resp,
    };
    if r.reference.trim().is_empty() || r.reference.len() > 100 || !(1..=10_000_000).contains(&r.points) {
        return error(StatusCode::BAD_REQUEST, "invalid_request", "A credit needs a reference and 1 to 10,000,000 points");
    }
    member_delay(&s, &r.membership_number).await;
    let (status, body) = {
        let mut st = s.lock();
        if let Some(c) = st.credits.get(&r.reference) {
            if c.request == r {
                (StatusCode::OK, json!(c))
            } else {
                return error(StatusCode::CONFLICT, "reference_conflict", "This reference was used for another credit");
            }
        } else {
            match st.members.get(&r.membership_number).map(|m| m.status.clone()) {
                None => return error(StatusCode::NOT_FOUND, "member_not_found", "No member has this number"),
                Some(status) if status != "active" => return error(StatusCode::CONFLICT, "account_closed", "The account is closed"),
                Some(_) => {}
            }
            st.next_id += 1;
            let c = Credit {
                credit_id: format!("crd_{:06}", st.next_id),
                reference: r.reference.clone(),
                membership_number: r.membership_number.clone(),
                points: r.points,
                status: "credited",
                credited_at: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                request: r.clone(),
            };
            let id = format!("act_{}", c.credit_id);
            let date = chrono::Utc::now().date_naive().to_string();
            if let Some(m) = st.members.get_mut(&r.membership_number) {
                m.points += r.points;
                let description = if r.description.is_empty() { "Points transfer".to_string() } else { r.description.clone() };
                m.activity.insert(0, Activity { id, date, description, points: r.points, category: "partner".into() });
            }
            st.credits.insert(r.reference.clone(), c.clone());
            (StatusCode::CREATED, json!(c))
        }
    };
    if fault == Some(FaultKind::TimeoutAfterCredit) {
        tokio::time::sleep(Duration::from_secs(30)).await;
    }
    (status, Json(body)).into_response()
}

async fn credit_status(State(s): State<Sandbox>, headers: HeaderMap, Path(reference): Path<String>) -> Response {
    if let Err(resp) = enter(&s, &headers, "credit_status").await {
        return resp;
    }
    let found = s.lock().credits.get(&reference).cloned();
    match found {
        Some(c) => Json(c).into_response(),
        None => error(StatusCode::NOT_FOUND, "credit_not_found", "No credit has this reference"),
    }
}

async fn add_fault(State(s): State<Sandbox>, Json(f): Json<Fault>) -> StatusCode {
    s.add_fault(f);
    StatusCode::NO_CONTENT
}

async fn clear_faults(State(s): State<Sandbox>) -> StatusCode {
    s.lock().faults.clear();
    StatusCode::NO_CONTENT
}

async fn list_credits(State(s): State<Sandbox>) -> Json<Value> {
    Json(json!({ "data": s.credits() }))
}

async fn calls(State(s): State<Sandbox>) -> Json<Value> {
    Json(json!(s.lock().calls.clone()))
}

/// A sandbox serving on a bound listener.
pub struct Running {
    pub url: String,
    pub sandbox: Sandbox,
    pub task: tokio::task::JoinHandle<()>,
}

/// Binds `addr` and serves the sandbox on it in a task.
pub async fn spawn(addr: &str, key: &str) -> anyhow::Result<Running> {
    let listener = tokio::net::TcpListener::bind(addr).await?;
    let url = format!("http://{}", listener.local_addr()?);
    let sandbox = Sandbox::new(key);
    let router = sandbox.clone().router();
    let task = tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, router).await {
            tracing::error!(error = %e, "partner sandbox stopped");
        }
    });
    Ok(Running { url, sandbox, task })
}

async fn stdin_closed() {
    use tokio::io::AsyncReadExt;
    let mut stdin = tokio::io::stdin();
    let mut buf = [0u8; 64];
    while matches!(stdin.read(&mut buf).await, Ok(n) if n > 0) {}
}

/// The binary's `main`: serves until killed, after printing `listening on <url>`.
pub async fn main_from_args(mut args: impl Iterator<Item = String>) -> anyhow::Result<()> {
    let _ = tracing_subscriber::fmt().with_target(false).try_init();
    let addr = args.next().unwrap_or_else(|| "127.0.0.1:0".into());
    let key = std::env::var("QFF_API_KEY").unwrap_or_else(|_| "sandbox".into());
    let running = spawn(&addr, &key).await?;
    println!("listening on {}", running.url);
    if std::env::var_os("QFF_SANDBOX_STDIN_LIFELINE").is_some() {
        // Started by a parent that holds our stdin: its end (EOF) is ours.
        tokio::select! {
            r = running.task => r?,
            _ = stdin_closed() => {}
        }
        return Ok(());
    }
    running.task.await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn call(r: &Running, method: reqwest::Method, path: &str, body: Option<Value>) -> (u16, Value) {
        let mut req = reqwest::Client::new().request(method, format!("{}{path}", r.url)).bearer_auth("k");
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp = req.send().await.unwrap();
        (resp.status().as_u16(), resp.json().await.unwrap_or(Value::Null))
    }

    #[tokio::test]
    async fn members_are_checked_as_the_airline_would() {
        let r = spawn("127.0.0.1:0", "k").await.unwrap();
        let verify = |n: &str, l: &str| json!({"membership_number": n, "last_name": l});
        let (st, m) = call(&r, reqwest::Method::POST, "/v1/members/verify", Some(verify("1900123456", " demo "))).await;
        assert_eq!((st, m["first_name"].as_str()), (200, Some("Dana")));
        assert_eq!(
            call(&r, reqwest::Method::POST, "/v1/members/verify", Some(verify("1900123456", "Smith"))).await.1["code"],
            "last_name_mismatch"
        );
        assert_eq!(call(&r, reqwest::Method::POST, "/v1/members/verify", Some(verify("1999999999", "Demo"))).await.0, 404);
        assert_eq!(
            call(&r, reqwest::Method::POST, "/v1/members/verify", Some(verify("1900000002", "Closed"))).await.1["code"],
            "account_closed"
        );
        let unauthorised = reqwest::Client::new().get(format!("{}/v1/members/1900123456", r.url)).send().await.unwrap();
        assert_eq!(unauthorised.status().as_u16(), 401);
    }

    #[tokio::test]
    async fn a_credit_repeated_with_its_reference_is_answered_with_the_first_result() {
        let r = spawn("127.0.0.1:0", "k").await.unwrap();
        let body = json!({"reference": "cnv_1", "membership_number": "1900123456", "points": 500});
        let (st1, c1) = call(&r, reqwest::Method::POST, "/v1/credits", Some(body.clone())).await;
        let (st2, c2) = call(&r, reqwest::Method::POST, "/v1/credits", Some(body)).await;
        assert_eq!((st1, st2), (201, 200));
        assert_eq!(c1["credit_id"], c2["credit_id"]);
        assert_eq!(r.sandbox.points("1900123456"), Some(48_750));
        let other = json!({"reference": "cnv_1", "membership_number": "1900123456", "points": 501});
        assert_eq!(call(&r, reqwest::Method::POST, "/v1/credits", Some(other)).await.0, 409);
        assert_eq!(call(&r, reqwest::Method::GET, "/v1/credits/cnv_1", None).await.1["points"], 500);
        assert_eq!(call(&r, reqwest::Method::GET, "/v1/credits/cnv_2", None).await.0, 404);
        let closed = json!({"reference": "cnv_3", "membership_number": "1900000002", "points": 500});
        assert_eq!(call(&r, reqwest::Method::POST, "/v1/credits", Some(closed)).await.1["code"], "account_closed");
    }

    #[tokio::test]
    async fn faults_apply_to_the_next_calls_only() {
        let r = spawn("127.0.0.1:0", "k").await.unwrap();
        r.sandbox.add_fault(Fault { operation: Some("member".into()), kind: FaultKind::Unavailable, count: 2, delay_ms: None });
        for want in [503, 503, 200] {
            assert_eq!(call(&r, reqwest::Method::GET, "/v1/members/1900123456", None).await.0, want);
        }
        r.sandbox.add_fault(Fault { operation: None, kind: FaultKind::Error500, count: 1, delay_ms: None });
        assert_eq!(call(&r, reqwest::Method::GET, "/v1/members/1900123456/activity", None).await.0, 500);
        let (st, page) = call(&r, reqwest::Method::GET, "/v1/members/1900123456/activity?per_page=2", None).await;
        assert_eq!((st, page["data"].as_array().map(Vec::len), page["total"].as_u64()), (200, Some(2), Some(3)));
    }
}
