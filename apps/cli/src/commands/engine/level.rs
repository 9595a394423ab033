//! The `level` command of the Hub protocol (docs/protocol.md): each line sets the limits it names,
//! `pos` and every `go` clear them (as Scan 3.1 does), times in seconds.

use crown_ai::{Clock, Limits};

/// Scan's game time when `level` names `inc` or `moves` but no `time`: 30 seconds.
const DEFAULT_GAME_TIME_MS: u64 = 30_000;

/// The limits named by the `level` lines since the last `pos` or `go`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Level {
    /// `depth=PLIES`.
    depth: Option<u32>,
    /// `nodes=N`.
    nodes: Option<u64>,
    /// `move-time=SECONDS`, in ms.
    movetime_ms: Option<u64>,
    /// `time=SECONDS`, in ms: the side to move's time before the increment of this move is added.
    time_ms: Option<u64>,
    /// `inc=SECONDS`, in ms.
    inc_ms: Option<u64>,
    /// `moves=N`: moves to play in the time left (0: the whole game).
    moves: Option<u64>,
    /// `infinite`: search until `stop`.
    infinite: bool,
}

/// Seconds (`0.5`, `30`) as whole milliseconds, for a finite value from 0 to 10⁹ seconds.
fn seconds_ms(v: &str) -> Option<u64> {
    let s: f64 = v.trim().parse().ok()?;
    (s.is_finite() && (0.0..=1e9).contains(&s)).then(|| (s * 1000.0).round() as u64)
}

impl Level {
    /// Apply one `level` line's `key=value` pairs (times in seconds). A line with no limit, or a
    /// bad value, changes nothing.
    ///
    /// # Errors
    /// A message naming the first bad pair, or the missing limit.
    pub fn apply(&mut self, args: &[(String, String)]) -> Result<(), String> {
        if args.is_empty() {
            return Err("level: give a limit: depth=PLIES, nodes=N, move-time=SECONDS, time=SECONDS inc=SECONDS [moves=N] or infinite".into());
        }
        let mut next = self.clone();
        for (k, v) in args {
            let int = v.parse::<u64>().ok();
            let ok = match k.as_str() {
                "depth" => int
                    .filter(|n| (1..=crown_ai::MAX_PLY as u64).contains(n))
                    .map(|n| next.depth = Some(n as u32)),
                "nodes" => int.filter(|&n| n >= 1).map(|n| next.nodes = Some(n)),
                "move-time" => seconds_ms(v)
                    .filter(|_| v.parse::<f64>().is_ok_and(|s| s > 0.0))
                    .map(|ms| next.movetime_ms = Some(ms.max(1))),
                "time" => seconds_ms(v).map(|ms| next.time_ms = Some(ms)),
                "inc" => seconds_ms(v).map(|ms| next.inc_ms = Some(ms)),
                "moves" => int.map(|n| next.moves = Some(n)),
                "infinite" if v.is_empty() => {
                    next.infinite = true;
                    Some(())
                }
                // Scan accepts `ponder` here and ignores it; so does Crown.
                "ponder" if v.is_empty() => Some(()),
                _ => None,
            };
            if ok.is_none() {
                let pair = if v.is_empty() {
                    k.clone()
                } else {
                    format!("{k}={v}")
                };
                return Err(format!("level: bad limit {}", crown_notation::quote(&pair)));
            }
        }
        *self = next;
        Ok(())
    }

    /// The search limits: `time`/`inc` become the clock (Hub's `time` excludes this move's
    /// increment, which the engine adds first: the clock holds `time + inc`), `moves=N` caps this
    /// move at the clock's time divided by N, the others as they are.
    pub fn limits(&self) -> Limits {
        let clock =
            (self.time_ms.is_some() || self.inc_ms.is_some() || self.moves.is_some()).then(|| {
                let inc = self.inc_ms.unwrap_or(0);
                Clock {
                    remaining_ms: self
                        .time_ms
                        .unwrap_or(DEFAULT_GAME_TIME_MS)
                        .saturating_add(inc),
                    increment_ms: inc,
                }
            });
        let per_move = match (clock, self.moves) {
            (Some(c), Some(n)) if n > 0 => Some((c.remaining_ms / n).max(1)),
            _ => None,
        };
        let movetime_ms = match (self.movetime_ms, per_move) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime_ms,
            clock,
            infinite: self.infinite,
        }
    }
}

/// Whether a search under `limits` would never end by itself (only `stop` ends it).
pub fn unbounded(limits: &Limits) -> bool {
    limits.infinite
        || (limits.depth.is_none()
            && limits.nodes.is_none()
            && limits.movetime_ms.is_none()
            && limits.clock.is_none())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(line: &str) -> Vec<(String, String)> {
        crown_arena::protocol::parse_line(line).unwrap().1
    }

    #[test]
    fn lines_add_up_and_times_are_seconds() {
        let mut l = Level::default();
        l.apply(&pairs("level move-time=90")).unwrap();
        l.apply(&pairs("level depth=12")).unwrap();
        let lim = l.limits();
        assert_eq!(lim.movetime_ms, Some(90_000));
        assert_eq!(lim.depth, Some(12));
        l.apply(&pairs("level move-time=0.25")).unwrap();
        assert_eq!(l.limits().movetime_ms, Some(250));
    }

    /// pydraughts sends `time` less the increment ("Hub engines first add the increment").
    #[test]
    fn the_clock_holds_time_plus_increment() {
        let mut l = Level::default();
        l.apply(&pairs("level time=28 inc=2")).unwrap();
        let c = l.limits().clock.unwrap();
        assert_eq!((c.remaining_ms, c.increment_ms), (30_000, 2_000));
        assert_eq!(l.limits().movetime_ms, None);
        l.apply(&pairs("level moves=40")).unwrap();
        assert_eq!(l.limits().movetime_ms, Some(750));
    }

    #[test]
    fn bad_values_change_nothing() {
        let mut l = Level::default();
        l.apply(&pairs("level depth=5")).unwrap();
        for bad in [
            "level depth=0",
            "level move-time=-1",
            "level move-time=0",
            "level time=abc",
            "level speed=3",
            "level nodes=0",
        ] {
            let e = l.apply(&pairs(bad)).unwrap_err();
            assert!(e.starts_with("level: bad limit '"), "{bad}: {e}");
        }
        assert!(l.apply(&[]).is_err());
        assert_eq!(l.limits(), Limits::depth(5));
        assert!(!unbounded(&l.limits()));
        l.apply(&pairs("level infinite")).unwrap();
        assert!(unbounded(&l.limits()));
    }
}
