//! Email addresses, parsed once at the edge: deeper code only ever holds a valid, normalised one.
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(String);

/// The addresses `Email::parse` takes, as a JSON-schema pattern (the gateway's `EmailAddress`
/// schema): RFC 5322 "atext" and single dots before the `@`; labels of letters, digits and inner
/// hyphens after it, the last (the top-level domain) of letters only or a punycode `xn--` label.
/// With a length of at most 254 characters.
pub const PATTERN: &str = r"^[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+(?:\.[\p{L}\p{N}!#$%&'*+/=?^_`{|}~-]+)*@(?:[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,61}[\p{L}\p{N}])?\.)+(?:\p{L}{2,63}|[xX][nN]--(?:[\p{L}\p{N}-]{0,58}[\p{L}\p{N}]))$";

impl Email {
    /// Trims and lower-cases; refuses anything that could not be delivered to (`PATTERN`, at most
    /// 254 characters): so `0@0.0`, `a@localhost`, `a@[127.0.0.1]` and quoted local parts are
    /// refused. The checks read the address as sent, the lower-cased form is what is kept.
    pub fn parse(raw: &str) -> Result<Email, &'static str> {
        let s = raw.trim();
        if s.is_empty() {
            return Err("Enter your email address");
        }
        let ok = s.chars().count() <= 254
            && match s.split_once('@') {
                Some((local, domain)) => local_part_ok(local) && domain_ok(domain),
                None => false,
            };
        if ok {
            Ok(Email(s.to_lowercase()))
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
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && local.chars().all(|c| c.is_alphanumeric() || c == '.' || SPECIAL.contains(c))
}

fn domain_ok(domain: &str) -> bool {
    let labels: Vec<&str> = domain.split('.').collect();
    let label_ok = |l: &&str| {
        !l.is_empty()
            && l.chars().count() <= 63
            && !l.starts_with('-')
            && !l.ends_with('-')
            && l.chars().all(|c| c.is_alphanumeric() || c == '-')
    };
    let tld = labels.last().copied().unwrap_or_default();
    let tld_ok = (tld.chars().count() >= 2 && tld.chars().all(char::is_alphabetic))
        || (tld.to_ascii_lowercase().starts_with("xn--") && tld.len() > 4);
    labels.len() >= 2 && labels.iter().all(label_ok) && tld_ok
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
    fn edges_of_the_pattern() {
        // The gateway's schema pattern is held to the parser by the contract test (tools/contract.sh).
        for (addr, ok) in [
            ("a@b.co", true),
            ("a.b+c@d-e.example.com", true),
            ("0@0.0", false),
            ("a@b.c", false),
            ("a..b@c.com", false),
            ("a@-b.com", false),
            ("a@xn--p1ai", false),
            ("a@b.xn--p1ai", true),
            ("A@B.CO", true),
        ] {
            assert_eq!(Email::parse(addr).is_ok(), ok, "{addr}");
        }
    }

    #[test]
    fn real_addresses_are_accepted() {
        for good in [
            "dana.demo+shop@example.com.au",
            "o'brien@mail.example.ie",
            "x_y-z@sub-domain.example.co",
            "a@xn--bcher-kva.example",
            "ü@bücher.de",
        ] {
            assert!(Email::parse(good).is_ok(), "{good:?} should be accepted");
        }
    }

    #[test]
    fn invalid_addresses_are_refused() {
        for bad in [
            "",
            "demo",
            "demo@",
            "@example.com",
            "demo@example",
            "de mo@example.com",
            "a@b@c.com",
            "a@.com",
            "a@b..com",
            // Undeliverable: a numeric "top-level domain", no domain at all, address literals,
            // quoted local parts, hyphens at a label's edge, dots at the local part's edge.
            "0@0.0",
            "a@localhost",
            "a@[127.0.0.1]",
            "a@127.0.0.1",
            "\"a b\"@example.com",
            "a@-example.com",
            "a@example-.com",
            ".a@example.com",
            "a.@example.com",
            "a..b@example.com",
            "a@example.c",
            "a@example.c0m",
            "a<b>@example.com",
        ] {
            assert!(Email::parse(bad).is_err(), "{bad:?} should be refused");
        }
    }
}
