//! Email addresses, parsed once at the edge: deeper code only ever holds a valid, normalised one.
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    /// Trims and lower-cases; refuses anything that could not be delivered to: `local@domain.tld`
    /// within 254 characters, a local part of RFC 5322 "atext" and single dots (no quoted forms),
    /// and a real domain form: at least two labels of letters, digits and inner hyphens (1 to 63
    /// each), the last (the top-level domain) of letters only, or a punycode `xn--` label. So
    /// `0@0.0`, `a@localhost` and `a@[127.0.0.1]` are refused.
    pub fn parse(raw: &str) -> Result<Email, &'static str> {
        let s = raw.trim().to_lowercase();
        if s.is_empty() {
            return Err("Enter your email address");
        }
        let ok = s.len() <= 254
            && match s.split_once('@') {
                Some((local, domain)) => local_part_ok(local) && domain_ok(domain),
                None => false,
            };
        if ok {
            Ok(Email(s))
        } else {
            Err("Enter a valid email address")
        }
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

fn local_part_ok(local: &str) -> bool {
    const SPECIAL: &str = "!#$%&'*+-/=?^_`{|}~";
    !local.is_empty()
        && local.len() <= 64
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && local.chars().all(|c| c.is_alphanumeric() || c == '.' || SPECIAL.contains(c))
}

fn domain_ok(domain: &str) -> bool {
    let labels: Vec<&str> = domain.split('.').collect();
    let label_ok = |l: &&str| {
        !l.is_empty() && l.chars().count() <= 63 && !l.starts_with('-') && !l.ends_with('-') && l.chars().all(|c| c.is_alphanumeric() || c == '-')
    };
    let tld = labels.last().copied().unwrap_or_default();
    let tld_ok = (tld.chars().count() >= 2 && tld.chars().all(char::is_alphabetic)) || (tld.starts_with("xn--") && tld.len() > 4);
    domain.len() <= 253 && labels.len() >= 2 && labels.iter().all(label_ok) && tld_ok
}

impl fmt::Display for Email {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_addresses_are_normalised() {
        assert_eq!(Email::parse("  Demo@Example.COM ").unwrap().as_str(), "demo@example.com");
    }

    #[test]
    fn real_addresses_are_accepted() {
        for good in ["dana.demo+shop@example.com.au", "o'brien@mail.example.ie", "x_y-z@sub-domain.example.co", "a@xn--bcher-kva.example", "ü@bücher.de"] {
            assert!(Email::parse(good).is_ok(), "{good:?} should be accepted");
        }
    }

    #[test]
    fn invalid_addresses_are_refused() {
        for bad in [
            "", "demo", "demo@", "@example.com", "demo@example", "de mo@example.com", "a@b@c.com", "a@.com", "a@b..com",
            // Undeliverable: a numeric "top-level domain", no domain at all, address literals,
            // quoted local parts, hyphens at a label's edge, dots at the local part's edge.
            "0@0.0", "a@localhost", "a@[127.0.0.1]", "a@127.0.0.1", "\"a b\"@example.com", "a@-example.com", "a@example-.com",
            ".a@example.com", "a.@example.com", "a..b@example.com", "a@example.c", "a@example.c0m", "a<b>@example.com",
        ] {
            assert!(Email::parse(bad).is_err(), "{bad:?} should be refused");
        }
    }
}
