//! Signing keys. The newest unretired key signs; the newest two verify, so rotating never
//! rejects a token signed just before; older keys are retired at rotation (rotate less often
//! than the longest token lifetime). In the embedded default the first start generates a key
//! and keeps it in the service's own table; running instances reload the table every minute.
use crate::store::keys::{self as store, StoredKey};
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use portal_common::config::Settings;
use portal_common::db::Db;
use portal_token::{KeySet, Signer};

pub struct Keys {
    pub signer: Signer,
    pub verify: KeySet,
    pub public_keys: Vec<(String, Vec<u8>)>,
}

/// Keys kept for verification: the current one and the one before it.
const KEEP: usize = 2;

async fn insert(db: &Db) -> anyhow::Result<()> {
    let (signer, pkcs8) = Signer::generate()?;
    let key = StoredKey { private_pkcs8: STANDARD.encode(&pkcs8), public_key: STANDARD.encode(signer.public_key()), kid: signer.kid };
    store::insert(db, &key).await?;
    Ok(())
}

pub async fn load_or_create(db: &Db) -> anyhow::Result<Keys> {
    if store::count_active(db).await? == 0 {
        // Two instances starting at once may both generate; both keys verify, the newest signs.
        insert(db).await?;
    }
    load(db).await
}

pub async fn load(db: &Db) -> anyhow::Result<Keys> {
    let rows = store::active(db).await?;
    let newest = rows.first().ok_or_else(|| anyhow::anyhow!("no signing key"))?;
    let signer = Signer::from_pkcs8(&STANDARD.decode(&newest.private_pkcs8)?)?;
    let mut public_keys = Vec::new();
    for r in &rows {
        public_keys.push((r.kid.clone(), STANDARD.decode(&r.public_key)?));
    }
    let verify = KeySet::new(public_keys.iter().map(|(_, k)| k.as_slice()));
    Ok(Keys { signer, verify, public_keys })
}

/// Makes a new key current and retires all but the newest `KEEP`.
pub async fn rotate(db: &Db) -> anyhow::Result<Keys> {
    insert(db).await?;
    for kid in store::active_ids(db).await?.iter().skip(KEEP) {
        store::retire(db, kid, portal_common::now_unix()).await?;
    }
    load(db).await
}

/// The current signing key from the service's store, for tooling and tests that must mint a
/// token the gateway will recognise (an already-expired one, say).
pub async fn current_signer(settings: &Settings) -> anyhow::Result<Signer> {
    let db = Db::connect(settings, "auth", &crate::MIGRATOR).await?;
    Ok(load_or_create(&db).await?.signer)
}

/// The public keys that verify, as the gateway asks for them.
pub fn response(keys: &Keys) -> portal_proto::auth::v1::GetVerificationKeysResponse {
    use portal_proto::auth::v1 as pb;
    pb::GetVerificationKeysResponse {
        keys: keys.public_keys.iter().map(|(kid, k)| pb::VerificationKey { kid: kid.clone(), public_key: k.clone() }).collect(),
    }
}

impl crate::state::Inner {
    /// The public keys that verify now.
    pub(crate) fn verification_keys(&self) -> portal_proto::auth::v1::GetVerificationKeysResponse {
        response(&self.keys.read().unwrap())
    }

    /// Rotates the keys (see the module doc) and starts signing with the new one at once.
    pub(crate) async fn rotate_keys(&self) -> Result<portal_proto::auth::v1::GetVerificationKeysResponse, crate::error::AuthError> {
        let keys = rotate(&self.db).await.map_err(crate::error::AuthError::Other)?;
        let res = response(&keys);
        *self.keys.write().unwrap() = keys;
        Ok(res)
    }
}
