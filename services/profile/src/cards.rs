//! Loyalty cards are the brand's own: a member links a card (identity `loyalty_card`) only if the
//! brand issued it (`loyalty_cards`, the card system's record; the demo tenant's cards are seeded)
//! and no other member holds it. A number has one form, in which it is compared and stored: upper
//! case, without spaces or hyphens (`lc-1001`, `LC 1001` and `LC1001` are one card).
//!
//! Linking takes the card in the profile update's transaction (`profile_id` from '' to the member,
//! one statement, so two members racing for a card can't both have it) and frees the card the
//! member held before; unlinking frees it. An unknown number, a card another member holds and a
//! blocked card get the same answer, which says nothing about any other account.
use crate::error::ProfileError;
use sqlx::{Any, Transaction};

type Result<T> = std::result::Result<T, ProfileError>;

/// The identity handle of a loyalty card.
pub const HANDLE: &str = "loyalty_card";

/// The one answer to a card that can't be linked, whatever the reason.
pub const CANNOT_LINK: &str = "We couldn't link this card. Check the number, or ask in store.";

/// A card number in its one form: spaces and hyphens removed, letters upper-cased; then 4 to 32
/// letters and digits. Empty stays empty (it unlinks).
pub fn normalise(raw: &str) -> std::result::Result<String, &'static str> {
    let s: String = raw.chars().filter(|c| !c.is_whitespace() && *c != '-').collect::<String>().to_uppercase();
    if s.is_empty() {
        return Ok(s);
    }
    if !(4..=32).contains(&s.len()) || !s.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err("Enter the card number as printed: letters and digits");
    }
    Ok(s)
}

/// Takes the card `number` for `pid` and frees the one they held before; `CANNOT_LINK` on the
/// identity's field when the card is not theirs to take.
pub async fn link(tx: &mut Transaction<'_, Any>, tenant: &str, pid: &str, number: &str, field: &str) -> Result<()> {
    let now = portal_common::now_unix();
    let taken = sqlx::query(
        "UPDATE loyalty_cards SET profile_id = $3, linked_at = $4
         WHERE tenant = $1 AND number = $2 AND status = 'active' AND (profile_id = '' OR profile_id = $3)",
    )
    .bind(tenant)
    .bind(number)
    .bind(pid)
    .bind(now)
    .execute(&mut **tx)
    .await?
    .rows_affected();
    if taken != 1 {
        return Err(ProfileError::field(field, CANNOT_LINK));
    }
    sqlx::query("UPDATE loyalty_cards SET profile_id = '', linked_at = $4 WHERE tenant = $1 AND profile_id = $2 AND number <> $3")
        .bind(tenant)
        .bind(pid)
        .bind(number)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// Frees every card `pid` holds.
pub async fn unlink(tx: &mut Transaction<'_, Any>, tenant: &str, pid: &str) -> Result<()> {
    sqlx::query("UPDATE loyalty_cards SET profile_id = '', linked_at = $3 WHERE tenant = $1 AND profile_id = $2")
        .bind(tenant)
        .bind(pid)
        .bind(portal_common::now_unix())
        .execute(&mut **tx)
        .await?;
    Ok(())
}

/// The demo tenant's issued cards, none linked: LC1001 to LC1005 active, LC1099 blocked (reported
/// lost). Seeded once; a later start leaves their links alone.
pub async fn seed_demo(tx: &mut Transaction<'_, Any>, tenant: &str) -> anyhow::Result<()> {
    let now = portal_common::now_unix();
    for (number, status) in [
        ("LC1001", "active"),
        ("LC1002", "active"),
        ("LC1003", "active"),
        ("LC1004", "active"),
        ("LC1005", "active"),
        ("LC1099", "blocked"),
    ] {
        sqlx::query(
            "INSERT INTO loyalty_cards (tenant, number, status, profile_id, issued_at, linked_at) VALUES ($1, $2, $3, '', $4, 0)
             ON CONFLICT (tenant, number) DO NOTHING",
        )
        .bind(tenant)
        .bind(number)
        .bind(status)
        .bind(now)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_form_per_number() {
        for typed in ["LC1001", "lc1001", " lc-1001 ", "LC 10 01", "l-c-1-0-0-1"] {
            assert_eq!(normalise(typed).as_deref(), Ok("LC1001"), "{typed:?}");
        }
        assert_eq!(normalise("  ").as_deref(), Ok(""), "empty unlinks");
        for bad in ["LC1!", "LC_1001", "ЛК1001", "A1", &"9".repeat(33)] {
            assert!(normalise(bad).is_err(), "{bad:?}");
        }
    }
}
