//! The record of each session issued (table `sessions`): what "My sessions" lists and what a
//! member can sign out. Tokens stay stateless: signing a session out writes its id to the KV's
//! revoked keys, which the gateway checks on every call; the record only remembers it.
use crate::device;
use portal_common::db::Db;
use portal_common::geo::GeoIp;
use portal_proto::auth::v1 as pb;
use sqlx::any::AnyRow;
use sqlx::Row;

/// Where a sign-in came from, as the gateway saw it.
#[derive(Default)]
pub struct Origin {
    pub ip: Option<String>,
    pub user_agent: Option<String>,
}

/// A session record about to be written.
pub struct NewSession<'a> {
    pub id: &'a str,
    pub profile_id: &'a str,
    pub signed_in_at: i64,
    pub expires_at: i64,
}

const COLS: &str = "id, signed_in_at, expires_at, browser, os, device, ip, place, revoked_at";

fn row(r: &AnyRow, current: Option<&str>) -> pb::Session {
    let id: String = r.get("id");
    pb::Session {
        current: current == Some(id.as_str()),
        id,
        signed_in_at: r.get("signed_in_at"),
        last_seen_at: 0,
        expires_at: r.get("expires_at"),
        browser: r.get("browser"),
        os: r.get("os"),
        device: r.get("device"),
        place: r.get("place"),
        ip: r.get("ip"),
        revoked_at: r.get::<Option<i64>, _>("revoked_at").unwrap_or(0),
    }
}

/// Records a new session, with its device, truncated address and place; the member's expired
/// records go at the same time.
pub async fn record(db: &Db, geo: &GeoIp, s: &NewSession<'_>, origin: &Origin) -> Result<(), sqlx::Error> {
    let dev = origin.user_agent.as_deref().map(device::parse).unwrap_or_default();
    let addr = origin.ip.as_deref().and_then(|ip| ip.parse::<std::net::IpAddr>().ok());
    let place = addr.and_then(|a| geo.place(a)).unwrap_or_default();
    let ip = addr.map(|a| portal_common::geo::truncate(a).to_string()).unwrap_or_default();
    let mut tx = db.begin().await?;
    sqlx::query("DELETE FROM sessions WHERE profile_id = $1 AND expires_at <= $2")
        .bind(s.profile_id)
        .bind(portal_common::now_unix())
        .execute(&mut *tx)
        .await?;
    sqlx::query(
        "INSERT INTO sessions (id, profile_id, signed_in_at, expires_at, browser, os, device, ip, place, recorded_at_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(s.id)
    .bind(s.profile_id)
    .bind(s.signed_in_at)
    .bind(s.expires_at)
    .bind(&dev.browser)
    .bind(&dev.os)
    .bind(&dev.kind)
    .bind(&ip)
    .bind(&place)
    .bind(chrono::Utc::now().timestamp_millis())
    .execute(&mut *tx)
    .await?;
    tx.commit().await
}

/// When the session `id` signed in, if it is on record.
pub async fn signed_in_at(db: &Db, id: &str) -> Result<Option<i64>, sqlx::Error> {
    Ok(sqlx::query("SELECT signed_in_at FROM sessions WHERE id = $1").bind(id).fetch_optional(&db.pool).await?.map(|r| r.get("signed_in_at")))
}

/// The member's sessions that are neither expired nor revoked, newest sign-in first.
pub async fn live(db: &Db, pid: &str, current: Option<&str>, now: i64) -> Result<Vec<pb::Session>, sqlx::Error> {
    let rows = sqlx::query(&format!(
        "SELECT {COLS} FROM sessions WHERE profile_id = $1 AND revoked_at IS NULL AND expires_at > $2 ORDER BY signed_in_at DESC, recorded_at_ms DESC, id DESC"
    ))
    .bind(pid)
    .bind(now)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows.iter().map(|r| row(r, current)).collect())
}

/// Every record kept for the member, revoked and expired ones too (the data export).
pub async fn all(db: &Db, pid: &str, current: Option<&str>) -> Result<Vec<pb::Session>, sqlx::Error> {
    let rows = sqlx::query(&format!("SELECT {COLS} FROM sessions WHERE profile_id = $1 ORDER BY signed_in_at DESC, recorded_at_ms DESC, id DESC"))
        .bind(pid)
        .fetch_all(&db.pool)
        .await?;
    Ok(rows.iter().map(|r| row(r, current)).collect())
}

/// Notes that a session was signed out (its token is already refused through the KV).
pub async fn mark_revoked(db: &Db, id: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL").bind(id).bind(now).execute(&db.pool).await?;
    Ok(())
}

/// Removes every record of the member (erasure).
pub async fn forget(db: &Db, pid: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM sessions WHERE profile_id = $1").bind(pid).execute(&db.pool).await?;
    Ok(())
}
