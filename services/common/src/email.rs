//! Email addresses, parsed once at the edge: deeper code only ever holds a valid, normalised one.
use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Email(String);

impl Email {
    /// Trims and lower-cases; refuses anything that is not `local@domain.tld` within 254 chars.
    pub fn parse(raw: &str) -> Result<Email, &'static str> {
        let s = raw.trim().to_lowercase();
        if s.is_empty() {
            return Err("Enter your email address");
        }
        let ok = s.len() <= 254
            && !s.chars().any(|c| c.is_whitespace() || c.is_control())
            && match s.split_once('@') {
                Some((local, domain)) => {
                    !local.is_empty()
                        && local.len() <= 64
                        && !domain.contains('@')
                        && domain.contains('.')
                        && !domain.starts_with('.')
                        && !domain.ends_with('.')
                        && !domain.contains("..")
                }
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
    fn invalid_addresses_are_refused() {
        for bad in ["", "demo", "demo@", "@example.com", "demo@example", "de mo@example.com", "a@b@c.com", "a@.com", "a@b..com"] {
            assert!(Email::parse(bad).is_err(), "{bad:?} should be refused");
        }
    }
}
