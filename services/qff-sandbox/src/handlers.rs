//! The sandbox's HTTP handlers, one per call of the partner contract (`lib.rs` has it), each
//! checking the key and applying any switched-on fault first (`enter`), then answering from the
//! in-memory state as the airline would.
use crate::{Activity, Credit, CreditRequest, Fault, FaultKind, Sandbox};
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use std::time::Duration;

/// The contract's routes and the test switches, on this sandbox's state.
pub(crate) fn router(s: Sandbox) -> Router {
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
        .with_state(s)
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
    s.count_reference("credit", &r.reference);
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
    s.count_reference("credit_status", &reference);
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
