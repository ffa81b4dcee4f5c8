//! Loyalty cards are the brand's own: a member links a card (identity `loyalty_card`) only if the
//! brand issued it (`loyalty_cards`, the card system's record; the demo tenant's cards are seeded)
//! and no other member holds it. A number has one form, in which it is compared and stored: upper
//! case, without spaces or hyphens (`lc-1001`, `LC 1001` and `LC1001` are one card).
//!
//! Linking (`store::cards`) takes the card in the profile update's transaction (`profile_id` from
//! '' to the member, one statement, so two members racing for a card can't both have it) and
//! frees the card the member held before; unlinking frees it. An unknown number, a card another
//! member holds and a blocked card get the same answer, which says nothing about any other account.

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
