//! The staff list (`staff_users`, per tenant, addresses matched in any case) and the access log:
//! each start, stop or refused attempt of a staff view of a member's account.
use super::Result;
use portal_common::db::Db;
use portal_common::email::Email;
use sqlx::Row;

/// Puts the demo staff user on the list (already there: left as it is).
pub async fn seed_demo(db: &Db, tenant: &str, id: &str) -> Result<()> {
    sqlx::query(
        "INSERT INTO staff_users (id, tenant, email, name) VALUES ($1, $2, 'staff@example.com', 'Sam Staff') ON CONFLICT (id) DO NOTHING",
    )
    .bind(id)
    .bind(tenant)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// The staff user with this address: (id, name).
pub async fn by_email(db: &Db, tenant: &str, email: &Email) -> Result<Option<(String, String)>> {
    Ok(sqlx::query("SELECT id, name FROM staff_users WHERE tenant = $1 AND LOWER(email) = $2")
        .bind(tenant)
        .bind(email.as_str())
        .fetch_optional(&db.pool)
        .await?
        .map(|r| (r.get("id"), r.get("name"))))
}

/// A staff user's name by id.
pub async fn name(db: &Db, tenant: &str, id: &str) -> Result<Option<String>> {
    Ok(sqlx::query("SELECT name FROM staff_users WHERE tenant = $1 AND id = $2")
        .bind(tenant)
        .bind(id)
        .fetch_optional(&db.pool)
        .await?
        .map(|r| r.get("name")))
}

/// An access log entry about to be written.
pub struct NewAccess<'a> {
    pub profile_id: &'a str,
    pub staff_id: &'a str,
    pub staff_name: &'a str,
    pub action: &'a str,
    pub reason: &'a str,
    pub token_id: &'a str,
    /// Unix seconds at which the view's token expires (a start), else 0.
    pub ends_at: i64,
}

pub async fn log_access(db: &Db, a: &NewAccess<'_>) -> Result<()> {
    sqlx::query(
        "INSERT INTO access_log (id, profile_id, staff_id, staff_name, action, reason, at_ms, token_id, ends_at_ms)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
    )
    .bind(portal_common::new_id("acc_"))
    .bind(a.profile_id)
    .bind(a.staff_id)
    .bind(a.staff_name)
    .bind(a.action)
    .bind(a.reason.trim().chars().take(500).collect::<String>())
    .bind(chrono::Utc::now().timestamp_millis())
    .bind(a.token_id)
    .bind(a.ends_at * 1000)
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// An access log entry as stored.
pub struct Access {
    pub action: String,
    pub staff_id: String,
    pub staff_name: String,
    pub reason: String,
    pub at_ms: i64,
    pub token_id: String,
    pub ends_at_ms: i64,
}

/// The member's access log, newest first, at most `limit` entries.
pub async fn access_log(db: &Db, pid: &str, limit: i64) -> Result<Vec<Access>> {
    let rows = sqlx::query(
        "SELECT action, staff_id, staff_name, reason, at_ms, token_id, ends_at_ms FROM access_log WHERE profile_id = $1
         ORDER BY at_ms DESC, id DESC LIMIT $2",
    )
    .bind(pid)
    .bind(limit)
    .fetch_all(&db.pool)
    .await?;
    Ok(rows
        .iter()
        .map(|r| Access {
            action: r.get("action"),
            staff_id: r.get("staff_id"),
            staff_name: r.get("staff_name"),
            reason: r.get("reason"),
            at_ms: r.get("at_ms"),
            token_id: r.get("token_id"),
            ends_at_ms: r.get("ends_at_ms"),
        })
        .collect())
}
