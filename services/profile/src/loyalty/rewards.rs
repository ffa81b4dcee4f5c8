//! Rewards: those issued to the member (gifts, and vouchers bought with points), and redeeming
//! points for a voucher from the tenant's catalogue. A redemption debits the ledger and issues
//! the voucher in one transaction, exactly once per idempotency key: the key's first answer is
//! kept and given again to a retry, and the same key with another request is refused.
use super::ledger::{self, Debit, Source};
use super::rules::{CatalogueEntry, LoyaltyRules};
use super::DAY;
use crate::error::ProfileError;
use crate::store;
use portal_common::db::Db;
use portal_proto::profile::v1 as pb;
use rand::Rng;

type Result<T> = std::result::Result<T, ProfileError>;

pub const NOT_FOUND: &str = "We couldn't find that reward";
pub const NOT_ENOUGH: &str = "You don't have enough points for this reward";
pub const KEY_REUSED: &str = "This Idempotency-Key was already used for a different request";
const UNKNOWN_ITEM: &str = "Choose a reward from the catalogue";

/// Letters and digits that cannot be mistaken for each other when read out or typed (no 0/O,
/// 1/I/L, U): 31 symbols, 12 of them a code, about 59 bits.
const CODE_ALPHABET: &[u8] = b"23456789ABCDEFGHJKMNPQRSTVWXYZ";

/// A new voucher code, `XXXX-XXXX-XXXX`.
pub fn new_code() -> String {
    let mut rng = rand::thread_rng();
    let chars: Vec<char> = (0..12).map(|_| CODE_ALPHABET[rng.gen_range(0..CODE_ALPHABET.len())] as char).collect();
    chars.chunks(4).map(|c| c.iter().collect::<String>()).collect::<Vec<_>>().join("-")
}

/// A new reward id: random, and below 2^53 so JavaScript holds it exactly.
pub fn new_reward_id() -> i64 {
    rand::thread_rng().gen_range(1_000_000..(1i64 << 53))
}

/// The member's rewards issued up to `now` (one issued for later stays hidden), newest first.
pub async fn list(db: &Db, pid: &str, now: i64) -> Result<Vec<pb::Reward>> {
    store::rewards::list(db, pid, now).await
}

/// One of the member's rewards issued up to `now`.
pub async fn get<'e, E: sqlx::Executor<'e, Database = sqlx::Any>>(ex: E, pid: &str, id: i64, now: i64) -> Result<pb::Reward> {
    store::rewards::get(ex, pid, id, now).await?.ok_or(ProfileError::Missing(NOT_FOUND))
}

/// The catalogue as the member sees it: cheapest first, with what they can afford.
pub fn catalogue(rules: &LoyaltyRules, balance: i64) -> Vec<pb::CatalogueItem> {
    rules
        .catalogue
        .iter()
        .map(|c| pb::CatalogueItem {
            id: c.id.clone(),
            name: c.name.default_text().to_owned(),
            description: c.description.default_text().to_owned(),
            terms: c.terms.default_text().to_owned(),
            points: c.points,
            valid_days: c.valid_days,
            affordable: balance >= c.points,
            points_needed: (c.points - balance).max(0),
        })
        .collect()
}

/// What a kept answer is rebuilt from.
#[derive(serde::Serialize, serde::Deserialize)]
struct Kept {
    reward_id: i64,
    points_spent: i64,
    balance: i64,
}

/// Redeems `catalogue_id` for the member, exactly once per `key`.
pub async fn redeem(db: &Db, pid: &str, key: &str, catalogue_id: &str, rules: &LoyaltyRules, now: i64) -> Result<pb::Redemption> {
    if !portal_common::is_idempotency_key(key) {
        return Err(ProfileError::field("idempotency_key", portal_common::IDEMPOTENCY_KEY_PROBLEM));
    }
    let request = format!("redeem {catalogue_id}");
    let mut tx = db.begin().await?;
    // The account lock makes a retry wait for the first request with its key, then find its answer.
    ledger::lock(&mut tx, pid).await?;
    let kept = store::rewards::kept(&mut tx, pid, key).await?;
    if let Some((kept_request, outcome, result)) = kept {
        if kept_request != request {
            return Err(ProfileError::field("idempotency_key", KEY_REUSED));
        }
        return match outcome.as_str() {
            "ok" => {
                let kept: Kept = serde_json::from_str(&result).map_err(|e| ProfileError::Db(sqlx::Error::Decode(e.into())))?;
                let reward = get(&mut *tx, pid, kept.reward_id, now).await?;
                tx.commit().await?;
                Ok(pb::Redemption { reward: Some(reward), points_spent: kept.points_spent, balance: kept.balance, replayed: true })
            }
            _ => Err(ProfileError::NotEnoughPoints),
        };
    }
    let Some(item) = rules.catalogue_item(catalogue_id) else {
        return Err(ProfileError::field("catalogue_id", UNKNOWN_ITEM));
    };
    let reward_id = new_reward_id();
    let debit = Debit {
        source: Source::Redemption,
        reason: item.name.default_text(),
        reference: &format!("redeem:{reward_id}"),
        points: item.points,
        at: now,
    };
    match ledger::debit(&mut tx, pid, &debit).await {
        Ok(_) => {}
        Err(ProfileError::NotEnoughPoints) => {
            // A refusal is an answer too: a retry with this key gets it again.
            let refused = store::rewards::Answer { request: &request, outcome: "failed_precondition", message: NOT_ENOUGH, result: "{}" };
            store::rewards::keep(&mut tx, pid, key, &refused, now).await?;
            tx.commit().await?;
            return Err(ProfileError::NotEnoughPoints);
        }
        Err(e) => return Err(e),
    }
    issue(&mut tx, pid, reward_id, item, now).await?;
    let balance = ledger::balance(&mut *tx, pid).await?;
    let result = serde_json::to_string(&Kept { reward_id, points_spent: item.points, balance }).expect("plain struct");
    store::rewards::keep(
        &mut tx,
        pid,
        key,
        &store::rewards::Answer { request: &request, outcome: "ok", message: "", result: &result },
        now,
    )
    .await?;
    let reward = get(&mut *tx, pid, reward_id, now).await?;
    tx.commit().await?;
    Ok(pb::Redemption { reward: Some(reward), points_spent: item.points, balance, replayed: false })
}

/// Issues a voucher for a catalogue item (its points already debited in this transaction).
async fn issue(tx: &mut ledger::Tx<'_>, pid: &str, id: i64, item: &CatalogueEntry, now: i64) -> Result<()> {
    let expires_at = if item.valid_days > 0 { now + item.valid_days * DAY } else { 0 };
    let voucher = store::rewards::Voucher {
        id,
        name: item.name.default_text(),
        description: item.description.default_text(),
        terms: item.terms.default_text(),
        points: item.points,
        expires_at,
        catalogue_id: &item.id,
        code: &new_code(),
    };
    store::rewards::issue(tx, pid, &voucher, now).await
}

/// Kept answers older than this are forgotten (a retry comes within minutes; 30 days is ample).
pub const KEEP_ANSWERS_SECS: i64 = 30 * DAY;

pub async fn forget_old_answers(db: &Db, now: i64) -> Result<u64> {
    store::rewards::forget_answers(db, now - KEEP_ANSWERS_SECS).await
}

/// The till marks a voucher used, by its code: once, and only while it is valid.
pub async fn use_code(db: &Db, tenant: &str, code: &str, now: i64) -> Result<pb::Reward> {
    let code = code.trim().to_uppercase();
    let (id, pid) = store::rewards::by_code(db, tenant, &code).await?.ok_or(ProfileError::Missing(NOT_FOUND))?;
    let current = get(&db.pool, &pid, id, now).await?;
    match current.status.as_str() {
        "used" => return Err(ProfileError::Refused("This voucher has been used")),
        "expired" => return Err(ProfileError::Refused("This voucher has expired")),
        _ => {}
    }
    if !store::rewards::mark_used(db, id, now).await? {
        return Err(ProfileError::Refused("This voucher has been used"));
    }
    get(&db.pool, &pid, id, now).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_readable_and_distinct() {
        let a = new_code();
        assert_eq!(a.len(), 14);
        assert!(a.split('-').all(|p| p.len() == 4 && p.bytes().all(|b| CODE_ALPHABET.contains(&b))), "{a}");
        assert_ne!(a, new_code());
        assert!(!CODE_ALPHABET.iter().any(|c| b"01ILOU".contains(c)));
    }

    #[test]
    fn reward_ids_are_exact_in_javascript() {
        for _ in 0..1000 {
            let id = new_reward_id();
            assert!((1_000_000..(1i64 << 53)).contains(&id));
            assert_eq!(id as f64 as i64, id);
        }
    }
}
