//! Claims for purchases that were not credited. A claim is checked (store, date within the
//! tenant's window, positive amount, receipt number), then matched against the store's own
//! record of sales: a match is credited at once (the purchase joins the member's transactions
//! and its points are issued once), otherwise the claim waits as pending and is matched again
//! whenever the member looks at their claims, until it is rejected when its window has long
//! closed.
//!
//! A claim never blocks anyone else's: each member may have one claim per receipt of their own,
//! and only the store's record decides. Taking the sale (`profile_id = ''` to the member, in the
//! same transaction as the credit) is the exactly-once guard, so a claim with a wrong amount for
//! someone else's receipt waits, is never credited, and the real buyer's right claim is credited
//! as usual. A claim that does not match is answered the same way (201, pending, no message)
//! whether the receipt does not exist, is someone else's, or has other details: the answer tells
//! nothing about receipts the member doesn't hold. Only a receipt of the member's own (a claim of
//! theirs, or the sale already on their account) is told apart (409).
//!
//! Quotas per member, from the tenant's `components.claims`: `maxPending` claims waiting at once
//! (422) and `maxPerDay` filed in any 24 hours (429 with `Retry-After`).
use crate::error::ProfileError;
use crate::loyalty::ledger;
use crate::rules::ProfileRules;
use crate::store::{self, Tx};
use crate::validate::Fields;
use chrono::{NaiveDate, TimeZone};
use portal_common::db::Db;
use portal_proto::profile::v1 as pb;

type Result<T> = std::result::Result<T, ProfileError>;

/// Said only about the caller's own receipts: the sale is on their account (scanned at the till,
/// or a claim of theirs credited).
pub const ON_YOUR_ACCOUNT: &str = "This receipt is already on your account";
/// Said only to the member who filed it: a claim of theirs for this receipt is waiting or closed.
pub const CLAIMED_BY_YOU: &str = "You have already claimed this receipt";
const NOT_FOUND_MESSAGE: &str = "We could not find this purchase";
/// How long past the claim window a pending claim keeps waiting for the store's record.
const GRACE_DAYS: i64 = 14;

/// Dollars as typed (`59.95`, `$59.95`, `59`) to exact cents; no floats anywhere.
pub fn amount(raw: &str) -> std::result::Result<i64, &'static str> {
    let s = raw.trim().trim_start_matches('$').replace(',', "");
    let bad = "Enter an amount like 59.95";
    if s.starts_with('-') {
        return Err("Enter an amount greater than $0.00");
    }
    let (whole, frac) = s.split_once('.').unwrap_or((&s, ""));
    if whole.is_empty() && frac.is_empty() || whole.len() > 7 || frac.len() > 2 {
        return Err(bad);
    }
    if !whole.chars().chain(frac.chars()).all(|c| c.is_ascii_digit()) {
        return Err(bad);
    }
    let dollars: i64 = if whole.is_empty() { 0 } else { whole.parse().map_err(|_| bad)? };
    let cents: i64 = format!("{frac:0<2}").parse().map_err(|_| bad)?;
    let total = dollars * 100 + cents;
    if total <= 0 {
        return Err("Enter an amount greater than $0.00");
    }
    Ok(total)
}

/// A receipt number as printed: letters, digits and hyphens, compared without case.
pub fn receipt_number(raw: &str) -> std::result::Result<String, &'static str> {
    let s = raw.trim().to_uppercase();
    if s.is_empty() {
        return Err("Required");
    }
    if s.len() > 32 || !s.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return Err("Use the letters, digits and hyphens printed on the receipt");
    }
    Ok(s)
}

/// The purchase date: a real date, not after `today`, and within the claim window.
pub fn purchase_date(raw: &str, today: NaiveDate, window_days: i64) -> std::result::Result<NaiveDate, String> {
    if raw.trim().is_empty() {
        return Err("Required".into());
    }
    let d = NaiveDate::parse_from_str(raw.trim(), "%Y-%m-%d").map_err(|_| "Use a real date in the form YYYY-MM-DD".to_string())?;
    if d > today {
        return Err("The date can't be in the future".into());
    }
    if (today - d).num_days() > window_days {
        return Err(format!("Claims can be made for purchases in the last {window_days} days"));
    }
    Ok(d)
}

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// Today in the tenant's zone.
pub fn today(rules: &ProfileRules) -> NaiveDate {
    chrono::Utc::now().with_timezone(&rules.zone).date_naive()
}

/// Points for a purchase: whole dollars (half up) times the tenant's rate.
pub fn points_for(cents: i64, rules: &ProfileRules) -> i64 {
    (cents * rules.claims.points_per_dollar + 50).div_euclid(100)
}

/// A checked claim, ready to file.
pub struct NewClaim {
    pub store: String,
    pub store_name: String,
    pub date: NaiveDate,
    pub receipt_number: String,
    pub amount_cents: i64,
}

/// Checks the fields that need no lookup; the store is checked by the caller.
pub fn check(r: &pb::FileClaimRequest, rules: &ProfileRules, f: &mut Fields) -> Option<(NaiveDate, String, i64)> {
    let date = match purchase_date(&r.date, today(rules), rules.claims.window_days) {
        Ok(d) => Some(d),
        Err(m) => {
            f.add("date", &m);
            None
        }
    };
    let receipt = f.check("receipt_number", receipt_number(&r.receipt_number));
    let cents = f.check("amount", amount(&r.amount));
    Some((date?, receipt, cents))
}

const DAY_MS: i64 = 86_400_000;

/// Files a claim in one transaction: the member's account is locked first (the ledger's lock), so
/// their quotas hold under concurrent requests; then the claim row (its unique index refuses a
/// second claim by the same member for the same receipt), then the match.
pub async fn file(db: &Db, tenant: &str, pid: &str, c: &NewClaim, rules: &ProfileRules) -> Result<pb::Claim> {
    let now = now_ms();
    let id = portal_common::new_id("clm_");
    let mut tx = db.begin().await?;
    ledger::lock(&mut tx, pid).await?;
    let mine = store::claims::claimed_by(&mut tx, pid, &c.store, &c.receipt_number).await?;
    if store::claims::on_account(&mut tx, tenant, pid, &c.store, &c.receipt_number).await? {
        return Err(ProfileError::Conflict("receipt_number", ON_YOUR_ACCOUNT));
    }
    if mine {
        return Err(ProfileError::Conflict("receipt_number", CLAIMED_BY_YOU));
    }
    per_day(&mut tx, pid, now, rules.claims.max_per_day).await?;
    let date = c.date.format("%Y-%m-%d").to_string();
    let row = store::claims::NewClaim {
        id: &id,
        store: &c.store,
        store_name: &c.store_name,
        receipt_number: &c.receipt_number,
        date: &date,
        amount_cents: c.amount_cents,
        at_ms: now,
    };
    if !store::claims::insert(&mut tx, tenant, pid, &row).await? {
        return Err(ProfileError::Conflict("receipt_number", CLAIMED_BY_YOU));
    }
    // A claim credited at once never waits, so only one left pending counts against the cap
    // (dropping the transaction takes it back).
    if !try_credit(&mut tx, tenant, pid, &id, rules).await? {
        let waiting = store::claims::pending_besides(&mut tx, pid, &id).await?;
        if waiting >= rules.claims.max_pending {
            return Err(ProfileError::Limit(format!(
                "You have {waiting} claims waiting to be checked. You can make another once one of them is matched or closed"
            )));
        }
    }
    let claim = store::claims::get(&mut tx, &id).await?;
    tx.commit().await?;
    Ok(claim)
}

/// At most `max` claims filed in any 24 hours (read under the account's lock); past it, how long
/// until the oldest of them is a day old.
async fn per_day(tx: &mut Tx<'_>, pid: &str, now: i64, max: i64) -> Result<()> {
    let (filed, oldest) = store::claims::filed_since(tx, pid, now - DAY_MS).await?;
    if filed >= max {
        let wait_ms = oldest.map_or(DAY_MS, |o| o + DAY_MS - now);
        return Err(ProfileError::TooMany(
            format!("You have made {filed} claims in the last 24 hours. Please try again later"),
            u64::try_from(wait_ms.div_euclid(1000) + 1).unwrap_or(1),
        ));
    }
    Ok(())
}

/// Credits a pending claim if the store has a matching sale not yet on anyone's account:
/// same receipt number, same local date, same amount. Returns whether it did.
async fn try_credit(tx: &mut Tx<'_>, tenant: &str, pid: &str, claim_id: &str, rules: &ProfileRules) -> Result<bool> {
    let Some(claim) = store::claims::pending(tx, pid, claim_id).await? else { return Ok(false) };
    let Some(receipt) = store::claims::unclaimed_receipt(tx, tenant, &claim.store, &claim.receipt_number).await? else {
        return Ok(false);
    };
    let (at, total) = (receipt.transacted_at, receipt.total_cents);
    let local_date = rules.zone.timestamp_opt(at, 0).single().map(|t| t.date_naive().format("%Y-%m-%d").to_string());
    if local_date.as_deref() != Some(claim.date.as_str()) || total != claim.amount_cents {
        return Ok(false);
    }
    // Take the sale for this member; if another request took it first, nothing is credited.
    if !store::claims::take_receipt(tx, &receipt.id, pid).await? {
        return Ok(false);
    }
    let points = points_for(total, rules);
    let txn_id = portal_common::new_id("txn_");
    let purchase = store::transactions::NewTransaction {
        id: &txn_id,
        at,
        store_name: &claim.store_name,
        total_cents: total,
        currency: &receipt.currency,
        receipt_number: &claim.receipt_number,
        store_handle: &claim.store,
        points,
    };
    store::transactions::insert(tx, pid, &purchase).await?;
    store::transactions::copy_receipt_items(tx, &txn_id, &receipt.id).await?;
    // The ledger posts a reference once: a claim's points are issued once.
    if points > 0 {
        let now = portal_common::now_unix();
        let credit = ledger::Credit {
            source: ledger::Source::Claim,
            reason: &claim.store_name,
            reference: &format!("claim:{claim_id}"),
            points,
            at: now,
            expires_at: rules.loyalty.expiry_for(now),
        };
        ledger::credit(tx, pid, &credit).await?;
    }
    store::claims::mark_credited(tx, claim_id, points, &txn_id, now_ms()).await?;
    Ok(true)
}

/// The member's claims, newest first, after matching the pending ones again (and rejecting
/// those whose window has long closed).
pub async fn list(db: &Db, tenant: &str, pid: &str, rules: &ProfileRules) -> Result<Vec<pb::Claim>> {
    let pending = store::claims::pending_dates(db, pid).await?;
    let today = today(rules);
    for (id, date) in pending {
        let mut tx = db.begin().await?;
        if !try_credit(&mut tx, tenant, pid, &id, rules).await? {
            let expired =
                NaiveDate::parse_from_str(&date, "%Y-%m-%d").is_ok_and(|d| (today - d).num_days() > rules.claims.window_days + GRACE_DAYS);
            if expired {
                store::claims::reject(&mut tx, &id, NOT_FOUND_MESSAGE, now_ms()).await?;
            }
        }
        tx.commit().await?;
    }
    store::claims::list(db, pid).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_exact_cents() {
        assert_eq!(amount("59.95"), Ok(5995));
        assert_eq!(amount("$59.9"), Ok(5990));
        assert_eq!(amount("120"), Ok(12000));
        assert_eq!(amount("1,200.05"), Ok(120005));
        assert_eq!(amount(".5"), Ok(50));
        // 0.1 + 0.2 style errors cannot happen: 19.99 is 1999, not 1998.9999.
        assert_eq!(amount("19.99"), Ok(1999));
        for bad in ["", "abc", "1.999", "-5", "0", "0.00", "1e3", "12.3.4", "99999999"] {
            assert!(amount(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn receipt_numbers_are_normalised() {
        assert_eq!(receipt_number(" mc01-100234 "), Ok("MC01-100234".into()));
        assert!(receipt_number("").is_err());
        assert!(receipt_number("MC01 100234").is_err());
        assert!(receipt_number(&"9".repeat(33)).is_err());
    }

    #[test]
    fn dates_are_in_the_window_and_not_in_the_future() {
        let today = NaiveDate::from_ymd_opt(2026, 11, 21).unwrap();
        assert!(purchase_date("2026-11-21", today, 30).is_ok());
        assert!(purchase_date("2026-10-22", today, 30).is_ok());
        assert_eq!(purchase_date("2026-10-21", today, 30).unwrap_err(), "Claims can be made for purchases in the last 30 days");
        assert_eq!(purchase_date("2026-11-22", today, 30).unwrap_err(), "The date can't be in the future");
        assert!(purchase_date("2026-02-30", today, 30).is_err());
        assert_eq!(purchase_date(" ", today, 30).unwrap_err(), "Required");
    }

    #[test]
    fn points_round_half_up() {
        let rules = ProfileRules::default();
        assert_eq!(points_for(5995, &rules), 60);
        assert_eq!(points_for(12990, &rules), 130);
        assert_eq!(points_for(14949, &rules), 149);
        assert_eq!(points_for(14950, &rules), 150);
    }
}
