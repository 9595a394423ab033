//! # crown-ai
//!
//! The Crown engine: search and evaluation for American checkers, pool checkers and Impasse.
//!
//! - Search ([`Engine::search`]): negamax alpha-beta with principal-variation search, iterative
//!   deepening, aspiration windows, a shared lock-free transposition table, move ordering (hash move,
//!   captures, killers, history), a one-ply extension for forced moves, capture quiescence (checkers:
//!   the search never stops while the side to move must capture), repetition and 40-move-rule
//!   awareness (the game's history before the root counts), wins and losses as distance in plies,
//!   a stop flag, per-depth progress callbacks, and lazy SMP with [`EngineOptions::threads`].
//! - Endgame databases ([`Engine::set_tables`], [`tables`]): probed at the root (the shortest win,
//!   the longest loss, so won endings are converted) and at every node with few enough pieces;
//!   their wins and losses are scored [`Score::DatabaseWin`] / [`Score::DatabaseLoss`].
//! - Evaluation per game: see [`eval`]: [`eval::classic`] (hand-set) and [`eval::trained`] (pattern
//!   tables learnt from self-play, the default of every game; trained by the crate `crown-train`
//!   and `crown tune`).
//! - Casual levels 1–10 ([`Limits::level`] for the search caps, [`EngineOptions::level`] for the
//!   controlled randomness of the low levels, which never misses a win in one).
//! - Time management for clocks ([`Limits::clock`]).
//! - Opening books per game ([`book`], [`Engine::set_book`]; off by default).
//! - The opponent a player meets ([`Opponent`]): level, book, databases and clock as search
//!   limits, hints, and when it accepts a draw; the one policy of every front end.
//!
//! ```
//! use crown_ai::{Engine, EngineOptions, Limits};
//! use crown_core::{Game, Variant};
//! use std::sync::atomic::AtomicBool;
//!
//! let mut engine = Engine::new(EngineOptions::default());
//! let game = Game::new(Variant::American);
//! let stop = AtomicBool::new(false);
//! let result = engine.search(&game, &Limits::depth(4), &stop, &mut |_info| {});
//! assert!(result.best_move.is_some());
//! assert_eq!(result.depth, 4);
//! ```

//!
//! The crate root is a map: each concept has a file of its own ([`limits`], [`score`], [`tweaks`],
//! [`engine`]), re-exported here under its historical path (`crown_ai::Engine`, `crown_ai::Score`).

pub mod bench;
pub mod book;
pub mod engine;
pub mod eval;
pub mod level;
pub mod limits;
pub mod opponent;
pub mod review;
pub mod score;
mod search;
pub mod session;
pub mod tables;
mod tt;
pub mod tweaks;

/// The evaluations' board view, [`eval::board`].
use eval::board;
/// The trained evaluation, [`eval::trained`] (its historical path).
pub use eval::trained;

pub use engine::{
    Engine, EngineOptions, SearchInfo, SearchResult, DEFAULT_HASH_MIB, MAX_HASH_MIB,
    TABLES_FROM_LEVEL,
};
pub use level::DEFAULT_LEVEL;
pub use limits::{Clock, Limits};
pub use opponent::Opponent;
pub use score::Score;
pub use search::MAX_PLY;
pub use session::{search_now, SearchKey, SearchRequest, Searcher, Session, SessionEvent};
pub use tables::{EndgameTables, TableProbe, Wdl};
pub(crate) use tweaks::Tweaks;
pub use tweaks::{
    SearchTweaks, TweakError, CROWN_QUIESCENCE_PLIES, FUTILITY_MARGIN, MULTICUT_REDUCTION,
    PROBCUT_MARGIN, PROBCUT_REDUCTION, RFP_MARGIN, RFP_MARGIN_AMERICAN, TRUNC_KING_AMERICAN,
    TRUNC_KING_POOL,
};

/// The README example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
