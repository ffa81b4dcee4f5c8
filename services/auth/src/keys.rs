//! Signing keys. The newest unretired key signs; every unretired key verifies, so a rotation
//! never rejects a token signed just before it. In the embedded default the first start
//! generates a key and keeps it in the service's own table.
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

pub async fn load_or_create(db: &Db) -> anyhow::Result<Keys> {
    if current(db).await?.is_none() {
        let (signer, pkcs8) = Signer::generate()?;
        // Two instances starting at once may both generate; the loser's key is simply unused.
        sqlx::query(
            "INSERT INTO signing_keys (kid, private_pkcs8, public_key, created_at) VALUES ($1, $2, $3, $4) ON CONFLICT (kid) DO NOTHING",
        )
        .bind(&signer.kid)
        .bind(STANDARD.encode(&pkcs8))
        .bind(STANDARD.encode(signer.public_key()))
        .bind(portal_common::now_unix())
        .execute(&db.pool)
        .await?;
    }
    let signer = current(db).await?.ok_or_else(|| anyhow::anyhow!("no signing key"))?;
    let rows = sqlx::query("SELECT kid, public_key FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC, kid")
        .fetch_all(&db.pool)
        .await?;
    let mut public_keys = Vec::new();
    for r in rows {
        public_keys.push((r.get::<String, _>("kid"), STANDARD.decode(r.get::<String, _>("public_key"))?));
    }
    let verify = KeySet::new(public_keys.iter().map(|(_, k)| k.as_slice()));
    Ok(Keys { signer, verify, public_keys })
}

async fn current(db: &Db) -> anyhow::Result<Option<Signer>> {
    let row = sqlx::query("SELECT private_pkcs8 FROM signing_keys WHERE retired_at IS NULL ORDER BY created_at DESC, kid LIMIT 1")
        .fetch_optional(&db.pool)
        .await?;
    match row {
        Some(r) => Ok(Some(Signer::from_pkcs8(&STANDARD.decode(r.get::<String, _>("private_pkcs8"))?)?)),
        None => Ok(None),
    }
}
