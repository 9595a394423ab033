//! A search score from the side to move's point of view ([`Score`]): a value in centi-men, or a
//! win or loss in plies, found by the search or proven with the endgame databases.

use crate::search;
use std::fmt;

/// A search score from the side to move's point of view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Score {
    /// An evaluation in centi-men (100 = one man).
    Value(i32),
    /// A forced win in this many plies.
    Win(u32),
    /// A forced loss in this many plies.
    Loss(u32),
    /// A win in this many plies proven with the endgame databases (the search reached positions
    /// whose perfect-play value the databases hold; the plies count to the end of the game).
    DatabaseWin(u32),
    /// A loss in this many plies proven with the endgame databases.
    DatabaseLoss(u32),
}

impl Score {
    /// A number for sorting and comparisons: wins above every value, sooner wins higher; wins
    /// found by the search alone rank above database wins (they are scored in a band of their own,
    /// so that the search can tell them apart).
    pub fn as_centi(self) -> i32 {
        match self {
            Score::Value(v) => v,
            Score::Win(n) => search::MATE - n as i32,
            Score::Loss(n) => -(search::MATE - n as i32),
            Score::DatabaseWin(n) => search::DB_WIN - n.min(search::MAX_DB_DISTANCE) as i32,
            Score::DatabaseLoss(n) => -(search::DB_WIN - n.min(search::MAX_DB_DISTANCE) as i32),
        }
    }

    /// The number of plies to a proven end of the game, for wins and losses (searched or from
    /// the databases); `None` for an evaluation.
    pub fn plies_to_end(self) -> Option<u32> {
        match self {
            Score::Value(_) => None,
            Score::Win(n) | Score::Loss(n) | Score::DatabaseWin(n) | Score::DatabaseLoss(n) => {
                Some(n)
            }
        }
    }

    /// The score seen from the other side.
    #[must_use]
    pub fn negate(self) -> Score {
        match self {
            Score::Value(v) => Score::Value(-v),
            Score::Win(n) => Score::Loss(n),
            Score::Loss(n) => Score::Win(n),
            Score::DatabaseWin(n) => Score::DatabaseLoss(n),
            Score::DatabaseLoss(n) => Score::DatabaseWin(n),
        }
    }
}

impl fmt::Display for Score {
    /// `+1.25` (centi-men as men, signed), `win in 7`, `loss in 4` (plies), `win in 23 (db)`,
    /// `loss in 22 (db)` (plies, proven with the endgame databases).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Value(v) => {
                let sign = if v < 0 { '-' } else { '+' };
                let a = v.unsigned_abs();
                write!(f, "{sign}{}.{:02}", a / 100, a % 100)
            }
            Score::Win(n) => write!(f, "win in {n}"),
            Score::Loss(n) => write!(f, "loss in {n}"),
            Score::DatabaseWin(n) => write!(f, "win in {n} (db)"),
            Score::DatabaseLoss(n) => write!(f, "loss in {n} (db)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_display() {
        assert_eq!(Score::Value(125).to_string(), "+1.25");
        assert_eq!(Score::Value(-5).to_string(), "-0.05");
        assert_eq!(Score::Value(0).to_string(), "+0.00");
        assert_eq!(Score::Win(7).to_string(), "win in 7");
        assert_eq!(Score::Loss(4).to_string(), "loss in 4");
        assert_eq!(Score::DatabaseWin(23).to_string(), "win in 23 (db)");
        assert_eq!(Score::DatabaseLoss(22).to_string(), "loss in 22 (db)");
        assert_eq!(Score::DatabaseWin(3).negate(), Score::DatabaseLoss(3));
    }

    #[test]
    fn score_order() {
        // Sooner wins rank higher; every win above every evaluation, every loss below.
        assert!(Score::DatabaseWin(5).as_centi() > Score::DatabaseWin(7).as_centi());
        assert!(Score::DatabaseWin(900).as_centi() > Score::Value(5_000).as_centi());
        assert!(Score::DatabaseLoss(900).as_centi() < Score::Value(-5_000).as_centi());
        assert!(Score::DatabaseLoss(7).as_centi() > Score::DatabaseLoss(5).as_centi());
    }
}
