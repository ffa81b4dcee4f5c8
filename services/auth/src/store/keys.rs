//! The signing keys' table: keys kept base64-encoded, the newest first; retired keys stay
//! but are never read again.
use super::Result;
use portal_common::db::Db;
use sqlx::Row;

/// A key as stored: its id, PKCS#8 private key and public key, both base64.
pub struct StoredKey {
    pub kid: String,
    pub private_pkcs8: String,
    pub public_key: String,
}

/// Adds a key (an id already there is left as it is).
pub async fn insert(db: &Db, key: &StoredKey) -> Result<()> {
    sqlx::query(
        "INSERT INTO signing_keys (kid, private_pkcs8, public_key, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (kid) DO NOTHING",
    )
    .bind(&key.kid)
    .bind(&key.private_pkcs8)
    .bind(&key.public_key)
    .bind(chrono::Utc::now().timestamp_millis())
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// How many keys are not retired.
pub async fn count_active(db: &Db) -> Result<i64> {
    Ok(sqlx::query("SELECT COUNT(*) AS n FROM signing_keys WHERE retired_at IS NULL").fetch_one(&db.pool).await?.get("n"))
}

/// The keys not retired, newest first.
pub async fn active(db: &Db) -> Result<Vec<StoredKey>> {
    let rows =
        sqlx::query("SELECT kid, private_pkcs8, public_key FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC, kid DESC")
            .fetch_all(&db.pool)
            .await?;
    Ok(rows
        .iter()
        .map(|r| StoredKey { kid: r.get("kid"), private_pkcs8: r.get("private_pkcs8"), public_key: r.get("public_key") })
        .collect())
}

/// The ids of the keys not retired, newest first.
pub async fn active_ids(db: &Db) -> Result<Vec<String>> {
    Ok(sqlx::query("SELECT kid FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC, kid DESC")
        .fetch_all(&db.pool)
        .await?
        .into_iter()
        .map(|r| r.get("kid"))
        .collect())
}

/// Retires key `kid` at `now`.
pub async fn retire(db: &Db, kid: &str, now: i64) -> Result<()> {
    sqlx::query("UPDATE signing_keys SET retired_at = $1 WHERE kid = $2").bind(now).bind(kid).execute(&db.pool).await?;
    Ok(())
}
