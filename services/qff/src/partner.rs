//! The airline's partner API, over HTTP (the contract is in `services/qff-sandbox`). Every call
//! has a timeout. Calls that are safe to repeat (checks and reads) are retried with exponential
//! backoff and jitter when the partner fails fast in a way that may pass; a credit never is (an
//! unanswered credit is left to the reconciler, which asks about it by reference). A circuit
//! breaker counts the partner's failures (not its refusals): after `breaker_failures` in a row
//! it refuses calls for `breaker_open_secs`, then lets one through to see if the partner is back.
use backon::{ExponentialBuilder, Retryable};
use failsafe::backoff::Constant;
use failsafe::failure_policy::ConsecutiveFailures;
use failsafe::futures::CircuitBreaker;
use portal_common::config::QffSettings;
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The key the bundled sandbox accepts when none is configured.
pub const SANDBOX_KEY: &str = "sandbox";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PartnerError {
    /// 404 `member_not_found`
    #[error("unknown member")]
    UnknownMember,
    /// 422 `last_name_mismatch`
    #[error("last name mismatch")]
    NameMismatch,
    /// 409 `account_closed`
    #[error("account closed")]
    Closed,
    /// 404 `credit_not_found`
    #[error("no such credit")]
    NoSuchCredit,
    /// Any other refusal (4xx): the partner understood and said no. Its code.
    #[error("refused: {0}")]
    Refused(String),
    /// No answer in time: the call may or may not have taken effect.
    #[error("timed out")]
    Timeout,
    /// The partner failed (5xx, unreadable answer): the call may or may not have taken effect.
    #[error("partner failed: {0}")]
    Failed(String),
    /// No connection could be made: the call was never sent.
    #[error("partner unreachable")]
    Unreachable,
    /// The circuit breaker is open: the call was not made.
    #[error("circuit open")]
    CircuitOpen,
}

impl PartnerError {
    /// The `outcome` label of `qff_partner_calls_total`: what kind of answer (or none) came back.
    fn outcome(&self) -> &'static str {
        match self {
            PartnerError::UnknownMember | PartnerError::NameMismatch | PartnerError::Closed | PartnerError::NoSuchCredit => "refused",
            PartnerError::Refused(_) => "refused",
            PartnerError::Timeout => "timeout",
            PartnerError::Failed(_) => "failed",
            PartnerError::Unreachable => "unreachable",
            PartnerError::CircuitOpen => "circuit_open",
        }
    }

    /// A failure of the partner (counted by the breaker, worth a retry where retrying is safe),
    /// as opposed to an answer.
    pub fn is_failure(&self) -> bool {
        matches!(self, PartnerError::Timeout | PartnerError::Failed(_) | PartnerError::Unreachable)
    }
    /// Nothing useful came back: the partner is down, slow or the breaker is open.
    pub fn is_unavailable(&self) -> bool {
        self.is_failure() || *self == PartnerError::CircuitOpen
    }
}

/// A partner call's kind, without its ids or version (a metric label): only the path's words of
/// lowercase letters (our references are `cnv_…`, members' numbers digits),
/// `/v1/members/1900123456/activity?page=2` → `members/activity`, `/v1/credits/cnv_01h…` → `credits`.
fn call_name(path: &str) -> String {
    let path = path.split('?').next().unwrap_or_default();
    let words = path.split('/').filter(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_lowercase() || c == '-'));
    words.collect::<Vec<_>>().join("/")
}

#[derive(Debug, Clone, Deserialize)]
pub struct PartnerMember {
    pub membership_number: String,
    pub first_name: String,
    pub last_name: String,
    pub status: String,
    #[serde(default)]
    pub points: i64,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct Activity {
    pub id: String,
    pub date: String,
    pub description: String,
    pub points: i64,
    pub category: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct ActivityPage {
    pub data: Vec<Activity>,
    pub total: u64,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Credit {
    pub credit_id: String,
    pub reference: String,
    pub points: i64,
}

#[derive(Deserialize)]
struct ErrorBody {
    code: String,
}

type Breaker = failsafe::StateMachine<ConsecutiveFailures<Constant>, ()>;

#[derive(Clone)]
pub struct Partner {
    http: reqwest::Client,
    base: String,
    key: SecretString,
    retries: usize,
    breaker: Breaker,
    /// Seconds an open breaker waits: what a member is told to wait (`Retry-After`).
    pub retry_after_secs: u64,
}

impl Partner {
    pub fn new(s: &QffSettings) -> anyhow::Result<Self> {
        let base = s.api_url.clone().ok_or_else(|| anyhow::anyhow!("missing setting QFF_API_URL: the airline partner API"))?;
        let key = s.api_key.clone().unwrap_or_else(|| SecretString::from(SANDBOX_KEY));
        let http = reqwest::Client::builder()
            .timeout(Duration::from_millis(s.timeout_ms))
            .connect_timeout(Duration::from_millis(s.timeout_ms.min(2000)))
            .build()?;
        let policy = failsafe::failure_policy::consecutive_failures(
            s.breaker_failures.max(1),
            failsafe::backoff::constant(Duration::from_secs(s.breaker_open_secs)),
        );
        let breaker = failsafe::Config::new().failure_policy(policy).build();
        Ok(Partner {
            http,
            base: base.trim_end_matches('/').to_string(),
            key,
            retries: s.retries,
            breaker,
            retry_after_secs: s.breaker_open_secs.max(1),
        })
    }

    /// False while the breaker is open: the partner failed repeatedly and is left alone for now.
    pub fn permits(&self) -> bool {
        self.breaker.is_call_permitted()
    }

    /// One HTTP call through the breaker; the answer's JSON, or what went wrong.
    async fn once<T: serde::de::DeserializeOwned>(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<&serde_json::Value>,
    ) -> Result<T, PartnerError> {
        let call = async {
            let mut req = self.http.request(method.clone(), format!("{}{path}", self.base)).bearer_auth(self.key.expose_secret());
            if let Some(b) = body {
                req = req.json(b);
            }
            let resp = req.send().await.map_err(|e| {
                if e.is_timeout() {
                    PartnerError::Timeout
                } else if e.is_connect() {
                    PartnerError::Unreachable
                } else {
                    PartnerError::Failed(e.without_url().to_string())
                }
            })?;
            let status = resp.status();
            if status.is_success() {
                return resp.json::<T>().await.map_err(|e| {
                    if e.is_timeout() {
                        PartnerError::Timeout
                    } else {
                        PartnerError::Failed(format!("unreadable answer: {e}"))
                    }
                });
            }
            if status.is_server_error()
                || status == reqwest::StatusCode::TOO_MANY_REQUESTS
                || status == reqwest::StatusCode::REQUEST_TIMEOUT
            {
                return Err(PartnerError::Failed(format!("HTTP {status}")));
            }
            if status == reqwest::StatusCode::UNAUTHORIZED || status == reqwest::StatusCode::FORBIDDEN {
                tracing::error!(%status, "the airline partner refused our credentials (QFF_API_KEY)");
                return Err(PartnerError::Failed(format!("HTTP {status}")));
            }
            let code = resp.json::<ErrorBody>().await.map(|b| b.code).unwrap_or_default();
            Err(match code.as_str() {
                "member_not_found" => PartnerError::UnknownMember,
                "last_name_mismatch" => PartnerError::NameMismatch,
                "account_closed" => PartnerError::Closed,
                "credit_not_found" => PartnerError::NoSuchCredit,
                "" => PartnerError::Refused(format!("HTTP {status}")),
                other => PartnerError::Refused(other.to_string()),
            })
        };
        let started = std::time::Instant::now();
        let answer = match self.breaker.call_with(|e: &PartnerError| e.is_failure(), call).await {
            Ok(v) => Ok(v),
            Err(failsafe::Error::Inner(e)) => Err(e),
            Err(failsafe::Error::Rejected) => Err(PartnerError::CircuitOpen),
        };
        self.observe(&method, path, answer.as_ref().err(), started);
        answer
    }

    /// The call's metrics: `qff_partner_calls_total{call, outcome}`, the time of those that were
    /// made (`qff_partner_call_duration_seconds{call}`), and whether the breaker is now open
    /// (`qff_partner_breaker_open`, 1 or 0): what an operator watching the airline sees.
    fn observe(&self, method: &reqwest::Method, path: &str, error: Option<&PartnerError>, started: std::time::Instant) {
        if !portal_common::metrics::enabled() {
            return;
        }
        let call = format!("{method} {}", call_name(path));
        let outcome = error.map_or("ok", PartnerError::outcome);
        metrics::counter!("qff_partner_calls_total", "call" => call.clone(), "outcome" => outcome).increment(1);
        if outcome != "circuit_open" {
            metrics::histogram!("qff_partner_call_duration_seconds", "call" => call).record(started.elapsed().as_secs_f64());
        }
        metrics::gauge!("qff_partner_breaker_open").set(if self.permits() { 0.0 } else { 1.0 });
    }

    /// A call that is safe to repeat: retried with backoff and jitter when the partner failed
    /// fast (5xx, no connection). A timeout is not retried: the member has waited long enough.
    async fn idempotent<T: serde::de::DeserializeOwned>(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<&serde_json::Value>,
    ) -> Result<T, PartnerError> {
        let backoff = ExponentialBuilder::default()
            .with_min_delay(Duration::from_millis(100))
            .with_max_delay(Duration::from_secs(1))
            .with_max_times(self.retries)
            .with_jitter();
        (|| self.once::<T>(method.clone(), path, body))
            .retry(backoff)
            .when(|e| matches!(e, PartnerError::Failed(_) | PartnerError::Unreachable))
            .await
    }

    /// Checks a member by number and last name.
    pub async fn verify(&self, number: &str, last_name: &str) -> Result<PartnerMember, PartnerError> {
        let body = serde_json::json!({ "membership_number": number, "last_name": last_name });
        self.idempotent(reqwest::Method::POST, "/v1/members/verify", Some(&body)).await
    }

    /// The member, with their airline balance.
    pub async fn member(&self, number: &str) -> Result<PartnerMember, PartnerError> {
        self.idempotent(reqwest::Method::GET, &format!("/v1/members/{number}"), None).await
    }

    pub async fn activity(&self, number: &str, page: u32, per_page: u32) -> Result<ActivityPage, PartnerError> {
        self.idempotent(reqwest::Method::GET, &format!("/v1/members/{number}/activity?page={page}&per_page={per_page}"), None).await
    }

    /// Credits airline points under our reference. Not retried here: a credit that got no answer
    /// is settled by the reconciler, which asks [`Partner::credit_status`].
    pub async fn credit(&self, reference: &str, number: &str, points: i64, description: &str) -> Result<Credit, PartnerError> {
        let body = serde_json::json!({ "reference": reference, "membership_number": number, "points": points, "description": description });
        self.once(reqwest::Method::POST, "/v1/credits", Some(&body)).await
    }

    /// The credit posted under `reference`; `NoSuchCredit` when the partner never received it.
    pub async fn credit_status(&self, reference: &str) -> Result<Credit, PartnerError> {
        self.idempotent(reqwest::Method::GET, &format!("/v1/credits/{reference}"), None).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_call_is_named_without_its_ids() {
        assert_eq!(call_name("/v1/members/1900123456/activity?page=2&per_page=20"), "members/activity");
        assert_eq!(call_name("/v1/members/1900123456"), "members");
        assert_eq!(call_name("/v1/credits/cnv_01hx3k9"), "credits");
        assert_eq!(call_name("/v1/members/verify"), "members/verify");
    }
}
