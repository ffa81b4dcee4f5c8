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
mod handlers;

use axum::Router;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::{Arc, Mutex};

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
    /// Calls of `credit` and `credit_status` by (operation, reference).
    calls_by_reference: BTreeMap<(String, String), u64>,
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

    /// How many times `operation` (credit or credit_status) was called about this reference.
    pub fn calls_about(&self, operation: &str, reference: &str) -> u64 {
        self.lock().calls_by_reference.get(&(operation.to_string(), reference.to_string())).copied().unwrap_or(0)
    }

    fn count_reference(&self, operation: &str, reference: &str) {
        *self.lock().calls_by_reference.entry((operation.to_string(), reference.to_string())).or_default() += 1;
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
        handlers::router(self)
    }
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
    use serde_json::{json, Value};

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
