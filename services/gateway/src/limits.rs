//! What one request may carry, checked once for every route before anything else runs (no
//! service is called for a refused request):
//! - its body must arrive within `server.body_timeout_ms` of its headers (else 408, and the
//!   connection is closed) and hold at most [`MAX_BODY_BYTES`] (else 413);
//! - a JSON body may hold at most [`MAX_JSON_ELEMENTS`] object keys and array items in all, nested
//!   at most [`MAX_JSON_DEPTH`] deep (else 413). No call of the API needs more, and a request with
//!   thousands of keys would otherwise travel to a service and come back as thousands of errors.
//!
//! A body that is not JSON, or not valid JSON, passes: the route's own extractor refuses it.
use crate::error::ApiError;
use crate::state::AppState;
use axum::body::{Body, HttpBody};
use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use std::cell::Cell;
use std::time::Duration;

/// The largest body the gateway reads (axum's own default for JSON).
pub const MAX_BODY_BYTES: usize = 2 * 1024 * 1024;
/// Object keys and array items, counted across the whole document.
pub const MAX_JSON_ELEMENTS: usize = 256;
/// Objects and arrays inside one another; the top level is depth 1.
pub const MAX_JSON_DEPTH: usize = 16;

/// The problem told in `errors.body` when the shape is refused.
pub const TOO_MANY: &str = "At most 256 keys and items in all, nested at most 16 deep";

/// Reads the body under the deadline and the size limit, checks a JSON body's shape, and hands
/// the route the bytes it read.
pub async fn request_body(State(s): State<AppState>, req: Request, next: Next) -> Response {
    if req.body().size_hint().exact() == Some(0) {
        return next.run(req).await;
    }
    let (parts, body) = req.into_parts();
    let deadline = Duration::from_millis(s.settings.server.body_timeout_ms);
    let bytes = match tokio::time::timeout(deadline, http_body_util::Limited::new(body, MAX_BODY_BYTES).collect()).await {
        Err(_) => {
            // The rest of a slow body would still be on the connection: close it.
            let mut res = ApiError::field(
                StatusCode::REQUEST_TIMEOUT,
                "The request body took too long to arrive",
                "body",
                "Send the whole body at once",
            )
            .into_response();
            res.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
            return res;
        }
        Ok(Err(e)) if e.is::<http_body_util::LengthLimitError>() => {
            let mut res =
                ApiError::field(StatusCode::PAYLOAD_TOO_LARGE, "The request body is too large", "body", "At most 2 MiB").into_response();
            res.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
            return res;
        }
        // The client went away mid-body: nobody reads this answer.
        Ok(Err(_)) => {
            return ApiError::field(StatusCode::BAD_REQUEST, "The request body could not be read", "body", "Incomplete").into_response()
        }
        Ok(Ok(collected)) => collected.to_bytes(),
    };
    if is_json(&parts.headers) && json_shape(&bytes) == Shape::TooLarge {
        return ApiError::field(StatusCode::PAYLOAD_TOO_LARGE, "The request body has too many fields", "body", TOO_MANY).into_response();
    }
    next.run(Request::from_parts(parts, Body::from(bytes))).await
}

fn is_json(h: &HeaderMap) -> bool {
    h.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| {
        let mime = v.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
        mime == "application/json" || mime.ends_with("+json")
    })
}

#[derive(Debug, PartialEq, Eq)]
pub enum Shape {
    Fits,
    TooLarge,
    /// Not JSON: for the route to refuse.
    Invalid,
}

/// Walks the document without building it, stopping at the first element over a limit.
pub fn json_shape(bytes: &[u8]) -> Shape {
    let count = Cell::new(0usize);
    let over = Cell::new(false);
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let walked = Walk { depth: 0, count: &count, over: &over }.deserialize(&mut de).and_then(|()| de.end());
    match walked {
        _ if over.get() => Shape::TooLarge,
        Ok(()) => Shape::Fits,
        Err(_) => Shape::Invalid,
    }
}

struct Walk<'a> {
    depth: usize,
    count: &'a Cell<usize>,
    over: &'a Cell<bool>,
}

impl<'a> Walk<'a> {
    fn inner(&self) -> Walk<'a> {
        Walk { depth: self.depth + 1, count: self.count, over: self.over }
    }

    /// Counts one more element; an error (which ends the walk) past the limit.
    fn one_more<E: serde::de::Error>(&self) -> Result<(), E> {
        self.count.set(self.count.get() + 1);
        if self.count.get() > MAX_JSON_ELEMENTS {
            self.over.set(true);
            return Err(E::custom("too many elements"));
        }
        Ok(())
    }

    fn enter<E: serde::de::Error>(&self) -> Result<(), E> {
        if self.depth + 1 > MAX_JSON_DEPTH {
            self.over.set(true);
            return Err(E::custom("nested too deep"));
        }
        Ok(())
    }
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.enter()?;
        while map.next_key::<IgnoredAny>()?.is_some() {
            self.one_more()?;
            map.next_value_seed(self.inner())?;
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.enter()?;
        while seq.next_element_seed(self.inner())?.is_some() {
            self.one_more()?;
        }
        Ok(())
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn body_of(v: &serde_json::Value) -> Vec<u8> {
        v.to_string().into_bytes()
    }

    #[test]
    fn counts_keys_and_items_across_the_document() {
        let keys = |n: usize| serde_json::Value::Object((0..n).map(|i| (format!("k{i}"), json!(true))).collect());
        assert_eq!(json_shape(&body_of(&keys(MAX_JSON_ELEMENTS))), Shape::Fits);
        assert_eq!(json_shape(&body_of(&keys(MAX_JSON_ELEMENTS + 1))), Shape::TooLarge);
        assert_eq!(json_shape(&body_of(&keys(2000))), Shape::TooLarge);
        // 1,000 identities of two keys each: items and keys both count.
        let ids: Vec<_> = (0..1000).map(|i| json!({"handle": "loyalty_card", "identifier": format!("LC{i}")})).collect();
        assert_eq!(json_shape(&body_of(&json!({"identities": ids}))), Shape::TooLarge);
        let few: Vec<_> = (0..50).map(|i| json!({"handle": "h", "identifier": i})).collect();
        assert_eq!(json_shape(&body_of(&json!({"identities": few}))), Shape::Fits, "1 + 50 + 100 elements");
        assert_eq!(json_shape(&body_of(&json!(vec![0; MAX_JSON_ELEMENTS + 1]))), Shape::TooLarge);
    }

    #[test]
    fn limits_nesting() {
        let nest = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert_eq!(json_shape(nest(MAX_JSON_DEPTH).as_bytes()), Shape::Fits);
        assert_eq!(json_shape(nest(MAX_JSON_DEPTH + 1).as_bytes()), Shape::TooLarge);
        // Deeper than serde_json itself would go: still told as too deep, not as invalid.
        assert_eq!(json_shape(nest(10_000).as_bytes()), Shape::TooLarge);
    }

    #[test]
    fn leaves_what_is_not_json_to_the_route() {
        assert_eq!(json_shape(b"{\"a\": "), Shape::Invalid);
        assert_eq!(json_shape(b"{} {}"), Shape::Invalid);
        assert_eq!(json_shape(b"\"just a string\""), Shape::Fits);
    }
}
