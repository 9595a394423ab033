//! # crown-puzzle
//!
//! Puzzles ("find the shot") for Crown's three games: positions from real games where the side to
//! move has exactly one move that wins, or exactly one move that keeps a draw every other move
//! loses. The crate holds everything about them that is not a front end:
//!
//! - [`record`]: one [`Puzzle`] (FEN, variant, solution line, goal, proof, themes, source,
//!   difficulty), its JSON Lines file ([`read_jsonl`], [`write_jsonl`]; docs/puzzles.md) and the
//!   committed sets ([`embedded_set`]).
//! - [`finder`]: mining and proof — [`Finder`] replays games and proves each candidate by the
//!   endgame databases or by two searches (`crown puzzles gen` and `check`).
//! - [`session`]: one puzzle being solved ([`PuzzleSession`]): the player's move, the forced reply,
//!   the engine's refutation of a wrong move, hints, giving up.
//! - [`ratings`]: the trainer's Glicko-2 ratings ([`PuzzleRatings`]: the player's, each puzzle's,
//!   the streaks), over [`crown_rating`].
//! - [`trainer`]: the trainer's rules, once for the TUI and the web ([`PuzzleTrainer`]): which
//!   puzzle comes next (by theme, not yet rated first), an attempt rated once, the streak.
//!
//! ```
//! use crown_puzzle::{embedded_set, read_jsonl, PuzzleRatings, PuzzleTrainer};
//! use crown_core::Variant;
//!
//! let set = read_jsonl(embedded_set(Variant::American).as_bytes()).unwrap();
//! // A new player (1500) starts on the puzzle whose difficulty is nearest 1500 (the first such).
//! let nearest = (0..set.len())
//!     .min_by_key(|&i| (i64::from(set[i].difficulty) - 1500).abs())
//!     .unwrap();
//! let mut ratings = PuzzleRatings::default();
//! let mut t = PuzzleTrainer::open(set, None, None, &ratings, Default::default()).unwrap();
//! assert_eq!(t.index(), nearest);
//! let key = t.session.expected().unwrap();
//! t.play(&key, None, &mut ratings);
//! ```

pub mod finder;
pub mod ratings;
pub mod record;
pub mod session;
pub mod trainer;

pub use finder::{
    difficulty, is_decisive, themes, CheckFailure, Finder, FinderOptions, Verdict, DRAW_BAND,
    MARGIN, MAX_SOLVER_MOVES, WIN_SCORE,
};
pub use ratings::PuzzleRatings;
pub use record::{
    embedded_set, read_jsonl, write_jsonl, Goal, Proof, Puzzle, PuzzleError, Source, Theme,
};
pub use session::{Answer, Hint, PuzzleSession};
pub use trainer::{next_index, Played, PuzzleTrainer, TrainerError};
