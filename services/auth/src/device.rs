//! What a session's User-Agent says, as a member reads it: a browser with its major version
//! ("Chrome 131"), an operating system ("Android 14") and a kind of device (mobile, tablet or
//! desktop). Parsed once at sign-in with woothee; anything it cannot tell stays empty. Sessions
//! of one device share a `key`: browser, system and kind without their versions, so an update
//! does not make a second device.
use woothee::parser::Parser;

const UNKNOWN: &str = "UNKNOWN";
/// Longer User-Agents are cut before parsing (no real one comes close).
const MAX_LEN: usize = 512;

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Device {
    pub browser: String,
    pub os: String,
    /// `mobile`, `tablet`, `desktop` or empty.
    pub kind: String,
}

fn known(s: &str) -> Option<&str> {
    Some(s.trim()).filter(|s| !s.is_empty() && *s != UNKNOWN)
}

pub fn parse(user_agent: &str) -> Device {
    let ua: String = user_agent.chars().take(MAX_LEN).collect();
    let Some(r) = Parser::new().parse(&ua) else { return Device::default() };
    if r.category == "crawler" {
        return Device::default();
    }
    let browser = match (known(r.name), known(r.version).and_then(|v| v.split('.').next())) {
        (Some(name), Some(major)) => format!("{name} {major}"),
        (Some(name), None) => name.to_string(),
        _ => String::new(),
    };
    let os_version = known(&r.os_version).filter(|v| v.starts_with(|c: char| c.is_ascii_digit())).map(|v| v.replace('_', "."));
    let os = match known(r.os) {
        // Browsers on a Mac all report 10.15.7, whatever the version: it says nothing.
        Some("Mac OSX") => "macOS".to_string(),
        Some(name @ ("iPhone" | "iPod" | "iPad")) => {
            let name = if name == "iPad" { "iPadOS" } else { "iOS" };
            os_version.map_or_else(|| name.to_string(), |v| format!("{name} {v}"))
        }
        // "Windows 10" already names the version; the NT number would only confuse.
        Some(name) if name.starts_with("Windows") => name.to_string(),
        Some(name) => os_version.map_or_else(|| name.to_string(), |v| format!("{name} {v}")),
        None => String::new(),
    };
    let kind = match r.category {
        "pc" => "desktop",
        "smartphone" if r.os == "iPad" || (r.os == "Android" && !ua.contains("Mobile")) => "tablet",
        "smartphone" | "mobilephone" => "mobile",
        _ => "",
    };
    Device { browser, os, kind: kind.to_string() }
}

/// A name without its trailing version: "Chrome 131" → "Chrome", "iOS 17.5" → "iOS".
fn family(s: &str) -> &str {
    s.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.').trim_end()
}

/// The device a session belongs to, from what `parse` read at sign-in: 16 hex digits.
pub fn key(browser: &str, os: &str, kind: &str) -> String {
    let hash = portal_token::hash_hex(&format!("{}|{}|{kind}", family(browser), family(os)));
    hash.chars().take(16).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(browser: &str, os: &str, kind: &str) -> Device {
        Device { browser: browser.into(), os: os.into(), kind: kind.into() }
    }

    #[test]
    fn common_devices_read_as_a_member_would_say_them() {
        let android =
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.39 Mobile Safari/537.36";
        assert_eq!(parse(android), d("Chrome 131", "Android 14", "mobile"));
        let tablet = "Mozilla/5.0 (Linux; Android 13; SM-X700) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";
        assert_eq!(parse(tablet).kind, "tablet");
        let iphone = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";
        assert_eq!(parse(iphone), d("Safari 17", "iOS 17.5", "mobile"));
        let windows = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:132.0) Gecko/20100101 Firefox/132.0";
        assert_eq!(parse(windows), d("Firefox 132", "Windows 10", "desktop"));
        let mac = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
        assert_eq!(parse(mac), d("Chrome 131", "macOS", "desktop"));
    }

    #[test]
    fn a_device_keeps_its_key_across_versions() {
        assert_eq!(key("Chrome 131", "Android 14", "mobile"), key("Chrome 132", "Android 15", "mobile"));
        assert_eq!(key("Safari 17", "iOS 17.5", "mobile"), key("Safari 18", "iOS 18", "mobile"));
        assert_ne!(key("Chrome 131", "Android 14", "mobile"), key("Chrome 131", "Android 14", "tablet"));
        assert_ne!(key("Chrome 131", "macOS", "desktop"), key("Firefox 131", "macOS", "desktop"));
        assert_eq!(key("", "", "").len(), 16);
    }

    #[test]
    fn what_cannot_be_told_stays_empty() {
        assert_eq!(parse(""), Device::default());
        assert_eq!(parse("curl/8.5.0").kind, "");
        assert_eq!(parse("Googlebot/2.1 (+http://www.google.com/bot.html)"), Device::default());
        assert_eq!(parse(&"x".repeat(100_000)), Device::default());
    }
}
