//! The record of each session issued (table `sessions`), and the source of truth for whether
//! one is live: not signed out, within its absolute lifetime (counted from the real sign-in,
//! `auth_time`), and used within the idle timeout. The gateway keeps the answer in the KV
//! (`token::live_key`) and asks again (`check`) when the key is missing or a minute old, so an
//! empty in-process KV after a restart loses no sign-out. Staff views of a member's account
//! (impersonation) are sessions too, under the member, tied to the staff user's own session
//! (`parent_id`): "My sessions" lists them apart, and ending either ends the view.
use super::Result;
use crate::device;
use portal_common::db::Db;
use portal_geo::GeoIp;
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
    /// When the member really signed in (a renewal keeps the original).
    pub signed_in_at: i64,
    pub expires_at: i64,
    /// For a staff view: the staff user, and their own session that opened it.
    pub staff: Option<ViewOf<'a>>,
}

pub struct ViewOf<'a> {
    pub staff_id: &'a str,
    pub staff_name: &'a str,
    pub parent_id: &'a str,
}

const COLS: &str = "id, signed_in_at, last_seen_at, expires_at, browser, os, device, ip, place, revoked_at";

/// Whether a session is live, and if not, why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    Live {
        expires_at: i64,
    },
    /// Signed out, revoked, or never recorded.
    Ended,
    Expired,
    Idle,
}

fn row(r: &AnyRow, current: Option<&str>) -> pb::Session {
    let id: String = r.get("id");
    pb::Session {
        current: current == Some(id.as_str()),
        id,
        signed_in_at: r.get("signed_in_at"),
        last_seen_at: r.get("last_seen_at"),
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
pub async fn record(db: &Db, geo: &GeoIp, s: &NewSession<'_>, origin: &Origin) -> Result<()> {
    let dev = origin.user_agent.as_deref().map(device::parse).unwrap_or_default();
    let addr = origin.ip.as_deref().and_then(|ip| ip.parse::<std::net::IpAddr>().ok());
    let place = addr.and_then(|a| geo.place(a)).unwrap_or_default();
    let ip = addr.map(|a| portal_geo::truncate(a).to_string()).unwrap_or_default();
    let mut tx = db.begin().await?;
    sqlx::query("DELETE FROM sessions WHERE profile_id = $1 AND expires_at <= $2")
        .bind(s.profile_id)
        .bind(portal_common::now_unix())
        .execute(&mut *tx)
        .await?;
    let (staff_id, staff_name, parent_id) = s.staff.as_ref().map_or(("", "", ""), |v| (v.staff_id, v.staff_name, v.parent_id));
    sqlx::query(
        "INSERT INTO sessions (id, profile_id, signed_in_at, auth_time, last_seen_at, expires_at, browser, os, device, ip, place, recorded_at_ms,
                               staff_id, staff_name, parent_id)
         VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
    )
    .bind(s.id)
    .bind(s.profile_id)
    .bind(s.signed_in_at)
    .bind(portal_common::now_unix())
    .bind(s.expires_at)
    .bind(&dev.browser)
    .bind(&dev.os)
    .bind(&dev.kind)
    .bind(&ip)
    .bind(&place)
    .bind(chrono::Utc::now().timestamp_millis())
    .bind(staff_id)
    .bind(staff_name)
    .bind(parent_id)
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    Ok(())
}

/// Whether session `id` is live at `now`; a live one is marked as seen now. `idle_secs`: the
/// longest a session may go unused.
pub async fn check(db: &Db, id: &str, now: i64, idle_secs: i64) -> Result<State> {
    let seen = sqlx::query(
        "UPDATE sessions SET last_seen_at = $2 WHERE id = $1 AND revoked_at IS NULL AND expires_at > $2 AND last_seen_at >= $3",
    )
    .bind(id)
    .bind(now)
    .bind(now - idle_secs)
    .execute(&db.pool)
    .await?
    .rows_affected();
    let row = sqlx::query("SELECT expires_at, revoked_at FROM sessions WHERE id = $1").bind(id).fetch_optional(&db.pool).await?;
    let Some(row) = row else { return Ok(State::Ended) };
    let (expires_at, revoked) = (row.get::<i64, _>("expires_at"), row.get::<Option<i64>, _>("revoked_at").is_some());
    Ok(match () {
        _ if revoked => State::Ended,
        _ if expires_at <= now => State::Expired,
        _ if seen == 0 => State::Idle,
        _ => State::Live { expires_at },
    })
}

/// Whether session `id` has been signed out (or was never recorded).
pub async fn ended(db: &Db, id: &str) -> Result<bool> {
    let row = sqlx::query("SELECT revoked_at FROM sessions WHERE id = $1").bind(id).fetch_optional(&db.pool).await?;
    Ok(row.is_none_or(|r| r.get::<Option<i64>, _>("revoked_at").is_some()))
}

/// The session `id`'s holder and when they really signed in, while it is neither signed out nor
/// expired: what a renewal carries over.
pub async fn holder(db: &Db, id: &str, now: i64) -> Result<Option<(String, i64)>> {
    Ok(sqlx::query("SELECT profile_id, auth_time FROM sessions WHERE id = $1 AND revoked_at IS NULL AND expires_at > $2")
        .bind(id)
        .bind(now)
        .fetch_optional(&db.pool)
        .await?
        .map(|r| (r.get("profile_id"), r.get("auth_time"))))
}

/// The live sessions of `pid` (`views`: staff views of their account instead of their own
/// sessions), newest sign-in first.
async fn live_rows(db: &Db, pid: &str, now: i64, idle_secs: i64, views: bool) -> Result<Vec<AnyRow>> {
    let kind = if views { "staff_id <> ''" } else { "staff_id = ''" };
    Ok(sqlx::query(&format!(
        "SELECT {COLS}, staff_name FROM sessions WHERE profile_id = $1 AND {kind} AND revoked_at IS NULL AND expires_at > $2 AND last_seen_at >= $3
         ORDER BY signed_in_at DESC, recorded_at_ms DESC, id DESC"
    ))
    .bind(pid)
    .bind(now)
    .bind(now - idle_secs)
    .fetch_all(&db.pool)
    .await?)
}

/// The member's own sessions that are live, newest sign-in first.
pub async fn live(db: &Db, pid: &str, current: Option<&str>, now: i64, idle_secs: i64) -> Result<Vec<pb::Session>> {
    Ok(live_rows(db, pid, now, idle_secs, false).await?.iter().map(|r| row(r, current)).collect())
}

/// Staff views of the member's account that are live, newest first.
pub async fn views(db: &Db, pid: &str, now: i64, idle_secs: i64) -> Result<Vec<pb::StaffView>> {
    Ok(live_rows(db, pid, now, idle_secs, true)
        .await?
        .iter()
        .map(|r| pb::StaffView {
            id: r.get("id"),
            staff_name: r.get("staff_name"),
            started_at: r.get("signed_in_at"),
            last_seen_at: r.get("last_seen_at"),
            expires_at: r.get("expires_at"),
        })
        .collect())
}

/// Every record kept for the member, revoked and expired ones too (the data export).
pub async fn all(db: &Db, pid: &str, current: Option<&str>) -> Result<Vec<pb::Session>> {
    let rows = sqlx::query(&format!(
        "SELECT {COLS} FROM sessions WHERE profile_id = $1 AND staff_id = '' ORDER BY signed_in_at DESC, recorded_at_ms DESC, id DESC"
    ))
    .bind(pid)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows.iter().map(|r| row(r, current)).collect())
}

/// Records that a session is over; true if this call ended it (of two racing, one does).
pub async fn mark_revoked(db: &Db, id: &str, now: i64) -> Result<bool> {
    let n = sqlx::query("UPDATE sessions SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL")
        .bind(id)
        .bind(now)
        .execute(&db.pool)
        .await?
        .rows_affected();
    Ok(n == 1)
}

/// The staff views opened by session `parent_id` that are not ended yet: (id, member id, staff id, staff name).
pub async fn open_views_of(db: &Db, parent_id: &str) -> Result<Vec<(String, String, String, String)>> {
    Ok(sqlx::query("SELECT id, profile_id, staff_id, staff_name FROM sessions WHERE parent_id = $1 AND revoked_at IS NULL")
        .bind(parent_id)
        .fetch_all(&db.pool)
        .await?
        .iter()
        .map(|r| (r.get("id"), r.get("profile_id"), r.get("staff_id"), r.get("staff_name")))
        .collect())
}

/// Every session of `pid` not ended yet, views of their account included: (id, staff id, staff name).
pub async fn open_of(db: &Db, pid: &str) -> Result<Vec<(String, String, String)>> {
    Ok(sqlx::query("SELECT id, staff_id, staff_name FROM sessions WHERE profile_id = $1 AND revoked_at IS NULL")
        .bind(pid)
        .fetch_all(&db.pool)
        .await?
        .iter()
        .map(|r| (r.get("id"), r.get("staff_id"), r.get("staff_name")))
        .collect())
}

/// The staff user behind session `id` (empty for a member's own session).
pub async fn staff_of(db: &Db, id: &str) -> Result<String> {
    Ok(sqlx::query("SELECT staff_id FROM sessions WHERE id = $1").bind(id).fetch_one(&db.pool).await?.get::<String, _>("staff_id"))
}

/// Removes every record of the member (erasure).
pub async fn forget(db: &Db, pid: &str) -> Result<()> {
    sqlx::query("DELETE FROM sessions WHERE profile_id = $1").bind(pid).execute(&db.pool).await?;
    Ok(())
}
