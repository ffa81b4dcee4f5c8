//! Where a member may be sent after signing in.

/// A post-sign-in destination inside the portal: a path starting with one `/`. Anything else
/// (absolute URLs, `//host`, backslashes) falls back to `/home`, so links cannot redirect away.
pub fn safe_redirect(raw: &str) -> String {
    let r = raw.trim();
    if r.starts_with('/') && !r.starts_with("//") && !r.contains('\\') && !r.chars().any(char::is_control) && r.len() <= 512 {
        r.to_string()
    } else {
        "/home".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redirects_stay_inside_the_portal() {
        assert_eq!(safe_redirect("/profile?x=1"), "/profile?x=1");
        for bad in ["https://evil.example", "//evil.example", "/\\evil", "profile", ""] {
            assert_eq!(safe_redirect(bad), "/home", "{bad:?}");
        }
    }
}
