//! Page cursors for the lists that grow with a member's history (the points ledger).
//! A page asked for by number is found by an offset, whose cost grows with the page; the answer
//! also carries `next_cursor`, the key of its last row, and the page after a cursor is a range
//! read of the list's index, the same cost however deep. The text is opaque to clients:
//! `<page>.<direction>.<sort key>.<tie-breaker>`.
use crate::error::ProfileError;

/// Where the next page starts: after the row with (`at`, `key`) in the list's order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cursor {
    /// The number of the page it leads to (2 for the page after the first).
    pub page: u32,
    /// Newest first, the order the cursor was given in.
    pub newest_first: bool,
    pub at: i64,
    pub key: String,
}

pub const NOT_OURS: &str = "This cursor is not one this list gave; start again from the first page";

impl Cursor {
    /// Reads `text` (empty: no cursor) for a list sorted `newest_first`; a cursor from the other
    /// order, or one not made by [`Cursor::encode`], is refused on `cursor`.
    pub fn parse(text: &str, newest_first: bool) -> Result<Option<Cursor>, ProfileError> {
        if text.is_empty() {
            return Ok(None);
        }
        let bad = || ProfileError::field("cursor", NOT_OURS);
        let mut parts = text.splitn(4, '.');
        let page: u32 = parts.next().and_then(|p| p.parse().ok()).filter(|&p| p >= 2).ok_or_else(bad)?;
        let dir = match parts.next() {
            Some("n") => true,
            Some("o") => false,
            _ => return Err(bad()),
        };
        let at: i64 = parts.next().and_then(|p| p.parse().ok()).ok_or_else(bad)?;
        let key = parts.next().filter(|k| !k.is_empty()).ok_or_else(bad)?.to_string();
        if dir != newest_first {
            return Err(bad());
        }
        Ok(Some(Cursor { page, newest_first, at, key }))
    }

    pub fn encode(&self) -> String {
        format!("{}.{}.{}.{}", self.page, if self.newest_first { "n" } else { "o" }, self.at, self.key)
    }

    /// The cursor after a page numbered `page` whose last row is (`at`, `key`), when there are
    /// rows after it: the page was full and `total` goes beyond it. Empty otherwise.
    pub fn next(page: u32, per_page: u32, rows: usize, total: u64, newest_first: bool, last: Option<(i64, String)>) -> String {
        let more = rows == per_page as usize && u64::from(page) * u64::from(per_page) < total;
        match last.filter(|_| more) {
            Some((at, key)) => Cursor { page: page + 1, newest_first, at, key }.encode(),
            None => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cursor_reads_back_as_given() {
        let c = Cursor { page: 7, newest_first: true, at: -5, key: "txn_a.b".into() };
        assert_eq!(Cursor::parse(&c.encode(), true).unwrap(), Some(c));
        assert_eq!(Cursor::parse("", false).unwrap(), None);
    }

    #[test]
    fn anything_else_is_refused_on_cursor() {
        for bad in ["x", "1.n.5.k", "2.x.5.k", "2.n.five.k", "2.n.5.", "2.n.5", "2.o.5.k"] {
            match Cursor::parse(bad, true) {
                Err(ProfileError::Fields(f)) => assert!(f.contains_key("cursor"), "{bad}: {f:?}"),
                other => panic!("{bad}: {other:?}"),
            }
        }
    }

    #[test]
    fn the_next_cursor_only_while_rows_remain() {
        let last = Some((100, "42".to_string()));
        assert_eq!(Cursor::next(1, 2, 2, 5, false, last.clone()), "2.o.100.42");
        assert_eq!(Cursor::next(2, 2, 2, 4, false, last.clone()), "", "the page reached the total");
        assert_eq!(Cursor::next(1, 2, 1, 5, false, last), "", "a short page is the last");
        assert_eq!(Cursor::next(1, 2, 2, 5, true, None), "");
    }
}
