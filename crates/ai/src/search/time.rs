//! The time manager: soft and hard time bounds of a search from its limits.

use super::*;

/// Time bounds (soft: do not start another iteration; hard: abort) from the limits.
pub(super) fn time_bounds(limits: &Limits) -> (Option<Duration>, Option<Duration>) {
    if limits.infinite {
        return (None, None);
    }
    let mut soft: Option<u64> = None;
    let mut hard: Option<u64> = None;
    if let Some(ms) = limits.movetime_ms {
        let h = ms.saturating_sub((ms / 20).min(10)).max(1);
        soft = Some(h);
        hard = Some(h);
    }
    if let Some(c) = limits.clock {
        // Keep 50 ms + 5% for process, I/O and scheduling latency; plan for about 25 more moves.
        let usable = c.remaining_ms.saturating_sub(50 + c.remaining_ms / 20);
        let s = (usable / 25 + c.increment_ms * 2 / 3).min(usable / 2);
        let h = (s * 3).min(usable / 4).max(1);
        let s = s.min(h);
        soft = Some(soft.map_or(s, |x| x.min(s)));
        hard = Some(hard.map_or(h, |x| x.min(h)));
    }
    (
        soft.map(Duration::from_millis),
        hard.map(Duration::from_millis),
    )
}
