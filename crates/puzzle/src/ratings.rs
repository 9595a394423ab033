//! The ratings of a puzzle trainer: the player's Glicko-2 rating, each tried puzzle's, and the
//! streaks. An attempt is one game of the player against the puzzle ([`crown_rating`]'s
//! arithmetic); which attempts are rated, and when, is the trainer's rule ([`crate::trainer`]).

use crown_rating::glicko::{Glicko2, Outcome, DEFAULT_DEVIATION, DEFAULT_TAU, DEFAULT_VOLATILITY};
use std::collections::BTreeMap;

/// The ratings of a puzzle trainer (the TUI's `puzzles.json`, the web app's local storage): the
/// player's, and each puzzle's (by id) once tried. An attempt is a game of the player against the
/// puzzle: solved with no wrong move and no hint is a win, anything else a loss.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PuzzleRatings {
    /// The player's rating.
    pub player: Glicko2,
    /// The best streak of clean solves.
    #[serde(default)]
    pub best_streak: u32,
    /// Each tried puzzle's rating (a new one starts at its difficulty, deviation 350).
    #[serde(default)]
    pub puzzles: BTreeMap<String, Glicko2>,
    /// The current streak of clean solves (kept so that a restart goes on with it).
    #[serde(default)]
    pub streak: u32,
}

impl PuzzleRatings {
    /// Whether the puzzle `id` has been rated (tried once: solved or failed).
    pub fn is_rated(&self, id: &str) -> bool {
        self.puzzles.contains_key(id)
    }

    /// Rate one attempt at the puzzle `id` whose starting rating is `difficulty`: both ratings
    /// move (Glicko-2, τ [`DEFAULT_TAU`], one game per rating period).
    pub fn rate(&mut self, id: &str, difficulty: u32, solved_clean: bool) {
        let p = self.puzzles.get(id).copied().unwrap_or(Glicko2::new(
            f64::from(difficulty),
            DEFAULT_DEVIATION,
            DEFAULT_VOLATILITY,
        ));
        let out = if solved_clean {
            Outcome::Win
        } else {
            Outcome::Loss
        };
        let me = self.player;
        self.player = me.update(&[(p, out)], DEFAULT_TAU);
        self.puzzles.insert(
            id.to_string(),
            p.update(&[(me, out.reversed())], DEFAULT_TAU),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_puzzle_attempt_moves_both_ratings_the_opposite_ways() {
        let mut r = PuzzleRatings::default();
        r.rate("p1", 1500, true);
        // A win over an equal opponent from 1500/350: the player rises, the puzzle falls as much.
        assert!(r.player.rating > 1500.0, "{r:?}");
        let p = r.puzzles["p1"];
        assert!(
            (r.player.rating - 1500.0 + (p.rating - 1500.0)).abs() < 1e-6,
            "{r:?}"
        );
        let before = r.player.rating;
        r.rate("p2", 1200, false);
        assert!(r.player.rating < before, "{r:?}");
        assert!(r.puzzles["p2"].rating > 1200.0, "{r:?}");
    }
}
