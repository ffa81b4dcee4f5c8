//! Tiers. A member's tier is the highest whose threshold their qualifying total reaches: points
//! earned (spending and expiry do not lower it) or money spent, over the last `windowDays`. It is
//! worked out from the ledger and purchases whenever asked, so it cannot drift; the profile's
//! `tier_handle` is brought in line when a credit or the tier's end asks for a review.
use super::rules::{LoyaltyRules, Measure, TierLevel};
use super::DAY;
use crate::error::ProfileError;
use crate::store;
use portal_common::db::Db;

pub use store::tiers::due_for_review;

type Result<T> = std::result::Result<T, ProfileError>;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    pub current: usize,
    pub next: Option<usize>,
    pub qualifying: i64,
    /// How much more reaches `next`; 0 at the top.
    pub needed: i64,
    pub progress_percent: i64,
    /// When the current tier is lost if nothing more counts towards it; None for the lowest.
    pub kept_until: Option<i64>,
}

/// The tier status from the qualifying amounts in the window, `(amount, at)` in any order.
/// `levels` is not empty and rises from 0 (checked when the rules are read).
pub fn status(levels: &[TierLevel], window_days: i64, counted: &[(i64, i64)], now: i64) -> Status {
    let window = window_days * DAY;
    let mut inside: Vec<(i64, i64)> = counted.iter().copied().filter(|&(_, at)| at > now - window && at <= now).collect();
    inside.sort_by_key(|&(_, at)| at);
    let qualifying: i64 = inside.iter().map(|(a, _)| a).sum();
    let current = levels.iter().rposition(|l| l.threshold <= qualifying).unwrap_or(0);
    let next = (current + 1 < levels.len()).then_some(current + 1);
    let (needed, progress_percent) = match next {
        None => (0, 100),
        Some(n) => {
            let (from, to) = (levels[current].threshold, levels[n].threshold);
            ((to - qualifying).max(0), ((qualifying - from).max(0) * 100 / (to - from)).clamp(0, 100))
        }
    };
    // Entries leave the window oldest first; the tier is kept until the one whose leaving takes
    // the total below the current threshold.
    let threshold = levels[current].threshold;
    let kept_until = (threshold > 0)
        .then(|| {
            let mut total = qualifying;
            inside.iter().find_map(|&(amount, at)| {
                total -= amount;
                (total < threshold).then_some(at + window)
            })
        })
        .flatten();
    Status { current, next, qualifying, needed, progress_percent, kept_until }
}

/// What counts towards the member's tier in the window ending `now`: `(amount, at)`.
pub async fn counted(db: &Db, pid: &str, rules: &LoyaltyRules, now: i64) -> Result<Vec<(i64, i64)>> {
    let since = now - rules.tiers.window_days * DAY;
    let what = match rules.tiers.measure {
        Measure::Points => store::tiers::Counted::Earned,
        Measure::Spend => store::tiers::Counted::Spent,
    };
    store::tiers::counted(db, pid, what, since, now).await
}

/// The member's tier status now, or None when the tenant has no tiers.
pub async fn member_status(db: &Db, pid: &str, rules: &LoyaltyRules, now: i64) -> Result<Option<Status>> {
    if rules.tiers.levels.is_empty() {
        return Ok(None);
    }
    let counted = counted(db, pid, rules, now).await?;
    Ok(Some(status(&rules.tiers.levels, rules.tiers.window_days, &counted, now)))
}

/// Brings the profile's stored `tier_handle` in line with `st` and schedules the next review (when
/// the tier would end). Returns whether the stored tier changed (the profile cache is then stale).
pub async fn record(db: &Db, pid: &str, rules: &LoyaltyRules, st: &Status) -> Result<bool> {
    store::tiers::record(db, pid, &rules.tiers.levels[st.current].handle, st.kept_until).await
}

/// Whether the profile's stored tier differs from `st`, or the member's review is due: only then
/// is there anything for `record` to write (a read of the tier stays a read otherwise).
pub async fn needs_recording(db: &Db, pid: &str, rules: &LoyaltyRules, st: &Status, now: i64) -> Result<bool> {
    let recorded = store::tiers::recorded(db, pid).await?;
    Ok(recorded.is_some_and(|(handle, review_at)| handle != rules.tiers.levels[st.current].handle || review_at.is_some_and(|at| at <= now)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn levels() -> Vec<TierLevel> {
        [("silver", 0), ("gold", 2000), ("platinum", 5000)]
            .into_iter()
            .map(|(h, t)| TierLevel { handle: h.into(), name: h.into(), threshold: t })
            .collect()
    }

    const NOW: i64 = 1_800_000_000;

    #[test]
    fn the_demo_member_is_gold_until_the_oldest_qualifying_points_leave_the_window() {
        let counted = [(1200, NOW - 340 * DAY), (1500, NOW - 120 * DAY), (70, NOW - 31 * DAY), (149, NOW - 9 * DAY), (130, NOW - 2 * DAY)];
        let s = status(&levels(), 365, &counted, NOW);
        assert_eq!((s.current, s.next, s.qualifying, s.needed), (1, Some(2), 3049, 1951));
        assert_eq!(s.progress_percent, 34, "(3049 - 2000) * 100 / 3000");
        // Without the 1,200 from 340 days ago the total is 1,849 < 2,000: gold ends when it leaves.
        assert_eq!(s.kept_until, Some(NOW - 340 * DAY + 365 * DAY));
    }

    #[test]
    fn outside_the_window_does_not_count() {
        let s = status(&levels(), 365, &[(9000, NOW - 366 * DAY), (100, NOW - DAY), (50, NOW + DAY)], NOW);
        assert_eq!((s.current, s.qualifying, s.needed, s.progress_percent, s.kept_until), (0, 100, 1900, 5, None));
    }

    #[test]
    fn the_top_tier_has_nothing_next() {
        let s = status(&levels(), 365, &[(3000, NOW - 10 * DAY), (3000, NOW - 5 * DAY)], NOW);
        assert_eq!((s.current, s.next, s.needed, s.progress_percent), (2, None, 0, 100));
        // Dropping the older 3,000 leaves 3,000 < 5,000.
        assert_eq!(s.kept_until, Some(NOW - 10 * DAY + 365 * DAY));
    }

    #[test]
    fn refunds_in_the_window_are_accounted_for() {
        // Spend: a purchase, then a refund of most of it; the refund leaving the window later does
        // not end the tier early.
        let s = status(&levels(), 365, &[(6000, NOW - 100 * DAY), (-500, NOW - 50 * DAY), (600, NOW - 10 * DAY)], NOW);
        assert_eq!((s.current, s.qualifying), (2, 6100));
        assert_eq!(s.kept_until, Some(NOW - 100 * DAY + 365 * DAY));
        let exact = status(&levels(), 365, &[(2000, NOW - 10 * DAY)], NOW);
        assert_eq!((exact.current, exact.progress_percent), (1, 0), "the threshold itself reaches the tier");
    }
}
