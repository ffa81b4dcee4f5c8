//! The member number a brand issues, shown to members and staff instead of the internal id: ten
//! digits, the tenant's two-digit prefix, a seven-digit sequence and a Luhn check digit
//! (`12 3456789 4`); members read it in groups of four (`1234 5678 94`, the front end's job). Issued once, never reused.

/// Digits before the check digit: the prefix (2) and the sequence (7).
const BODY: usize = 9;
/// How many members one tenant can number.
pub const MAX_SEQUENCE: i64 = 9_999_999;

/// The tenant's prefix, 10 to 99: the same tenant always gets the same one (FNV-1a of its name).
pub fn prefix(tenant: &str) -> u32 {
    let hash = tenant.bytes().fold(0x811c_9dc5_u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193));
    10 + hash % 90
}

/// The Luhn check digit of `digits` (ASCII digits only).
pub fn check_digit(digits: &str) -> u32 {
    let sum: u32 = digits
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, b)| {
            let d = u32::from(b - b'0');
            if i % 2 == 0 {
                let twice = d * 2;
                if twice > 9 {
                    twice - 9
                } else {
                    twice
                }
            } else {
                d
            }
        })
        .sum();
    (10 - sum % 10) % 10
}

/// The member number for the tenant's `sequence`th member (1-based), or `None` past the last.
pub fn issue(tenant: &str, sequence: i64) -> Option<String> {
    if !(1..=MAX_SEQUENCE).contains(&sequence) {
        return None;
    }
    let body = format!("{:02}{:07}", prefix(tenant), sequence);
    debug_assert_eq!(body.len(), BODY);
    let number = format!("{body}{}", check_digit(&body));
    debug_assert!(is_valid(&number));
    Some(number)
}

/// True for ten digits whose last is the Luhn check digit of the others.
pub fn is_valid(number: &str) -> bool {
    number.len() == BODY + 1
        && number.bytes().all(|b| b.is_ascii_digit())
        && check_digit(&number[..BODY]) == u32::from(number.as_bytes()[BODY] - b'0')
}

/// The digits a staff user typed (spaces and dashes as on the card ignored), if there are any.
pub fn digits_of(query: &str) -> Option<String> {
    let d: String = query.chars().filter(char::is_ascii_digit).collect();
    let only_digits = query.chars().all(|c| c.is_ascii_digit() || c == ' ' || c == '-');
    (only_digits && !d.is_empty()).then_some(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_check_digit_is_luhns() {
        // Luhn's own example: 7992739871 has check digit 3.
        assert_eq!(check_digit("7992739871"), 3);
        assert!(is_valid(&issue("demo", 1).unwrap()));
        assert_eq!(check_digit("000000000"), 0);
    }

    #[test]
    fn a_number_is_ten_digits_with_the_tenants_prefix() {
        let n = issue("demo", 42).unwrap();
        assert_eq!(n.len(), 10);
        assert!(n.starts_with(&prefix("demo").to_string()));
        assert_eq!(&n[2..9], "0000042");
        assert_eq!(issue("demo", 42), issue("demo", 42), "the same every time");
        assert!((10..=99).contains(&prefix("another-brand")));
        assert_eq!(issue("demo", 0), None);
        assert_eq!(issue("demo", MAX_SEQUENCE + 1), None);
        assert!(issue("demo", MAX_SEQUENCE).is_some());
    }

    #[test]
    fn a_mistyped_number_is_invalid() {
        let n = issue("demo", 7).unwrap();
        assert!(is_valid(&n));
        // Any one digit changed is caught.
        for i in 0..n.len() {
            let mut b = n.clone().into_bytes();
            b[i] = if b[i] == b'9' { b'0' } else { b[i] + 1 };
            assert!(!is_valid(&String::from_utf8(b).unwrap()), "digit {i} changed");
        }
        assert!(!is_valid("799273987"), "too short");
        assert!(!is_valid("79927398713"), "too long");
        assert!(!is_valid("79927a9871"), "not digits");
        let wrong_check = format!("{}{}", &n[..9], (check_digit(&n[..9]) + 1) % 10);
        assert!(!is_valid(&wrong_check), "wrong check digit");
    }

    #[test]
    fn staff_type_digits_with_or_without_spaces() {
        assert_eq!(digits_of("1234 5678").as_deref(), Some("12345678"));
        assert_eq!(digits_of("12-34").as_deref(), Some("1234"));
        assert_eq!(digits_of("Dana"), None);
        assert_eq!(digits_of("  "), None);
    }
}
