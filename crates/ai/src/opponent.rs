//! The opponent a player meets: the one policy every front end (the CLI's `crown play`, the
//! terminal UI, the server's engine games, the browser through wasm) plays by.
//!
//! - **Strength**: a casual level 1–10 ([`Limits::level`] caps the depth and time of each move;
//!   levels 1–6 choose among near-best moves, see [`EngineOptions::level`]), or instead a fixed
//!   time per move at full strength ([`Opponent::movetime_ms`], `crown play --movetime`).
//! - **Clock**: in a timed game the clock of the side to move is a further limit: the engine allots
//!   itself a share of it ([`Limits::clock`]); the level's caps still apply.
//! - **Opening book**: on by default: while the position is in the embedded book the opponent
//!   answers at once with a book move ([`crate::Engine::set_book`]).
//! - **Endgame databases**: used at every node from level [`crate::TABLES_FROM_LEVEL`] up; the
//!   levels below use them only to convert a database win ([`EngineOptions::level`]).
//! - **Advice** (hints, judging a draw offer) is full strength, without the book, for a fixed time
//!   ([`HINT_MOVETIME_MS`], [`DRAW_JUDGEMENT_MOVETIME_MS`]).
//! - **Draw offers**: the opponent accepts when it is losing or when the game is level after the
//!   opening ([`Opponent::accepts_draw`]).
//! - **Resignation**: the opponent never resigns; it plays every game to its end.
//!
//! ```
//! use crown_ai::{Clock, Opponent, Score};
//!
//! let opponent = Opponent::new(3);
//! let limits = opponent.limits(Some(Clock { remaining_ms: 60_000, increment_ms: 1_000 }));
//! assert_eq!(limits.depth, Some(3));
//! assert!(limits.clock.is_some());
//! assert!(Opponent::accepts_draw(Score::Value(-40), 12));
//! assert!(!Opponent::accepts_draw(Score::Value(0), 12));
//! ```

use crate::{Clock, EndgameTables, Engine, EngineOptions, Limits, Score, SearchRequest};
use std::fmt;
use std::sync::Arc;

/// Time in ms of a hint search (full strength, no book).
pub const HINT_MOVETIME_MS: u64 = 1000;

/// Time in ms of the search that judges a draw offer (full strength, no book).
pub const DRAW_JUDGEMENT_MOVETIME_MS: u64 = 700;

/// The opponent accepts a draw when its evaluation is at least this far behind, in centi-men
/// (a quarter of a man).
pub const DRAW_ACCEPT_BEHIND_CENTI: i32 = 25;

/// The opponent accepts a draw in a level position: an evaluation within this many centi-men of 0
/// ([`DRAW_ACCEPT_LEVEL_AFTER_PLIES`] into the game).
pub const DRAW_ACCEPT_LEVEL_CENTI: i32 = 10;

/// The number of plies played before the opponent takes a draw in a level position.
pub const DRAW_ACCEPT_LEVEL_AFTER_PLIES: usize = 40;

/// The engine as an opponent: its strength, opening book and endgame databases, and how they
/// become search limits (see the [module documentation](self) for the rules).
#[derive(Clone)]
pub struct Opponent {
    /// Casual level 1 (weakest) to 10 (strongest); [`Opponent::new`] clamps it.
    pub level: u8,
    /// A fixed time per move in ms at full strength instead of the level (`None`: play the level).
    pub movetime_ms: Option<u64>,
    /// Play from the embedded opening book while the position is in it.
    pub book: bool,
    /// The endgame databases to probe, if any (shared by every engine that plays this opponent).
    pub tables: Option<Arc<dyn EndgameTables>>,
}

impl fmt::Debug for Opponent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Opponent")
            .field("level", &self.level)
            .field("movetime_ms", &self.movetime_ms)
            .field("book", &self.book)
            .field("tables", &self.tables.is_some())
            .finish()
    }
}

impl Opponent {
    /// The opponent of casual `level` (clamped to 1–10), with the opening book on and no endgame
    /// databases.
    pub fn new(level: u8) -> Opponent {
        Opponent {
            level: level.clamp(crate::level::MIN_LEVEL, crate::level::MAX_LEVEL),
            movetime_ms: None,
            book: true,
            tables: None,
        }
    }

    /// The same opponent with the opening book on or off.
    #[must_use]
    pub fn with_book(mut self, on: bool) -> Opponent {
        self.book = on;
        self
    }

    /// The same opponent with these endgame databases (or none).
    #[must_use]
    pub fn with_tables(mut self, tables: Option<Arc<dyn EndgameTables>>) -> Opponent {
        self.tables = tables;
        self
    }

    /// The same opponent playing `Some(ms)` per move at full strength instead of its level
    /// (`None`: back to the level).
    #[must_use]
    pub fn with_movetime(mut self, movetime_ms: Option<u64>) -> Opponent {
        self.movetime_ms = movetime_ms;
        self
    }

    /// The casual level its searches run at ([`EngineOptions::level`], [`SearchRequest::level`]):
    /// `None` (full strength) when it plays a fixed time per move.
    pub fn search_level(&self) -> Option<u8> {
        match self.movetime_ms {
            Some(_) => None,
            None => Some(self.level),
        }
    }

    /// The limits of the opponent's own move: the level's caps ([`Limits::level`]) or the fixed
    /// time, and the clock of the side to move when the game is timed.
    pub fn limits(&self, clock: Option<Clock>) -> Limits {
        let mut limits = match self.movetime_ms {
            Some(ms) => Limits::movetime(ms),
            None => Limits::level(self.level),
        };
        limits.clock = clock;
        limits
    }

    /// The search of the opponent's own move for an engine [`crate::Session`] or
    /// [`crate::search_now`]: [`Opponent::limits`] at [`Opponent::search_level`], named `id`.
    pub fn request(&self, id: u64, clock: Option<Clock>) -> SearchRequest {
        SearchRequest {
            id,
            limits: self.limits(clock),
            level: self.search_level(),
        }
    }

    /// Engine options for this opponent: `hash_mib` MiB of hash (0 = default), `threads` threads
    /// (0 = 1), at [`Opponent::search_level`].
    pub fn engine_options(&self, hash_mib: usize, threads: usize) -> EngineOptions {
        EngineOptions {
            hash_mib,
            threads,
            level: self.search_level(),
        }
    }

    /// Set `engine` up to play this opponent: its databases, its book and its level.
    pub fn prepare(&self, engine: &mut Engine) {
        engine.set_tables(self.tables.clone());
        engine.set_book(self.book);
        engine.set_level(self.search_level());
    }

    /// A new engine playing this opponent ([`Opponent::engine_options`], then
    /// [`Opponent::prepare`]).
    pub fn engine(&self, hash_mib: usize, threads: usize) -> Engine {
        let mut engine = Engine::new(self.engine_options(hash_mib, threads));
        self.prepare(&mut engine);
        engine
    }

    /// The limits of a hint for the player: full strength for [`HINT_MOVETIME_MS`].
    pub fn hint_limits() -> Limits {
        Limits::movetime(HINT_MOVETIME_MS)
    }

    /// The limits of the search that judges a draw offer: full strength for
    /// [`DRAW_JUDGEMENT_MOVETIME_MS`].
    pub fn draw_judgement_limits() -> Limits {
        Limits::movetime(DRAW_JUDGEMENT_MOVETIME_MS)
    }

    /// Whether the opponent accepts a draw offer, given its own evaluation of the position
    /// (`engine_view`, from the opponent's side) after `plies` plies of the game: it accepts when
    /// it is losing (a forced or database loss, or at least [`DRAW_ACCEPT_BEHIND_CENTI`] behind),
    /// or when the position is level (within [`DRAW_ACCEPT_LEVEL_CENTI`]) after
    /// [`DRAW_ACCEPT_LEVEL_AFTER_PLIES`] plies; never when it sees a win.
    pub fn accepts_draw(engine_view: Score, plies: usize) -> bool {
        match engine_view {
            Score::Loss(_) | Score::DatabaseLoss(_) => true,
            Score::Win(_) | Score::DatabaseWin(_) => false,
            Score::Value(v) => {
                v <= -DRAW_ACCEPT_BEHIND_CENTI
                    || (v.abs() <= DRAW_ACCEPT_LEVEL_CENTI
                        && plies >= DRAW_ACCEPT_LEVEL_AFTER_PLIES)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_level_becomes_its_caps_and_the_clock() {
        let o = Opponent::new(5);
        assert_eq!(o.limits(None), Limits::level(5));
        let clock = Clock {
            remaining_ms: 30_000,
            increment_ms: 500,
        };
        let l = o.limits(Some(clock));
        assert_eq!(l.clock, Some(clock));
        assert_eq!(l.depth, Limits::level(5).depth);
        let r = o.request(9, Some(clock));
        assert_eq!((r.id, r.level), (9, Some(5)));
        assert_eq!(r.limits, l);
        assert_eq!(Opponent::new(0).level, 1);
        assert_eq!(Opponent::new(12).level, 10);
    }

    #[test]
    fn a_fixed_time_plays_full_strength() {
        let o = Opponent::new(6).with_movetime(Some(250));
        assert_eq!(o.limits(None), Limits::movetime(250));
        assert_eq!(o.search_level(), None);
        assert_eq!(o.engine_options(64, 1).level, None);
        let e = o.clone().with_book(false).engine(1, 1);
        assert!(!e.book());
        assert_eq!(e.options().level, None);
        assert_eq!(Opponent::new(6).engine(1, 1).options().level, Some(6));
    }

    #[test]
    fn the_draw_rule() {
        assert!(Opponent::accepts_draw(Score::Loss(9), 2));
        assert!(Opponent::accepts_draw(Score::DatabaseLoss(30), 2));
        assert!(!Opponent::accepts_draw(Score::Win(3), 100));
        assert!(!Opponent::accepts_draw(Score::DatabaseWin(3), 100));
        assert!(Opponent::accepts_draw(Score::Value(-25), 0));
        assert!(!Opponent::accepts_draw(Score::Value(-24), 39));
        assert!(Opponent::accepts_draw(Score::Value(10), 40));
        assert!(Opponent::accepts_draw(Score::Value(-10), 40));
        assert!(!Opponent::accepts_draw(Score::Value(11), 40));
        assert!(!Opponent::accepts_draw(Score::Value(0), 39));
    }
}
