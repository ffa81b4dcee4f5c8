//! The loyalty beat (points expiry, tier reviews, clean-up) with three profile replicas on one
//! storage: it runs on the one holding the `profile-points-expiry` lease, and the holder keeps it
//! (renewing each beat) while the others skip.
use portal_common::db::Db;
use portal_common::testing::{Backend, Harness};
use sqlx::Row;
use std::time::Duration;

portal_common::both_backends!(three_replicas_one_beat);

async fn holders(db: &Db) -> Vec<String> {
    sqlx::query("SELECT holder FROM leases WHERE name = $1")
        .bind("profile-points-expiry")
        .fetch_all(&db.pool)
        .await
        .expect("leases readable")
        .iter()
        .map(|r| r.get::<String, _>("holder"))
        .collect()
}

async fn three_replicas_one_beat(backend: Backend) {
    let Some(mut h) = Harness::new(backend) else { return };
    h.start("refdata", portal_refdata::build).await;
    h.absent("connections");
    for _ in 0..3 {
        h.start("profile", portal_profile::build).await;
    }
    let db = Db::connect(&h.settings, "profile", &portal_profile::MIGRATOR).await.expect("storage");
    let mut first = Vec::new();
    for _ in 0..100 {
        first = holders(&db).await;
        if !first.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(first.len(), 1, "one lease row for the beat");
    // The beat renews it on each run; the other replicas find it held and skip.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(holders(&db).await, first, "the holder keeps the lease");
    h.finish().await;
}
