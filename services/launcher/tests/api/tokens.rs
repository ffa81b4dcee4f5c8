//! The gateway's token check: forged, unsigned, wrongly signed, expired and malformed tokens
//! all get 401 in the error shape.
use crate::helpers::{assert_error_shape, spawn_app, TestApp};
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use base64::Engine;
use portal_token::{Claims, Signer, TYPE_SESSION};

/// Claims naming `jti`: a real session's id, so that only the token itself is at fault.
fn claims_for(jti: &str, pid: &str, exp: i64) -> Claims {
    Claims {
        pid: pid.into(),
        exp,
        iat: 0,
        auth_time: 0,
        jti: jti.into(),
        typ: TYPE_SESSION.into(),
        staff: false,
        tenant: "demo".into(),
        redirect: None,
        act: None,
    }
}

async fn real_signer(app: &TestApp) -> Signer {
    portal_auth::current_signer(&app.settings).await.unwrap()
}

crate::both!(bad_tokens_are_refused);

async fn bad_tokens_are_refused(app: &TestApp) {
    let pid = "prf_0000000000000000000000d1";
    let now = portal_common::now_unix();
    let signer = real_signer(app).await;
    let real = app.sign_in("demo@example.com").await;
    let jti = crate::helpers::payload(&real)["jti"].as_str().unwrap().to_string();
    let claims = |pid: &str, exp: i64| claims_for(&jti, pid, exp);

    // Control: a token minted with the real key, for a live session, works.
    let good = signer.sign(&claims(pid, now + 600)).unwrap();
    assert_eq!(app.get("/api/profile", Some(&good)).await.status, 200);

    // Expired a second ago.
    let expired = signer.sign(&claims(pid, now - 1)).unwrap();
    assert_error_shape(&app.get("/api/profile", Some(&expired)).await, 401);

    // Unsigned: alg none.
    let header = URL_SAFE_NO_PAD.encode(format!(r#"{{"alg":"none","typ":"JWT","kid":"{}"}}"#, signer.kid));
    let payload = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&claims(pid, now + 600)).unwrap());
    let none = STANDARD.encode(format!("{header}.{payload}."));
    assert_error_shape(&app.get("/api/profile", Some(&none)).await, 401);

    // HS256 "signed" with the public key as the secret.
    let hs = {
        use forge::hs256;
        hs256(&signer.kid, signer.public_key(), &claims(pid, now + 600))
    };
    assert_error_shape(&app.get("/api/profile", Some(&hs)).await, 401);

    // Signed by a key the portal never issued, claiming the real key id or its own.
    let (stranger, _) = Signer::generate().unwrap();
    assert_error_shape(&app.get("/api/profile", Some(&stranger.sign(&claims(pid, now + 600)).unwrap())).await, 401);
    let jwt = String::from_utf8(STANDARD.decode(stranger.sign(&claims(pid, now + 600)).unwrap()).unwrap()).unwrap();
    let parts: Vec<&str> = jwt.split('.').collect();
    let real_header = URL_SAFE_NO_PAD.encode(format!(r#"{{"typ":"JWT","alg":"EdDSA","kid":"{}"}}"#, signer.kid));
    let wrong_sig = STANDARD.encode(format!("{real_header}.{}.{}", parts[1], parts[2]));
    assert_error_shape(&app.get("/api/profile", Some(&wrong_sig)).await, 401);

    // A good token's payload swapped for another member's.
    let good_jwt = String::from_utf8(STANDARD.decode(&good).unwrap()).unwrap();
    let g: Vec<&str> = good_jwt.split('.').collect();
    let other_payload = URL_SAFE_NO_PAD.encode(serde_json::to_vec(&claims("prf_0000000000000000000000d2", now + 600)).unwrap());
    let tampered = STANDARD.encode(format!("{}.{other_payload}.{}", g[0], g[2]));
    assert_error_shape(&app.get("/api/profile", Some(&tampered)).await, 401);

    // Garbage, missing, wrong scheme.
    assert_error_shape(&app.get("/api/profile", Some("garbage")).await, 401);
    assert_error_shape(&app.get("/api/profile", None).await, 401);
    let r = app.http.get(app.url("/api/profile")).header("authorization", format!("Basic {good}")).send().await.unwrap();
    assert_eq!(r.status(), 401);
}

/// HS256 by hand (HMAC-SHA256 over header.payload), so the test does not depend on a JWT
/// library agreeing to sign with a confusable key.
mod forge {
    use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
    use base64::Engine;

    pub fn hs256(kid: &str, secret: &[u8], claims: &portal_token::Claims) -> String {
        let header = URL_SAFE_NO_PAD.encode(format!(r#"{{"alg":"HS256","typ":"JWT","kid":"{kid}"}}"#));
        let payload = URL_SAFE_NO_PAD.encode(serde_json::to_vec(claims).unwrap());
        let input = format!("{header}.{payload}");
        let key = ring::hmac::Key::new(ring::hmac::HMAC_SHA256, secret);
        let sig = URL_SAFE_NO_PAD.encode(ring::hmac::sign(&key, input.as_bytes()).as_ref());
        STANDARD.encode(format!("{input}.{sig}"))
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tokens_survive_a_restart_of_the_services() {
    // Same data dir, new processes: keys persist, so sessions stay valid.
    let app = spawn_app(Default::default()).await.unwrap();
    let t = app.sign_in("demo@example.com").await;
    let settings = app.settings.clone();
    let mut s2 = settings.clone();
    s2.services = Default::default();
    let second = portal_launcher::start(s2).await.unwrap();
    let r =
        reqwest::Client::new().get(format!("http://127.0.0.1:{}/api/profile", second.gateway_port)).bearer_auth(&t).send().await.unwrap();
    assert_eq!(r.status(), 200);
    second.stop().await.unwrap();
    app.stop().await;
}
