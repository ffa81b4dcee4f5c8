//! Where an emailed sign-in link points. By default the portal's own `/`; a request may name
//! another page (`urlPath`, with `urlParams`) — for a portal embedded in a partner page
//! (`iFrame`) that page must be the partner's — and an `externalRedirect` to follow after
//! sign-in. Anything outside the portal must be on an origin the tenant allows.
use std::collections::BTreeMap;
use url::Url;

pub struct LinkOptions<'a> {
    pub url_path: &'a str,
    pub url_params: &'a str,
    pub iframe: bool,
    pub external_redirect: &'a str,
}

#[derive(Debug, Clone)]
pub struct LinkTarget {
    base: Url,
    params: Vec<(String, String)>,
    external_redirect: Option<String>,
}

/// Query keys the portal sets itself; a request cannot override them through `urlParams`.
const RESERVED: &[&str] = &["token", "redirect", "externalRedirect"];

/// `a=1&b=2` (a leading `?` allowed), at most 20 pairs, without the portal's own keys.
fn parse_params(raw: &str) -> Vec<(String, String)> {
    url::form_urlencoded::parse(raw.trim().trim_start_matches('?').as_bytes())
        .filter(|(k, _)| !k.is_empty() && !RESERVED.contains(&k.as_ref()))
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .take(20)
        .collect()
}

fn origin_allowed(url: &Url, public: &Url, allowed: &[String]) -> bool {
    if !matches!(url.scheme(), "https" | "http") || url.host_str().is_none() {
        return false;
    }
    let origin = url.origin().ascii_serialization();
    origin == public.origin().ascii_serialization()
        || allowed.iter().any(|a| Url::parse(a).map(|a| a.origin().ascii_serialization() == origin).unwrap_or(false))
}

impl LinkTarget {
    /// The portal's own landing page.
    pub fn portal(public: &Url) -> LinkTarget {
        let mut base = public.clone();
        base.set_path("/");
        base.set_query(None);
        LinkTarget { base, params: Vec::new(), external_redirect: None }
    }

    /// The portal's landing page with extra query parameters.
    pub fn with_params(mut self, url_params: &str) -> LinkTarget {
        self.params = parse_params(url_params);
        self
    }

    /// Checks the options against the allowed origins; problems come back by field name.
    pub fn parse(public: &Url, allowed: &[String], o: &LinkOptions<'_>) -> Result<LinkTarget, BTreeMap<String, String>> {
        let mut errors = BTreeMap::new();
        let mut target = LinkTarget::portal(public);
        let path = o.url_path.trim();
        if path.starts_with('/') && !path.starts_with("//") && !path.contains('\\') {
            if o.iframe {
                errors.insert("urlPath".into(), "An embedded sign-in needs the address of the page that embeds the portal".into());
            } else {
                target.base.set_path(path.split(['?', '#']).next().unwrap_or("/"));
            }
        } else if !path.is_empty() {
            match Url::parse(path) {
                Ok(u) if origin_allowed(&u, public, allowed) => {
                    let mut u = u;
                    u.set_fragment(None);
                    target.base = u;
                }
                _ => {
                    errors.insert("urlPath".into(), "This address is not allowed".into());
                }
            }
        } else if o.iframe {
            errors.insert("urlPath".into(), "An embedded sign-in needs the address of the page that embeds the portal".into());
        }
        target.params = parse_params(o.url_params);
        let ext = o.external_redirect.trim();
        if !ext.is_empty() {
            match Url::parse(ext) {
                Ok(u) if origin_allowed(&u, public, allowed) => target.external_redirect = Some(u.to_string()),
                _ => {
                    errors.insert("externalRedirect".into(), "This address is not allowed".into());
                }
            }
        }
        if errors.is_empty() {
            Ok(target)
        } else {
            Err(errors)
        }
    }

    /// The link: the target page with its parameters, then the token and where to go.
    pub fn url(&self, token: &str, redirect: &str) -> String {
        let mut u = self.base.clone();
        {
            let mut q = u.query_pairs_mut();
            for (k, v) in &self.params {
                q.append_pair(k, v);
            }
            q.append_pair("token", token).append_pair("redirect", redirect);
            if let Some(e) = &self.external_redirect {
                q.append_pair("externalRedirect", e);
            }
        }
        u.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn public() -> Url {
        Url::parse("http://localhost:8080").unwrap()
    }
    fn allowed() -> Vec<String> {
        vec!["https://partner.example".into()]
    }
    fn opts<'a>(url_path: &'a str, url_params: &'a str, iframe: bool, external_redirect: &'a str) -> LinkOptions<'a> {
        LinkOptions { url_path, url_params, iframe, external_redirect }
    }

    #[test]
    fn by_default_the_link_opens_the_portal() {
        let t = LinkTarget::parse(&public(), &allowed(), &opts("", "", false, "")).unwrap();
        assert_eq!(t.url("T+/=", "/profile"), "http://localhost:8080/?token=T%2B%2F%3D&redirect=%2Fprofile");
    }

    #[test]
    fn a_partner_page_on_an_allowed_origin_with_params() {
        let t = LinkTarget::parse(&public(), &allowed(), &opts("https://partner.example/members?x=1", "utm=mail&token=evil", true, ""))
            .unwrap();
        assert_eq!(t.url("T", "/home"), "https://partner.example/members?x=1&utm=mail&token=T&redirect=%2Fhome");
    }

    #[test]
    fn a_portal_path() {
        let t = LinkTarget::parse(&public(), &allowed(), &opts("/loc/melbourne-central?q=1", "", false, "")).unwrap();
        assert_eq!(t.url("T", "/home"), "http://localhost:8080/loc/melbourne-central?token=T&redirect=%2Fhome");
    }

    #[test]
    fn external_redirects_are_carried_when_allowed() {
        let t = LinkTarget::parse(&public(), &allowed(), &opts("", "", false, "https://partner.example/thanks")).unwrap();
        assert!(t.url("T", "/home").ends_with("&externalRedirect=https%3A%2F%2Fpartner.example%2Fthanks"));
    }

    #[test]
    fn other_origins_and_schemes_are_refused() {
        for (path, ext) in [
            ("https://evil.example/", ""),
            ("//evil.example/x", ""),
            ("javascript:alert(1)", ""),
            ("", "https://evil.example/"),
            ("", "https://partner.example.evil.example/"),
            ("", "data:text/html,hi"),
        ] {
            assert!(LinkTarget::parse(&public(), &allowed(), &opts(path, "", false, ext)).is_err(), "{path} {ext}");
        }
    }

    #[test]
    fn an_embedded_sign_in_needs_the_embedding_page() {
        let e = LinkTarget::parse(&public(), &allowed(), &opts("", "", true, "")).unwrap_err();
        assert!(e.contains_key("urlPath"));
        assert!(LinkTarget::parse(&public(), &allowed(), &opts("/profile", "", true, "")).is_err());
    }
}
