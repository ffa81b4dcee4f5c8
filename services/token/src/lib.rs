//! Portal tokens: the spec's format, base64 (standard alphabet) of a JWT whose payload has `pid`
//! and `exp`, signed with Ed25519 (`EdDSA`, the only algorithm accepted: `none`, HMAC or any
//! other `alg` is refused). The header names the key (`kid`); `typ` in the payload tells a
//! one-time link token from a session token, so neither can stand in for the other.
//!
//! A crate of its own so that portal-common stays plumbing: only the services that sign or read
//! tokens (auth signs them, the gateway verifies them) build the JWT and Ed25519 code. What a
//! service answers an impersonation token (`IMPERSONATION_READ_ONLY`, `IMPERSONATION_PRIVACY`)
//! is `portal_common::identity`'s, since every service reads the caller from there.
use base64::engine::general_purpose::STANDARD;
use base64::Engine;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use ring::signature::KeyPair;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::HashMap;

pub const TYPE_SESSION: &str = "session";
pub const TYPE_LINK: &str = "link";

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Claims {
    /// Profile id (for staff: the staff user's id).
    pub pid: String,
    /// Expiry, unix seconds.
    pub exp: i64,
    /// When this token was minted, unix seconds. A renewed session's token is new: `iat` says
    /// nothing about when the member proved who they are (`auth_time` does).
    pub iat: i64,
    /// OpenID Connect's `auth_time`: when the member really signed in (link, code), unix seconds,
    /// carried unchanged across renewals. Steps that need a recent sign-in read this, never
    /// `iat`. 0 (a token from before it existed) counts as long ago.
    #[serde(default)]
    pub auth_time: i64,
    /// Unique id of this token, for single use and revocation.
    pub jti: String,
    /// `session` or `link`.
    pub typ: String,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub staff: bool,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub tenant: String,
    /// Where a link token sends the member after sign-in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redirect: Option<String>,
    /// RFC 8693 actor: the staff member acting as the member `pid` (an impersonation token).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub act: Option<Actor>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Actor {
    /// The staff user's id.
    pub sub: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The staff user's own session (its token id) that opened this view: the view lives only
    /// as long as that session does.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub sid: String,
}

impl Claims {
    pub fn is_impersonation(&self) -> bool {
        self.act.is_some()
    }
    /// A staff member's own session (not an impersonation).
    pub fn is_staff(&self) -> bool {
        self.staff && self.act.is_none()
    }
}

/// KV key (auth service scope) that says a session is live: present while it is neither signed
/// out, nor expired, nor idle for too long; its value is when it was last confirmed (unix
/// seconds, text). The auth service's `sessions` table is the record; this key is its cache,
/// written by the auth service only, so an empty KV (a restart of the in-process store) loses
/// nothing: a missing key is asked of the record again.
pub fn live_key(jti: &str) -> String {
    format!("live:{jti}")
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TokenError {
    #[error("Malformed token")]
    Malformed,
    #[error("Token signed with an unknown key")]
    UnknownKey,
    #[error("Invalid token signature")]
    Invalid,
    #[error("Token expired")]
    Expired,
    #[error("Wrong kind of token")]
    WrongType,
    #[error("Token revoked")]
    Revoked,
    /// Unused for longer than the idle timeout: over, like an expired one.
    #[error("Session idle for too long")]
    Idle,
    /// Whether the token was revoked could not be checked (the KV did not answer): refused,
    /// but as "try again shortly" (503), not as a sign-out.
    #[error("Token revocation could not be checked")]
    Unavailable,
}

/// An Ed25519 signing key with its key id.
pub struct Signer {
    pub kid: String,
    key: EncodingKey,
    public: Vec<u8>,
}

impl Signer {
    /// A new random key pair, returned with its PKCS#8 document for storage.
    pub fn generate() -> anyhow::Result<(Signer, Vec<u8>)> {
        let rng = ring::rand::SystemRandom::new();
        let pkcs8 = ring::signature::Ed25519KeyPair::generate_pkcs8(&rng).map_err(|_| anyhow::anyhow!("key generation failed"))?;
        let signer = Signer::from_pkcs8(pkcs8.as_ref())?;
        Ok((signer, pkcs8.as_ref().to_vec()))
    }

    pub fn from_pkcs8(pkcs8: &[u8]) -> anyhow::Result<Signer> {
        let pair = ring::signature::Ed25519KeyPair::from_pkcs8(pkcs8).map_err(|e| anyhow::anyhow!("bad Ed25519 key: {e}"))?;
        let public = pair.public_key().as_ref().to_vec();
        Ok(Signer { kid: key_id(&public), key: EncodingKey::from_ed_der(pkcs8), public })
    }

    pub fn public_key(&self) -> &[u8] {
        &self.public
    }

    /// Signs `claims` and wraps the JWT in base64.
    pub fn sign(&self, claims: &Claims) -> anyhow::Result<String> {
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = Some(self.kid.clone());
        let jwt = jsonwebtoken::encode(&header, claims, &self.key)?;
        Ok(STANDARD.encode(jwt))
    }
}

/// The key id of a public key: the first 16 hex characters of its SHA-256.
pub fn key_id(public: &[u8]) -> String {
    Sha256::digest(public).iter().take(8).map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 hex of a value, for storing one-time secrets hashed.
pub fn hash_hex(v: &str) -> String {
    portal_common::hex(&Sha256::digest(v.as_bytes()))
}

/// Public keys accepted for verification, by key id.
#[derive(Clone, Default)]
pub struct KeySet {
    keys: HashMap<String, DecodingKey>,
}

impl KeySet {
    pub fn new<'a>(public_keys: impl IntoIterator<Item = &'a [u8]>) -> KeySet {
        let keys = public_keys.into_iter().map(|p| (key_id(p), DecodingKey::from_ed_der(p))).collect();
        KeySet { keys }
    }

    pub fn contains(&self, kid: &str) -> bool {
        self.keys.contains_key(kid)
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Checks the signature, the algorithm, the expiry (no leeway) and the token type.
    pub fn verify(&self, token: &str, typ: &str, now: i64) -> Result<Claims, TokenError> {
        let jwt = decode_outer(token)?;
        let header = jsonwebtoken::decode_header(&jwt).map_err(|_| TokenError::Malformed)?;
        if header.alg != Algorithm::EdDSA {
            return Err(TokenError::Invalid);
        }
        let kid = header.kid.ok_or(TokenError::UnknownKey)?;
        let key = self.keys.get(&kid).ok_or(TokenError::UnknownKey)?;
        let mut v = Validation::new(Algorithm::EdDSA);
        v.leeway = 0;
        v.validate_exp = false; // checked below against `now`, so tests can move the clock
        v.required_spec_claims = ["exp".to_string()].into_iter().collect();
        let data = jsonwebtoken::decode::<Claims>(&jwt, key, &v).map_err(|e| match e.kind() {
            jsonwebtoken::errors::ErrorKind::InvalidSignature => TokenError::Invalid,
            jsonwebtoken::errors::ErrorKind::InvalidAlgorithm => TokenError::Invalid,
            _ => TokenError::Malformed,
        })?;
        let c = data.claims;
        if c.exp <= now {
            return Err(TokenError::Expired);
        }
        if c.typ != typ {
            return Err(TokenError::WrongType);
        }
        if c.pid.is_empty() {
            return Err(TokenError::Malformed);
        }
        Ok(c)
    }
}

fn decode_outer(token: &str) -> Result<String, TokenError> {
    let t = token.trim();
    if t.is_empty() || t.len() > 4096 {
        return Err(TokenError::Malformed);
    }
    let bytes = STANDARD.decode(t).map_err(|_| TokenError::Malformed)?;
    String::from_utf8(bytes).map_err(|_| TokenError::Malformed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claims(typ: &str, exp: i64) -> Claims {
        Claims {
            pid: "prf_1".into(),
            exp,
            iat: 0,
            auth_time: 0,
            jti: "j1".into(),
            typ: typ.into(),
            staff: false,
            tenant: "demo".into(),
            redirect: None,
            act: None,
        }
    }

    fn b64(s: &str) -> String {
        STANDARD.encode(s)
    }

    fn b64url(s: &[u8]) -> String {
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(s)
    }

    #[test]
    fn a_signed_token_round_trips() {
        let (s, _) = Signer::generate().unwrap();
        let ks = KeySet::new([s.public_key()]);
        let t = s.sign(&claims(TYPE_SESSION, 2000)).unwrap();
        assert_eq!(ks.verify(&t, TYPE_SESSION, 1000).unwrap().pid, "prf_1");
    }

    #[test]
    fn expiry_has_no_leeway() {
        let (s, _) = Signer::generate().unwrap();
        let ks = KeySet::new([s.public_key()]);
        let t = s.sign(&claims(TYPE_SESSION, 1000)).unwrap();
        assert_eq!(ks.verify(&t, TYPE_SESSION, 999).map(|c| c.exp), Ok(1000));
        assert_eq!(ks.verify(&t, TYPE_SESSION, 1000), Err(TokenError::Expired));
        assert_eq!(ks.verify(&t, TYPE_SESSION, 1001), Err(TokenError::Expired));
    }

    #[test]
    fn a_link_token_is_not_a_session_token() {
        let (s, _) = Signer::generate().unwrap();
        let ks = KeySet::new([s.public_key()]);
        let t = s.sign(&claims(TYPE_LINK, 2000)).unwrap();
        assert_eq!(ks.verify(&t, TYPE_SESSION, 1000), Err(TokenError::WrongType));
    }

    #[test]
    fn another_key_is_refused() {
        let (s, _) = Signer::generate().unwrap();
        let (other, _) = Signer::generate().unwrap();
        let ks = KeySet::new([other.public_key()]);
        let t = s.sign(&claims(TYPE_SESSION, 2000)).unwrap();
        assert_eq!(ks.verify(&t, TYPE_SESSION, 1000), Err(TokenError::UnknownKey));
    }

    #[test]
    fn alg_none_is_refused() {
        let (s, _) = Signer::generate().unwrap();
        let ks = KeySet::new([s.public_key()]);
        let header = format!(r#"{{"alg":"none","typ":"JWT","kid":"{}"}}"#, s.kid);
        let payload = r#"{"pid":"prf_1","exp":9999999999,"iat":0,"jti":"x","typ":"session"}"#;
        let t = b64(&format!("{}.{}.", b64url(header.as_bytes()), b64url(payload.as_bytes())));
        assert!(ks.verify(&t, TYPE_SESSION, 1000).is_err());
    }

    #[test]
    fn a_tampered_payload_fails_the_signature() {
        let (s, _) = Signer::generate().unwrap();
        let ks = KeySet::new([s.public_key()]);
        let jwt = String::from_utf8(STANDARD.decode(s.sign(&claims(TYPE_SESSION, 2000)).unwrap()).unwrap()).unwrap();
        let parts: Vec<&str> = jwt.split('.').collect();
        let forged = b64url(br#"{"pid":"prf_2","exp":2000,"iat":0,"jti":"j1","typ":"session"}"#);
        let t = b64(&format!("{}.{}.{}", parts[0], forged, parts[2]));
        assert_eq!(ks.verify(&t, TYPE_SESSION, 1000), Err(TokenError::Invalid));
    }

    #[test]
    fn garbage_is_malformed() {
        let ks = KeySet::default();
        assert_eq!(ks.verify("not base64!!", TYPE_SESSION, 0), Err(TokenError::Malformed));
        assert_eq!(ks.verify(&b64("a.b.c"), TYPE_SESSION, 0), Err(TokenError::Malformed));
        assert_eq!(ks.verify("", TYPE_SESSION, 0), Err(TokenError::Malformed));
    }
}
