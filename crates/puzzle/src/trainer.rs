//! The puzzle trainer's rules, written once for every front end (the TUI's puzzles mode and, through
//! the wasm bindings, the web app's Puzzles page):
//!
//! - **Which puzzle next** ([`next_index`]): of the puzzles that have the theme filter's theme and
//!   are not yet rated, the one whose difficulty is nearest the player's rating (a new player,
//!   1500, meets puzzles near 1500 first, not the set's first puzzle whatever its difficulty); among
//!   equally near ones, the first rounding the set from the puzzle after the current one (from the
//!   first when the trainer opens). When every such puzzle is rated, the next one that has the
//!   theme in that round. The current puzzle is served again only when it is the only one with
//!   the theme.
//! - **Rated once** ([`PuzzleTrainer::play`], [`PuzzleTrainer::hint`],
//!   [`PuzzleTrainer::give_up`]): an attempt is rated as soon as its result is known — the first
//!   wrong move, the first hint or giving up is a loss, a solve with neither (in every try of the
//!   attempt, [`PuzzleTrainer::retry`]) a win. A puzzle rated before the attempt (its id in the
//!   ratings, or among the ids solved before) is not rated again and leaves the streak alone, so
//!   re-solving cannot raise the rating.
//! - **The streak**: a clean solve adds one, a rated loss ends it, and so does leaving a puzzle
//!   neither finished nor rated ([`PuzzleTrainer::next`]); it is kept in
//!   [`PuzzleRatings::streak`] (with [`PuzzleRatings::best_streak`]) so that a restart goes on
//!   with it.
//!
//! The ratings are the front end's to keep and store ([`PuzzleRatings`]); each call that may change
//! them takes them, and the front end stores them when they changed.

use crate::ratings::PuzzleRatings;
use crate::record::{Puzzle, PuzzleError, Theme};
use crate::session::{Answer, Hint, PuzzleSession};
use crown_ai::{Engine, Limits};
use crown_core::Move;
use std::collections::BTreeSet;
use std::fmt;

/// The puzzle to serve in `set` after the puzzle `from` (`None`: from the start of the set), with
/// the theme filter `theme` (`None`: every puzzle), where `is_rated` says which puzzles were rated
/// and `rating` is the player's rating (Glicko-2 points): of the puzzles with the theme that are not
/// rated and are not `from`, the one whose difficulty is nearest `rating` (equally near: the first
/// rounding the set from the puzzle after `from`); else the first other puzzle with the theme in
/// that round; else `from` itself when it has the theme. `None` when no puzzle has the theme.
pub fn next_index(
    set: &[Puzzle],
    from: Option<usize>,
    theme: Option<Theme>,
    is_rated: impl Fn(&str) -> bool,
    rating: f64,
) -> Option<usize> {
    let n = set.len();
    let start = from.map_or(0, |f| f + 1);
    let fits: Vec<usize> = (0..n)
        .map(|k| (start + k) % n)
        .filter(|&i| theme.is_none_or(|t| set[i].themes.contains(&t)))
        .collect();
    let other = |i: &&usize| Some(**i) != from;
    let distance = |i: usize| (f64::from(set[i].difficulty) - rating).abs();
    // `min_by` keeps the first of equal elements: the round order breaks ties
    fits.iter()
        .filter(other)
        .filter(|&&i| !is_rated(&set[i].id))
        .min_by(|&&a, &&b| distance(a).total_cmp(&distance(b)))
        .or_else(|| fits.iter().find(other))
        .or_else(|| fits.first())
        .copied()
}

/// Why the trainer cannot serve a puzzle.
#[derive(Debug)]
pub enum TrainerError {
    /// The set has no puzzle.
    Empty,
    /// No puzzle of the set has the theme.
    NoTheme(Theme),
    /// A puzzle index beyond the set.
    OutOfRange {
        /// The index asked for.
        index: usize,
        /// The number of puzzles in the set.
        len: usize,
    },
    /// The puzzle cannot be played (its FEN or solution cannot be read).
    Puzzle(PuzzleError),
}

impl fmt::Display for TrainerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainerError::Empty => f.write_str("the set has no puzzle"),
            TrainerError::NoTheme(t) => write!(f, "no puzzle has the theme {t}"),
            TrainerError::OutOfRange { index, len } => write!(
                f,
                "puzzle index {index} is out of range: the set has {len} puzzles"
            ),
            TrainerError::Puzzle(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for TrainerError {}

/// What became of the player's move ([`PuzzleTrainer::play`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// The session's answer.
    pub answer: Answer,
    /// Whether the move rated the attempt now (a wrong move or the solve of a puzzle not rated
    /// before; at most once per attempt).
    pub rated: bool,
}

/// The state of one attempt at the current puzzle (its tries, [`PuzzleTrainer::retry`], included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Attempt {
    /// The puzzle was rated before this attempt: it is not rated again.
    rated_before: bool,
    /// This attempt's result is known (and in the ratings unless `rated_before`).
    rated: bool,
    /// A wrong move, a hint or giving up in this attempt (kept over a retry).
    helped: bool,
}

/// A puzzle trainer over one set: the puzzle being solved, the attempt at it, the streak and this
/// run's counts. See the module documentation for its rules.
#[derive(Clone, Debug)]
pub struct PuzzleTrainer {
    set: Vec<Puzzle>,
    index: usize,
    /// The puzzle being solved. Read it freely; play its moves, hints and giving up through the
    /// trainer ([`PuzzleTrainer::play`], [`PuzzleTrainer::hint`], [`PuzzleTrainer::give_up`]),
    /// which rates the attempt.
    pub session: PuzzleSession,
    /// Puzzles solved clean in a row (written to [`PuzzleRatings::streak`] at each change).
    pub streak: u32,
    /// Puzzles solved clean (and rated) since the trainer opened.
    pub solved: u32,
    /// Puzzles tried (rated, or left unfinished before being rated) since the trainer opened.
    pub tried: u32,
    solved_ids: BTreeSet<String>,
    attempt: Attempt,
}

impl PuzzleTrainer {
    /// Open `set` at the puzzle `index`, or (`None`) at the first to serve with the theme filter
    /// `theme` ([`next_index`] from the start, near the player's rating in `ratings`). The streak is the stored one
    /// ([`PuzzleRatings::streak`]); `solved_ids` are the puzzles solved before that the ratings
    /// may not hold (the web app keeps them; empty for a trainer with only the ratings).
    ///
    /// # Errors
    /// [`TrainerError::Empty`], [`TrainerError::NoTheme`], [`TrainerError::OutOfRange`], or
    /// [`TrainerError::Puzzle`] for a puzzle that cannot be played.
    pub fn open(
        set: Vec<Puzzle>,
        index: Option<usize>,
        theme: Option<Theme>,
        ratings: &PuzzleRatings,
        solved_ids: BTreeSet<String>,
    ) -> Result<PuzzleTrainer, TrainerError> {
        if set.is_empty() {
            return Err(TrainerError::Empty);
        }
        let is_rated = |id: &str| ratings.is_rated(id) || solved_ids.contains(id);
        let index = match index {
            Some(i) => i,
            None => next_index(&set, None, theme, is_rated, ratings.player.rating)
                .ok_or(theme.map_or(TrainerError::Empty, TrainerError::NoTheme))?,
        };
        let session = Self::session_of(&set, index)?;
        let rated_before = is_rated(&set[index].id);
        Ok(PuzzleTrainer {
            set,
            index,
            session,
            streak: ratings.streak,
            solved: 0,
            tried: 0,
            solved_ids,
            attempt: Attempt {
                rated_before,
                ..Attempt::default()
            },
        })
    }

    fn session_of(set: &[Puzzle], index: usize) -> Result<PuzzleSession, TrainerError> {
        let p = set.get(index).ok_or(TrainerError::OutOfRange {
            index,
            len: set.len(),
        })?;
        PuzzleSession::new(p.clone()).map_err(TrainerError::Puzzle)
    }

    /// The puzzles of the set, in file order.
    pub fn set(&self) -> &[Puzzle] {
        &self.set
    }

    /// The index of the current puzzle in the set.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The current puzzle.
    pub fn puzzle(&self) -> &Puzzle {
        self.session.puzzle()
    }

    /// The ids of the puzzles solved (before, as given to [`PuzzleTrainer::open`], and since).
    pub fn solved_ids(&self) -> &BTreeSet<String> {
        &self.solved_ids
    }

    /// Whether the puzzle `id` was rated: in `ratings`, or among the solved ids.
    pub fn is_rated(&self, ratings: &PuzzleRatings, id: &str) -> bool {
        ratings.is_rated(id) || self.solved_ids.contains(id)
    }

    /// Whether the current puzzle was rated before this attempt (it is not rated again).
    pub fn rated_before(&self) -> bool {
        self.attempt.rated_before
    }

    /// The current puzzle is solved, and with no wrong move and no hint in any try of this attempt:
    /// a win for the ratings.
    pub fn solved_clean(&self) -> bool {
        self.session.solved_clean() && !self.attempt.helped
    }

    /// Start puzzle `index` of the set: a new attempt.
    ///
    /// # Errors
    /// [`TrainerError::OutOfRange`] or [`TrainerError::Puzzle`]; the trainer is then unchanged.
    pub fn start(&mut self, index: usize, ratings: &PuzzleRatings) -> Result<(), TrainerError> {
        self.session = Self::session_of(&self.set, index)?;
        self.index = index;
        self.attempt = Attempt {
            rated_before: self.is_rated(ratings, &self.set[index].id),
            ..Attempt::default()
        };
        Ok(())
    }

    /// Try the current puzzle again from its position: the same attempt, so it stays rated once
    /// and the help of the earlier tries still counts.
    pub fn retry(&mut self) {
        if let Ok(s) = Self::session_of(&self.set, self.index) {
            self.session = s;
        }
    }

    /// Go on to the next puzzle with the theme filter `theme` ([`next_index`] after the current
    /// one, near the player's rating in `ratings`). Leaving a puzzle neither finished nor rated counts it as tried and ends the streak
    /// (also in `ratings`).
    ///
    /// # Errors
    /// [`TrainerError::NoTheme`] when no puzzle has the theme, or the error of
    /// [`PuzzleTrainer::start`]; the current puzzle then stays (it was left all the same).
    pub fn next(
        &mut self,
        theme: Option<Theme>,
        ratings: &mut PuzzleRatings,
    ) -> Result<(), TrainerError> {
        if !self.session.is_over() && !self.attempt.rated && !self.attempt.rated_before {
            self.tried += 1;
            self.streak = 0;
            ratings.streak = 0;
        }
        let rating = ratings.player.rating;
        let index = next_index(
            &self.set,
            Some(self.index),
            theme,
            |id| self.is_rated(ratings, id),
            rating,
        )
        .ok_or(theme.map_or(TrainerError::Empty, TrainerError::NoTheme))?;
        self.start(index, ratings)
    }

    /// Rate the attempt with this result, once: returns whether it was rated now.
    fn rate(&mut self, clean: bool, ratings: &mut PuzzleRatings) -> bool {
        if !clean {
            self.attempt.helped = true;
        }
        if self.attempt.rated {
            return false;
        }
        self.attempt.rated = true;
        if self.attempt.rated_before {
            return false;
        }
        let p = self.session.puzzle();
        // The trainer's streak is the ratings' one (written at each change).
        ratings.streak = self.streak;
        if !ratings.record(&p.id, p.difficulty, clean) {
            return false;
        }
        self.tried += 1;
        if clean {
            self.solved += 1;
        }
        self.streak = ratings.streak;
        true
    }

    /// Play the player's move `mv` (legal in the session's position; `refute`: an engine and its
    /// limits for the refutation of a wrong move). A wrong move rates the attempt as a loss; the
    /// solve rates it as a win when clean ([`PuzzleTrainer::solved_clean`]), else as a loss.
    pub fn play(
        &mut self,
        mv: &Move,
        refute: Option<(&mut Engine, &Limits)>,
        ratings: &mut PuzzleRatings,
    ) -> Played {
        let answer = self.session.play(mv, refute);
        let rated = match &answer {
            Answer::Wrong { .. } => self.rate(false, ratings),
            Answer::Correct { solved: true, .. } => {
                let clean = self.solved_clean();
                self.solved_ids.insert(self.session.puzzle().id.clone());
                self.rate(clean, ratings)
            }
            Answer::Correct { .. } | Answer::Over => false,
        };
        Played { answer, rated }
    }

    /// A hint ([`PuzzleSession::hint`]); one rates the attempt as a loss. `None` when over.
    pub fn hint(&mut self, ratings: &mut PuzzleRatings) -> Option<Hint> {
        let hint = self.session.hint()?;
        self.rate(false, ratings);
        Some(hint)
    }

    /// Give up: the rest of the solution (move texts; empty when already over); rates the attempt
    /// as a loss.
    pub fn give_up(&mut self, ratings: &mut PuzzleRatings) -> Vec<String> {
        let rest = self.session.give_up();
        if !rest.is_empty() {
            self.rate(false, ratings);
        }
        rest
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{Goal, Proof, Source};
    use crown_core::Variant;

    /// A puzzle `id` with `themes`: the two-for-one 27-23 19x26 31x13 (White men 27, 31; Black
    /// 17, 19), a line of two solver moves with a forced reply between.
    fn shot(id: &str, themes: &[Theme]) -> Puzzle {
        Puzzle {
            id: id.into(),
            variant: Variant::American,
            fen: "W:W27,31:B17,19".into(),
            solution: vec!["27-23".into(), "19x26".into(), "31x13".into()],
            goal: Goal::Win,
            proof: Proof::Database,
            themes: themes.to_vec(),
            source: Source {
                file: "hand.pdn".into(),
                game: 1,
                name: String::new(),
                ply: 0,
            },
            difficulty: 1500,
        }
    }

    /// Four puzzles: a and c are shots, b and d endings.
    fn set() -> Vec<Puzzle> {
        vec![
            shot("a", &[Theme::Shot]),
            shot("b", &[Theme::Ending]),
            shot("c", &[Theme::Shot]),
            shot("d", &[Theme::Ending]),
        ]
    }

    fn solve(t: &mut PuzzleTrainer, r: &mut PuzzleRatings) -> Played {
        for text in ["27-23", "31x13"] {
            let mv = t.session.position().parse_move(text).unwrap();
            let played = t.play(&mv, None, r);
            if t.session.is_over() {
                return played;
            }
        }
        panic!("the line did not end");
    }

    fn wrong(t: &mut PuzzleTrainer, r: &mut PuzzleRatings) -> Played {
        let mv = t.session.position().parse_move("27-24").unwrap();
        t.play(&mv, None, r)
    }

    #[test]
    fn the_next_puzzle_is_the_next_unrated_one_with_the_theme() {
        let s = set();
        let none = |_: &str| false;
        // From the start; after the current one; round the set.
        assert_eq!(next_index(&s, None, None, none, 1500.0), Some(0));
        assert_eq!(next_index(&s, Some(0), None, none, 1500.0), Some(1));
        assert_eq!(next_index(&s, Some(3), None, none, 1500.0), Some(0));
        // The theme filter: shots are 0 and 2.
        assert_eq!(
            next_index(&s, Some(0), Some(Theme::Shot), none, 1500.0),
            Some(2)
        );
        assert_eq!(
            next_index(&s, Some(2), Some(Theme::Shot), none, 1500.0),
            Some(0)
        );
        // Rated puzzles are passed over: from 0, b (1) is rated, so c (2).
        let b = |id: &str| id == "b";
        assert_eq!(next_index(&s, Some(0), None, b, 1500.0), Some(2));
        // All rated: the next one with the theme all the same.
        let all = |_: &str| true;
        assert_eq!(
            next_index(&s, Some(1), Some(Theme::Ending), all, 1500.0),
            Some(3)
        );
        // The current puzzle is not served again while another has the theme, even rated.
        let but_a = |id: &str| id != "a";
        assert_eq!(
            next_index(&s, Some(0), Some(Theme::Shot), but_a, 1500.0),
            Some(2)
        );
        // ... and is when it is the only one with the theme.
        let one = vec![shot("a", &[Theme::Shot]), shot("b", &[])];
        assert_eq!(
            next_index(&one, Some(0), Some(Theme::Shot), none, 1500.0),
            Some(0)
        );
        assert_eq!(
            next_index(&one, None, Some(Theme::MultiJump), none, 1500.0),
            None
        );
        assert_eq!(next_index(&[], None, None, none, 1500.0), None);
    }

    /// A puzzle `id` of difficulty `difficulty` (the shot of [`shot`], themed a shot).
    fn rated_at(id: &str, difficulty: u32) -> Puzzle {
        Puzzle {
            difficulty,
            ..shot(id, &[Theme::Shot])
        }
    }

    #[test]
    fn the_next_puzzle_is_the_unrated_one_nearest_the_players_rating() {
        // The committed American set opens with puzzles of 2300 and 2000: a new player (1500)
        // must not meet them first.
        let s = vec![
            rated_at("p2300", 2300),
            rated_at("p2000", 2000),
            rated_at("p1600", 1600),
            rated_at("p1500", 1500),
            rated_at("p1200", 1200),
        ];
        let none = |_: &str| false;
        assert_eq!(next_index(&s, None, None, none, 1500.0), Some(3));
        // A stronger player gets harder puzzles, a weaker one easier.
        assert_eq!(next_index(&s, None, None, none, 2100.0), Some(1));
        assert_eq!(next_index(&s, None, None, none, 2500.0), Some(0));
        assert_eq!(next_index(&s, None, None, none, 900.0), Some(4));
        // Equally near (1550: 1600 and 1500 are both 50 away): the first after `from` in the round.
        assert_eq!(next_index(&s, None, None, none, 1550.0), Some(2));
        assert_eq!(next_index(&s, Some(2), None, none, 1550.0), Some(3));
        // The current puzzle and the rated ones are passed over: the next nearest.
        assert_eq!(next_index(&s, Some(3), None, none, 1500.0), Some(2));
        let rated = |id: &str| id == "p1500" || id == "p1600";
        assert_eq!(next_index(&s, None, None, rated, 1500.0), Some(4));
        // All rated: the round order, as before.
        assert_eq!(next_index(&s, Some(3), None, |_| true, 1500.0), Some(4));

        // The trainer serves the new player the 1500 puzzle first; failing it lowers the
        // rating, and the next one served is the nearest to the new rating (1200 rather than
        // 1600 once the rating is below 1400).
        let mut r = PuzzleRatings::default();
        let mut t = PuzzleTrainer::open(s.clone(), None, None, &r, BTreeSet::new()).unwrap();
        assert_eq!(t.puzzle().id, "p1500");
        assert_eq!(t.give_up(&mut r).len(), 3);
        assert!(r.player.rating < 1400.0, "{}", r.player.rating);
        t.next(None, &mut r).unwrap();
        assert_eq!(t.puzzle().id, "p1200");
    }

    #[test]
    fn a_clean_solve_is_a_win_and_adds_to_the_streak() {
        let mut r = PuzzleRatings::default();
        let mut t = PuzzleTrainer::open(set(), None, None, &r, BTreeSet::new()).unwrap();
        assert_eq!(t.index(), 0);
        let p = solve(&mut t, &mut r);
        assert!(p.rated && t.solved_clean());
        assert!(r.player.rating > 1500.0 && r.is_rated("a"));
        assert_eq!((t.streak, r.streak, r.best_streak), (1, 1, 1));
        assert_eq!((t.solved, t.tried), (1, 1));
        assert!(t.solved_ids().contains("a"));
        t.next(None, &mut r).unwrap();
        assert_eq!(t.index(), 1);
        solve(&mut t, &mut r);
        assert_eq!((t.streak, r.streak, r.best_streak), (2, 2, 2));
    }

    #[test]
    fn a_wrong_move_rates_a_loss_at_once_and_only_once() {
        let mut r = PuzzleRatings {
            streak: 3,
            best_streak: 3,
            ..PuzzleRatings::default()
        };
        let mut t = PuzzleTrainer::open(set(), None, None, &r, BTreeSet::new()).unwrap();
        assert_eq!(t.streak, 3, "the stored streak goes on");
        let p = wrong(&mut t, &mut r);
        assert!(matches!(p.answer, Answer::Wrong { .. }) && p.rated);
        assert!(r.player.rating < 1500.0 && r.is_rated("a"));
        assert_eq!((t.streak, r.streak, r.best_streak), (0, 0, 3));
        let after = r.clone();
        // A second wrong move, a hint and the solve after it rate nothing.
        assert!(!wrong(&mut t, &mut r).rated);
        assert!(t.hint(&mut r).is_some());
        let p = solve(&mut t, &mut r);
        assert!(!p.rated && !t.solved_clean());
        assert_eq!(r, after);
        assert_eq!((t.solved, t.tried), (0, 1));
    }

    #[test]
    fn a_hint_or_giving_up_is_a_loss() {
        let mut r = PuzzleRatings::default();
        let mut t = PuzzleTrainer::open(set(), None, None, &r, BTreeSet::new()).unwrap();
        assert!(t.hint(&mut r).is_some());
        assert!(r.player.rating < 1500.0 && r.is_rated("a"));
        t.next(None, &mut r).unwrap();
        let before = r.player.rating;
        assert_eq!(t.give_up(&mut r), ["27-23", "19x26", "31x13"]);
        assert!(r.player.rating < before && r.is_rated("b"));
        // Over: nothing more to give up, nothing rated.
        let after = r.clone();
        assert!(t.give_up(&mut r).is_empty() && t.hint(&mut r).is_none());
        assert_eq!(r, after);
    }

    #[test]
    fn help_before_a_retry_still_counts() {
        let mut r = PuzzleRatings::default();
        let mut t = PuzzleTrainer::open(set(), None, None, &r, BTreeSet::new()).unwrap();
        t.hint(&mut r).unwrap();
        let after = r.clone();
        t.retry();
        assert_eq!(t.session.hints(), 0, "a fresh session");
        let p = solve(&mut t, &mut r);
        assert!(
            !p.rated && !t.solved_clean(),
            "solved with help, rated once"
        );
        assert_eq!(r, after);
    }

    #[test]
    fn a_puzzle_rated_before_is_not_rated_again_and_keeps_the_streak() {
        let mut r = PuzzleRatings::default();
        r.rate("a", 1500, false);
        r.streak = 2;
        let before = r.clone();
        let mut t = PuzzleTrainer::open(set(), Some(0), None, &r, BTreeSet::new()).unwrap();
        assert!(t.rated_before());
        let p = solve(&mut t, &mut r);
        assert!(!p.rated && t.solved_clean());
        assert_eq!(r, before);
        assert_eq!(t.streak, 2);
        // Failing it again changes nothing either, nor does leaving it unfinished.
        t.retry();
        assert!(!wrong(&mut t, &mut r).rated);
        t.next(None, &mut r).unwrap();
        assert_eq!(r, before);
        // An id among the solved ones counts as rated too.
        let ids = BTreeSet::from(["b".to_string()]);
        let t = PuzzleTrainer::open(set(), None, None, &PuzzleRatings::default(), ids).unwrap();
        assert_eq!(t.index(), 0);
        let t2 = PuzzleTrainer::open(set(), Some(1), None, &PuzzleRatings::default(), {
            t.solved_ids().clone()
        })
        .unwrap();
        assert!(t2.rated_before());
    }

    #[test]
    fn leaving_an_unfinished_unrated_puzzle_ends_the_streak() {
        let mut r = PuzzleRatings {
            streak: 4,
            ..PuzzleRatings::default()
        };
        let mut t = PuzzleTrainer::open(set(), None, None, &r, BTreeSet::new()).unwrap();
        t.next(None, &mut r).unwrap();
        assert_eq!((t.streak, r.streak, t.tried), (0, 0, 1));
        assert!(!r.is_rated("a"), "left, not rated");
        // Leaving a solved puzzle keeps the streak.
        solve(&mut t, &mut r);
        t.next(None, &mut r).unwrap();
        assert_eq!((t.streak, r.streak), (1, 1));
    }

    #[test]
    fn opening_and_moving_on_follow_the_theme() {
        let r = PuzzleRatings::default();
        let t = PuzzleTrainer::open(set(), None, Some(Theme::Ending), &r, BTreeSet::new()).unwrap();
        assert_eq!(t.puzzle().id, "b");
        assert!(matches!(
            PuzzleTrainer::open(set(), None, Some(Theme::DrawSave), &r, BTreeSet::new()),
            Err(TrainerError::NoTheme(Theme::DrawSave))
        ));
        assert!(matches!(
            PuzzleTrainer::open(Vec::new(), None, None, &r, BTreeSet::new()),
            Err(TrainerError::Empty)
        ));
        assert!(matches!(
            PuzzleTrainer::open(set(), Some(9), None, &r, BTreeSet::new()),
            Err(TrainerError::OutOfRange { index: 9, len: 4 })
        ));
        let mut r = r;
        let mut t = t;
        solve(&mut t, &mut r);
        t.next(Some(Theme::Ending), &mut r).unwrap();
        assert_eq!(t.puzzle().id, "d");
        let e = t.next(Some(Theme::DrawSave), &mut r).unwrap_err();
        assert!(matches!(e, TrainerError::NoTheme(Theme::DrawSave)));
        assert_eq!(t.puzzle().id, "d", "the current puzzle stays");
    }
}
