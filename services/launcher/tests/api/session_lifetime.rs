//! A session's life (issue 22, findings 2, 5 and 11's server side): an absolute end counted from
//! the real sign-in, an idle timeout, `auth_time` carried unchanged across renewals (and read by
//! every step that needs a recent sign-in), and sign-outs that outlive a restart of the
//! in-process KV. Each test reproduces the attack it guards against.
use crate::helpers::{assert_error_shape, payload, spawn_app, Options, TestApp};
use portal_token::live_key;
use serde_json::json;

crate::both!(
    renewing_never_extends_a_session,
    a_renewal_is_not_a_recent_sign_in,
    an_idle_session_is_over,
    a_session_past_its_absolute_end_is_over
);

/// Finding 2: `POST /api/auth/exchange` with a session token gave a fresh 8-hour token, as often
/// as asked. Now each swap keeps the sign-in time and the end it had.
async fn renewing_never_extends_a_session(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;
    let first = payload(&t);
    let auth_time = first["auth_time"].as_i64().unwrap();
    assert!((portal_common::now_unix() - auth_time).abs() < 60, "auth_time is the sign-in: {first}");
    assert_eq!(first["exp"].as_i64().unwrap(), auth_time + app.settings.session_ttl_secs);
    let mut token = t;
    for _ in 0..3 {
        let r = app.exchange(&token).await;
        assert_eq!(r.status, 200, "{:?}", r.body);
        let next = r.body["token"].as_str().unwrap().to_string();
        let p = payload(&next);
        assert_eq!(p["auth_time"], first["auth_time"], "the sign-in time travels unchanged");
        assert_eq!(p["exp"], first["exp"], "a renewal never extends the session");
        assert_ne!(p["jti"], payload(&token)["jti"]);
        assert_error_shape(&app.get("/api/profile", Some(&token)).await, 401);
        token = next;
    }
    assert_eq!(app.get("/api/profile", Some(&token)).await.status, 200);
}

/// Ages the session `token` belongs to: it signed in `secs` ago, as its record has it.
async fn signed_in_ago(app: &TestApp, token: &str, secs: i64) {
    let at = portal_common::now_unix() - secs;
    sqlx::query("UPDATE sessions SET auth_time = $2, signed_in_at = $2 WHERE id = $1")
        .bind(payload(token)["jti"].as_str().unwrap())
        .bind(at)
        .execute(&app.auth_db().await.pool)
        .await
        .unwrap();
}

/// Finding 2: a token older than 15 minutes passed the recent-sign-in check after one swap,
/// because the gateway took the fresh token's `iat` for the sign-in time.
async fn a_renewal_is_not_a_recent_sign_in(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;
    signed_in_ago(app, &t, 16 * 60).await;
    let swapped = app.exchange(&t).await.body["token"].as_str().unwrap().to_string();
    assert!(portal_common::now_unix() - payload(&swapped)["auth_time"].as_i64().unwrap() >= 16 * 60);
    // Changing the sign-in address and converting airline points both need a real sign-in.
    let r = app.post("/api/profile/email", Some(&swapped), json!({"email": "dana.new@example.com"})).await;
    assert_error_shape(&r, 403);
    assert_eq!(r.body["errors"]["session"], "reauthenticate");
    let r = app
        .http
        .post(app.url("/api/qff/redeem"))
        .bearer_auth(&swapped)
        .header("Idempotency-Key", "stale-sign-in-1")
        .json(&json!({"points": 1000}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    let body: serde_json::Value = r.json().await.unwrap();
    assert_eq!(body["errors"]["session"], "reauthenticate", "{body}");
    // A real sign-in passes.
    let fresh = app.sign_in("demo@example.com").await;
    assert_eq!(app.post("/api/profile/email", Some(&fresh), json!({"email": "dana.new@example.com"})).await.status, 202);
}

/// A session unused for longer than the idle timeout is over, though its token has hours left.
async fn an_idle_session_is_over(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;
    let busy = app.sign_in("demo@example.com").await;
    let jti = payload(&t)["jti"].as_str().unwrap().to_string();
    // Last used just over the idle timeout ago; the gateway's note of it has lapsed too.
    sqlx::query("UPDATE sessions SET last_seen_at = $2 WHERE id = $1")
        .bind(&jti)
        .bind(portal_common::now_unix() - app.settings.session_idle_secs - 1)
        .execute(&app.auth_db().await.pool)
        .await
        .unwrap();
    app.kv().await.scoped("auth").del(&live_key(&jti)).await.unwrap();
    let r = app.get("/api/profile", Some(&t)).await;
    assert_error_shape(&r, 401);
    assert_eq!(r.body["message"], "Your secure visit has expired. Please log in again");
    assert_error_shape(&app.exchange(&t).await, 401);
    // It is no longer listed; a session in use is.
    let list = app.get("/api/privacy/sessions", Some(&busy)).await;
    let ids: Vec<&str> = list.body["sessions"].as_array().unwrap().iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert!(!ids.contains(&jti.as_str()), "{ids:?}");
    assert_eq!(app.get("/api/profile", Some(&busy)).await.status, 200);
    // Being used keeps a session going: the record says when it was last seen.
    let busy_jti = payload(&busy)["jti"].as_str().unwrap().to_string();
    app.kv().await.scoped("auth").del(&live_key(&busy_jti)).await.unwrap();
    assert_eq!(app.get("/api/profile", Some(&busy)).await.status, 200);
    let last_seen = app.get("/api/privacy/sessions", Some(&busy)).await.body["sessions"][0]["last_seen_at"].clone();
    assert!(last_seen.is_string(), "{last_seen}");
}

/// However it is renewed, a session ends `session_ttl_secs` after the real sign-in.
async fn a_session_past_its_absolute_end_is_over(app: &TestApp) {
    let t = app.sign_in("demo@example.com").await;
    signed_in_ago(app, &t, app.settings.session_ttl_secs + 1).await;
    // The swap would mint a token that is already over: refused.
    assert_error_shape(&app.exchange(&t).await, 401);
}

/// Finding 5: with the embedded default, revocations lived only in the in-process KV while the
/// signing keys persist, so after a restart a logged-out token answered 200 again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sign_out_survives_a_restart_of_the_embedded_default() {
    let mut app = spawn_app(Options::default()).await.unwrap();
    let out = app.sign_in("demo@example.com").await;
    let revoked = app.sign_in("demo@example.com").await;
    let kept = app.sign_in("demo@example.com").await;
    assert_eq!(app.call("POST", "/api/auth/logout", Some(&out), None).await.status, 204);
    let id = payload(&revoked)["jti"].as_str().unwrap().to_string();
    assert_eq!(app.call("DELETE", &format!("/api/privacy/sessions/{id}"), Some(&kept), None).await.status, 204);
    // The process starts again: same files, an empty in-process KV.
    app.restart_with_empty_kv().await;
    assert_error_shape(&app.get("/api/profile", Some(&out)).await, 401);
    assert_error_shape(&app.get("/api/profile", Some(&revoked)).await, 401);
    assert_error_shape(&app.exchange(&out).await, 401);
    // A session nobody ended carries on.
    assert_eq!(app.get("/api/profile", Some(&kept)).await.status, 200);
    app.stop().await;
}

/// Finding 10: availability and registration told a member's or a staff address from a free one.
/// Now a stranger gets the same answer for all three; only the mailboxes differ.
async fn registration_and_availability_tell_nothing(app: &TestApp) {
    let form = |email: &str| json!({"email": email, "first_name": "Alex", "last_name": "Probe"});
    let mut answers = Vec::new();
    for email in ["demo@example.com", "STAFF@Example.com", "brand.new@example.com"] {
        let a = app.post("/api/auth/availability", None, json!({"email": email})).await;
        let c = app.post("/api/auth/create", None, form(email)).await;
        answers.push((a.status, a.body, c.status, c.body));
    }
    assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:#?}");
    assert_eq!(answers[0].2, 202);
    let outbox = app.outbox().await;
    let to = |who: &str| outbox.iter().filter(|m| m["to"] == who).map(|m| m["text"].as_str().unwrap().to_string()).collect::<Vec<_>>();
    // The member is told they have an account (a sign-in link to it), and nothing was created.
    assert!(to("demo@example.com").iter().any(|t| t.contains("you already have one")), "{:?}", to("demo@example.com"));
    assert_eq!(app.get("/api/profile", Some(&app.sign_in("demo@example.com").await)).await.body["last_name"], "Demo");
    // A staff address gets nothing, and no member account.
    assert!(to("staff@example.com").is_empty());
    let db = app.profile_db().await;
    let n = |e: &'static str| {
        let pool = db.pool.clone();
        async move {
            sqlx::query("SELECT COUNT(*) AS n FROM profiles WHERE email = $1")
                .bind(e)
                .fetch_one(&pool)
                .await
                .map(|r| sqlx::Row::get::<i64, _>(&r, "n"))
                .unwrap()
        }
    };
    assert_eq!(n("staff@example.com").await, 0);
    assert_eq!(n("brand.new@example.com").await, 1);
    assert!(to("brand.new@example.com").iter().any(|t| t.contains("sign in")));
    // Field errors depend only on what was sent.
    assert_error_shape(
        &app.post("/api/auth/create", None, json!({"email": "staff@example.com", "first_name": "", "last_name": "X"})).await,
        422,
    );
}

crate::both!(registration_and_availability_tell_nothing);
