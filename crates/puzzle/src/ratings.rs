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
    /// The ids of the rated puzzles in the order they were rated (by [`PuzzleRatings::record`]),
    /// so that a record merged elsewhere (the web page's into an account) is replayed in the
    /// order it was played. A record written before this was kept has none: its puzzles missing
    /// here were rated before those listed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub played: Vec<String>,
}

impl PuzzleRatings {
    /// Whether the puzzle `id` has been rated (tried once: solved or failed).
    pub fn is_rated(&self, id: &str) -> bool {
        self.puzzles.contains_key(id)
    }

    /// Record the result of an attempt at the puzzle `id` (starting rating `difficulty`) by the
    /// trainer's rule ([`crate::trainer`]): a puzzle is rated once, so when `id` was rated before
    /// nothing changes and this returns `false`; else the attempt is rated ([`PuzzleRatings::rate`],
    /// `solved_clean`: a win), a clean solve adds one to the streak and a loss ends it,
    /// [`PuzzleRatings::best_streak`] follows, and this returns `true`. The trainer rates through
    /// this, and so does the server for an account's attempts.
    pub fn record(&mut self, id: &str, difficulty: u32, solved_clean: bool) -> bool {
        if self.is_rated(id) {
            return false;
        }
        self.rate(id, difficulty, solved_clean);
        self.played.push(id.to_string());
        self.streak = if solved_clean { self.streak + 1 } else { 0 };
        self.best_streak = self.best_streak.max(self.streak);
        true
    }

    /// The attempts these ratings hold, as `(puzzle id, solved clean)` in the order they were
    /// played, for replaying them through [`PuzzleRatings::record`]: first the rated puzzles that
    /// [`PuzzleRatings::played`] does not list (rated before the order was kept), in id order,
    /// then those it lists, in its order (an id listed twice, or not rated, is skipped).
    /// Each rated puzzle started at its difficulty and moved once, away from the result: down
    /// when the player won (solved clean), up when the player lost. `difficulty` gives a puzzle's
    /// starting rating, `None` for a puzzle it does not know: those are left out.
    pub fn attempts(&self, difficulty: impl Fn(&str) -> Option<u32>) -> Vec<(String, bool)> {
        let listed: BTreeMap<&str, usize> = self
            .played
            .iter()
            .enumerate()
            .rev()
            .map(|(i, id)| (id.as_str(), i))
            .collect();
        let mut ids: Vec<(Option<usize>, &String)> = self
            .puzzles
            .keys()
            .map(|id| (listed.get(id.as_str()).copied(), id))
            .collect();
        // `None` (not listed) sorts before every position; ties are impossible among the listed.
        ids.sort();
        ids.into_iter()
            .filter_map(|(_, id)| {
                let d = difficulty(id)?;
                Some((id.clone(), self.puzzles[id].rating < f64::from(d)))
            })
            .collect()
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

    #[test]
    fn a_recorded_attempt_is_rated_once_and_keeps_the_streak() {
        let mut r = PuzzleRatings::default();
        assert!(r.record("p1", 1500, true));
        assert!(r.record("p2", 1500, true));
        assert_eq!((r.streak, r.best_streak), (2, 2));
        let after = r.clone();
        // Rated before: nothing changes, whatever the result.
        assert!(!r.record("p1", 1500, false));
        assert!(!r.record("p2", 1500, true));
        assert_eq!(r, after);
        // A loss ends the streak, the best stays.
        assert!(r.record("p3", 1500, false));
        assert_eq!((r.streak, r.best_streak), (0, 2));
        // The same as rating by hand.
        let mut hand = PuzzleRatings::default();
        hand.rate("p1", 1500, true);
        hand.rate("p2", 1500, true);
        hand.rate("p3", 1500, false);
        assert_eq!(r.player, hand.player);
    }

    #[test]
    fn the_attempts_of_a_record_replay_to_the_same_ratings() {
        let diff = |id: &str| match id {
            "a" => Some(1400),
            "b" => Some(1700),
            "c" => Some(1500),
            _ => None,
        };
        let mut r = PuzzleRatings::default();
        for (id, won) in [("a", true), ("b", false), ("c", true)] {
            r.record(id, diff(id).unwrap(), won);
        }
        // A puzzle the set no longer has is left out.
        r.puzzles.insert("gone".into(), r.player);
        let got = r.attempts(diff);
        assert_eq!(
            got,
            [
                ("a".to_string(), true),
                ("b".into(), false),
                ("c".into(), true)
            ]
        );
        let mut again = PuzzleRatings::default();
        for (id, won) in &got {
            again.record(id, diff(id).unwrap(), *won);
        }
        assert_eq!(again.player, r.player);
    }

    #[test]
    fn the_attempts_replay_in_the_order_they_were_played() {
        let diff = |id: &str| Some(if id == "b" { 1700 } else { 1500 });
        // Played c (failed), then a (solved), then b (solved): the streak is 2.
        let mut r = PuzzleRatings::default();
        for (id, won) in [("c", false), ("a", true), ("b", true)] {
            r.record(id, 1500 + 200 * u32::from(id == "b"), won);
        }
        assert_eq!(r.played, ["c", "a", "b"]);
        // A puzzle rated before the order was kept (not listed) comes first.
        r.puzzles
            .insert("z".into(), Glicko2::new(1600.0, 200.0, 0.06));
        let got = r.attempts(diff);
        let ids: Vec<&str> = got.iter().map(|(id, _)| id.as_str()).collect();
        assert_eq!(ids, ["z", "c", "a", "b"]);
        let mut again = PuzzleRatings::default();
        for (id, won) in got.iter().skip(1) {
            again.record(id, diff(id).unwrap(), *won);
        }
        assert_eq!((again.player, again.streak), (r.player, 2));
    }
}
