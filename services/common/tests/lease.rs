//! The lease a periodic job takes so it runs on one replica, on both backends: of two holders
//! asking at once exactly one gets it; it stays with its holder while renewed; it passes to
//! another once it expires or is released.
use portal_common::db::Db;
use portal_common::lease::Lease;
use portal_common::testing::{Backend, Harness};
use std::time::Duration;

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./tests/lease_migrations");

portal_common::both_backends!(one_of_two_racing_holders_wins_each_round, a_lease_renewed_stays_and_an_expired_one_passes_on);

/// The harness and a database with a `leases` table, as a service's migration creates it.
async fn storage(backend: Backend) -> Option<(Harness, Db)> {
    let h = Harness::new(backend)?;
    let db = Db::connect(&h.settings, "leases", &MIGRATOR).await.expect("storage");
    Some((h, db))
}

async fn finish(h: Harness, db: Db) {
    db.drop_schema(&h.settings, "leases").await.expect("schema dropped");
    h.finish().await;
}

async fn one_of_two_racing_holders_wins_each_round(backend: Backend) {
    let Some((h, db)) = storage(backend).await else { return };
    let mut wins = [0; 2];
    for round in 0..100 {
        let name = format!("job-{round}");
        let (a, b) = (Lease::new(&db, &name, Duration::from_secs(60)), Lease::new(&db, &name, Duration::from_secs(60)));
        let (ta, tb) = (tokio::spawn(async move { a.acquire().await }), tokio::spawn(async move { b.acquire().await }));
        let (got_a, got_b) = (ta.await.unwrap().expect("a asked"), tb.await.unwrap().expect("b asked"));
        assert!(got_a ^ got_b, "round {round}: exactly one holds it (a {got_a}, b {got_b})");
        wins[usize::from(got_b)] += 1;
    }
    assert_eq!(wins[0] + wins[1], 100);
    finish(h, db).await;
}

async fn a_lease_renewed_stays_and_an_expired_one_passes_on(backend: Backend) {
    let Some((h, db)) = storage(backend).await else { return };
    let ttl = Duration::from_millis(400);
    let (a, b) = (Lease::new(&db, "reconciler", ttl), Lease::new(&db, "reconciler", ttl));
    assert_ne!(a.holder(), b.holder());
    assert!(a.acquire().await.unwrap());
    assert!(!b.acquire().await.unwrap(), "held by a");

    // Renewed well within its TTL, it stays a's for longer than one TTL.
    for _ in 0..8 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        assert!(a.acquire().await.unwrap(), "a renews its own lease");
        assert!(!b.acquire().await.unwrap(), "b never gets a renewed lease");
    }
    assert_eq!(a.run_if_held(|| async { 1 }).await.unwrap(), Some(1));
    assert_eq!(b.run_if_held(|| async { 2 }).await.unwrap(), None, "b's job doesn't run");

    // a stops renewing (a crash): once expired, b takes it, and a no longer holds it.
    tokio::time::sleep(ttl + Duration::from_millis(100)).await;
    assert!(b.acquire().await.unwrap(), "expired: b takes it");
    assert!(!a.acquire().await.unwrap(), "a lost it");

    // Released, it is free at once.
    b.release().await.unwrap();
    assert!(a.acquire().await.unwrap(), "released: a takes it without waiting");
    b.release().await.unwrap();
    assert!(!b.acquire().await.unwrap(), "b's release doesn't free a's lease");
    finish(h, db).await;
}
