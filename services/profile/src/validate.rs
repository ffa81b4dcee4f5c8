//! Profile field rules, applied before anything is written. Each function returns the cleaned
//! value or the message shown under the field.
pub fn name(raw: &str) -> Result<String, &'static str> {
    let s = raw.trim();
    if s.is_empty() {
        return Err("Required");
    }
    if s.chars().count() > 50 {
        return Err("Use 50 characters or fewer");
    }
    if !s.chars().all(|c| c.is_alphabetic() || c == ' ' || c == '-' || c == '\'' || c == '.' || c == '’') {
        return Err("Use letters, spaces, hyphens and apostrophes only");
    }
    Ok(s.to_string())
}

/// Optional phone in international form: `+` then 8 to 15 digits (spaces allowed on input).
pub fn phone(raw: &str) -> Result<String, &'static str> {
    let s: String = raw.chars().filter(|c| !c.is_whitespace() && *c != '-' && *c != '(' && *c != ')').collect();
    if s.is_empty() {
        return Ok(s);
    }
    let digits = s.strip_prefix('+').ok_or("Use international format, e.g. +61 400 000 000")?;
    if (8..=15).contains(&digits.len()) && digits.chars().all(|c| c.is_ascii_digit()) {
        Ok(s)
    } else {
        Err("Use international format, e.g. +61 400 000 000")
    }
}

/// Optional birth date `YYYY-MM-DD`, a real date in the past, at most 120 years ago.
pub fn birth_date(raw: &str, today: (i32, u32, u32)) -> Result<String, &'static str> {
    let s = raw.trim();
    if s.is_empty() {
        return Ok(String::new());
    }
    let parts: Vec<&str> = s.split('-').collect();
    let bad = "Use a real date in the form YYYY-MM-DD";
    if parts.len() != 3 || parts[0].len() != 4 || parts[1].len() != 2 || parts[2].len() != 2 {
        return Err(bad);
    }
    let (y, m, d): (i32, u32, u32) = (parts[0].parse().map_err(|_| bad)?, parts[1].parse().map_err(|_| bad)?, parts[2].parse().map_err(|_| bad)?);
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = [31, if leap { 29 } else { 28 }, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    if !(1..=12).contains(&m) || d == 0 || d > days[(m - 1) as usize] {
        return Err(bad);
    }
    if (y, m, d) >= today {
        return Err("The date must be in the past");
    }
    if y < today.0 - 120 {
        return Err(bad);
    }
    Ok(s.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(name("  Zoë O'Brien-Smith ").unwrap(), "Zoë O'Brien-Smith");
        assert!(name("").is_err());
        assert!(name("Robert'); DROP TABLE").is_err());
        assert!(name(&"a".repeat(51)).is_err());
    }

    #[test]
    fn phones() {
        assert_eq!(phone("+61 400 000 001").unwrap(), "+61400000001");
        assert_eq!(phone("").unwrap(), "");
        assert!(phone("0400000001").is_err());
        assert!(phone("+61abc").is_err());
    }

    #[test]
    fn birth_dates() {
        let today = (2026, 11, 21);
        assert_eq!(birth_date("1990-02-28", today).unwrap(), "1990-02-28");
        assert!(birth_date("1990-02-30", today).is_err());
        assert!(birth_date("2023-02-29", today).is_err());
        assert!(birth_date("2024-02-29", today).is_ok());
        assert!(birth_date("2026-11-21", today).is_err());
        assert!(birth_date("21/11/1990", today).is_err());
        assert!(birth_date("1800-01-01", today).is_err());
    }
}
