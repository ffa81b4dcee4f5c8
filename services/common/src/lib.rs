//! What every portal service shares: layered configuration, telemetry, the error conventions
//! between gRPC and HTTP, the SQL pool (SQLite or PostgreSQL) and the KV store (in-process or
//! Redis). Each service owns its data; this crate only provides the plumbing. Features live in
//! crates of their own (tokens: portal-token; GeoIP and countries: portal-geo), so a service
//! builds only those it uses.
pub mod config;
pub mod db;
pub mod email;
pub mod error;
pub mod grpc;
pub mod identity;
pub mod kv;
pub mod lease;
pub mod metrics;
pub mod telemetry;
/// Helpers for tests only: compiled into a crate's tests through the `testing` feature
/// (`[dev-dependencies] portal-common = { workspace = true, features = ["testing"] }`), never
/// into the services.
#[cfg(any(test, feature = "testing"))]
pub mod testing;

/// Unix seconds as RFC 3339 in UTC (`2026-11-23T14:00:00Z`), the form every REST time takes;
/// empty when out of range.
pub fn rfc3339(t: i64) -> String {
    chrono::DateTime::from_timestamp(t, 0).map(|d| d.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)).unwrap_or_default()
}

/// Current time as unix seconds.
pub fn now_unix() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs() as i64).unwrap_or(0)
}

/// Whether `key` can be an `Idempotency-Key`: 1 to 255 printable ASCII characters. The gateway
/// answers a bad header; a service checks again for callers that reach it directly.
pub fn is_idempotency_key(key: &str) -> bool {
    (1..=255).contains(&key.len()) && key.bytes().all(|b| (0x21..=0x7e).contains(&b))
}

/// What `errors.idempotency_key` says when a key is missing or not [`is_idempotency_key`]: one
/// text, whether the gateway or a service refuses it.
pub const IDEMPOTENCY_KEY_PROBLEM: &str = "Send an Idempotency-Key header of 1 to 255 printable characters, new for each redemption";

/// Lowercase hex of `bytes`, e.g. of a digest.
pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A random identifier: `prefix` followed by 24 lowercase hex characters.
pub fn new_id(prefix: &str) -> String {
    use rand::Rng;
    let n: [u8; 12] = rand::thread_rng().gen();
    let mut s = String::with_capacity(prefix.len() + 24);
    s.push_str(prefix);
    for b in n {
        s.push_str(&format!("{b:02x}"));
    }
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn times_print_as_rfc3339() {
        assert_eq!(super::rfc3339(0), "1970-01-01T00:00:00Z");
        assert_eq!(super::rfc3339(1_768_435_200), "2026-01-15T00:00:00Z");
        assert_eq!(super::rfc3339(951_825_599), "2000-02-29T11:59:59Z");
    }
}
