//! Ratings of rated games (docs/api.md, "Ratings"): the speed class of a time control. The
//! Glicko-2 update itself (crown_arena::glicko) is not wired in yet.

use crate::store::TimeControl;

/// The speed class of a time control; a user has one rating per variant and speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Speed {
    /// Estimated duration under 180 s.
    Bullet,
    /// Estimated duration 180 s to under 480 s.
    Blitz,
    /// Estimated duration 480 s to under 1500 s.
    Rapid,
    /// Estimated duration 1500 s or more.
    Classical,
}

impl Speed {
    /// The speed of `tc`: estimated duration = initial seconds + 40 x increment seconds
    /// (lichess's rule), bullet < 180 s, blitz < 480 s, rapid < 1500 s, classical otherwise.
    pub fn of(tc: TimeControl) -> Speed {
        // In ms, so that fractions of a second are not rounded away.
        let ms = tc
            .initial_ms
            .saturating_add(tc.increment_ms.saturating_mul(40));
        match ms {
            m if m < 180_000 => Speed::Bullet,
            m if m < 480_000 => Speed::Blitz,
            m if m < 1_500_000 => Speed::Rapid,
            _ => Speed::Classical,
        }
    }

    /// The speed's id in the API: `bullet`, `blitz`, `rapid` or `classical`.
    pub fn name(self) -> &'static str {
        match self {
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Speed;
    use crate::store::TimeControl;

    fn tc(initial_s: u64, increment_s: u64) -> TimeControl {
        TimeControl {
            initial_ms: initial_s * 1000,
            increment_ms: increment_s * 1000,
        }
    }

    #[test]
    fn the_speed_boundaries_follow_the_estimated_duration() {
        // Each boundary from both sides: 179 s is bullet, 180 s blitz, and so on.
        assert_eq!(Speed::of(tc(60, 2)), Speed::Bullet); // 60 + 80 = 140
        assert_eq!(Speed::of(tc(179, 0)), Speed::Bullet);
        assert_eq!(Speed::of(tc(180, 0)), Speed::Blitz);
        assert_eq!(Speed::of(tc(100, 2)), Speed::Blitz); // 100 + 80 = 180
        assert_eq!(Speed::of(tc(479, 0)), Speed::Blitz);
        assert_eq!(Speed::of(tc(400, 2)), Speed::Rapid); // 400 + 80 = 480
        assert_eq!(Speed::of(tc(1499, 0)), Speed::Rapid);
        assert_eq!(Speed::of(tc(900, 15)), Speed::Classical); // 900 + 600 = 1500
        assert_eq!(Speed::Classical.name(), "classical");
    }
}
