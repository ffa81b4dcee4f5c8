//! Signing keys. The newest unretired key signs; the newest two verify, so rotating never
//! rejects a token signed just before; older keys are retired at rotation (rotate less often
//! than the longest token lifetime). In the embedded default the first start generates a key
//! and keeps it in the service's own table; running instances reload the table every minute.
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use portal_common::db::Db;
use portal_common::token::{KeySet, Signer};
use sqlx::Row;

pub struct Keys {
    pub signer: Signer,
    pub verify: KeySet,
    pub public_keys: Vec<(String, Vec<u8>)>,
}

/// Keys kept for verification: the current one and the one before it.
const KEEP: usize = 2;

async fn insert(db: &Db) -> anyhow::Result<()> {
    let (signer, pkcs8) = Signer::generate()?;
    sqlx::query(
        "INSERT INTO signing_keys (kid, private_pkcs8, public_key, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (kid) DO NOTHING",
    )
    .bind(&signer.kid)
    .bind(STANDARD.encode(&pkcs8))
    .bind(STANDARD.encode(signer.public_key()))
    .bind(chrono::Utc::now().timestamp_millis())
    .execute(&db.pool)
    .await?;
    Ok(())
}

pub async fn load_or_create(db: &Db) -> anyhow::Result<Keys> {
    let any: i64 = sqlx::query("SELECT COUNT(*) AS n FROM signing_keys WHERE retired_at IS NULL").fetch_one(&db.pool).await?.get("n");
    if any == 0 {
        // Two instances starting at once may both generate; both keys verify, the newest signs.
        insert(db).await?;
    }
    load(db).await
}

pub async fn load(db: &Db) -> anyhow::Result<Keys> {
    let rows =
        sqlx::query("SELECT kid, private_pkcs8, public_key FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC, kid DESC")
            .fetch_all(&db.pool)
            .await?;
    let newest = rows.first().ok_or_else(|| anyhow::anyhow!("no signing key"))?;
    let signer = Signer::from_pkcs8(&STANDARD.decode(newest.get::<String, _>("private_pkcs8"))?)?;
    let mut public_keys = Vec::new();
    for r in &rows {
        public_keys.push((r.get::<String, _>("kid"), STANDARD.decode(r.get::<String, _>("public_key"))?));
    }
    let verify = KeySet::new(public_keys.iter().map(|(_, k)| k.as_slice()));
    Ok(Keys { signer, verify, public_keys })
}

/// Makes a new key current and retires all but the newest `KEEP`.
pub async fn rotate(db: &Db) -> anyhow::Result<Keys> {
    insert(db).await?;
    let keep: Vec<String> = sqlx::query("SELECT kid FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC, kid DESC")
        .fetch_all(&db.pool)
        .await?
        .into_iter()
        .map(|r| r.get("kid"))
        .collect();
    for kid in keep.iter().skip(KEEP) {
        sqlx::query("UPDATE signing_keys SET retired_at = $1 WHERE kid = $2")
            .bind(portal_common::now_unix())
            .bind(kid)
            .execute(&db.pool)
            .await?;
    }
    load(db).await
}
