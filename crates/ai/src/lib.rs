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
//!   tables learnt from self-play, the default of every game; trained by [`train`] and `crown tune`).
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

pub mod bench;
pub mod book;
#[cfg(feature = "dataset")]
pub mod dataset;
pub mod eval;
pub mod level;
pub mod opponent;
pub mod puzzle;
pub mod puzzle_session;
pub mod review;
mod search;
pub mod session;
pub mod tables;
pub mod train;
mod tt;

/// The evaluations' board view, [`eval::board`].
use eval::board;
/// The trained evaluation, [`eval::trained`] (its historical path).
pub use eval::trained;

use crown_core::Move;
use std::fmt;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

pub use opponent::Opponent;
pub use search::MAX_PLY;
pub use session::{search_now, SearchKey, SearchRequest, Searcher, Session, SessionEvent};
pub use tables::{EndgameTables, TableProbe, Wdl};

/// A chess-style clock for the side to move.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock of the side to move, in ms.
    pub remaining_ms: u64,
    /// Time added after each move, in ms.
    pub increment_ms: u64,
}

/// What bounds a search. Every limit that is set applies; the search stops at the first one reached.
/// With nothing set (and `infinite` false) the search runs to [`MAX_PLY`] or until stopped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum nominal depth in plies.
    pub depth: Option<u32>,
    /// Maximum nodes (positions visited), summed over threads.
    pub nodes: Option<u64>,
    /// Time for this move in ms.
    pub movetime_ms: Option<u64>,
    /// The clock of the side to move: the engine allots itself a share of it.
    pub clock: Option<Clock>,
    /// Search until the stop flag is set (other limits are ignored).
    pub infinite: bool,
}

impl Limits {
    /// Search to a fixed depth in plies.
    pub fn depth(plies: u32) -> Limits {
        Limits {
            depth: Some(plies),
            ..Limits::default()
        }
    }

    /// Search for a fixed time in ms.
    pub fn movetime(ms: u64) -> Limits {
        Limits {
            movetime_ms: Some(ms),
            ..Limits::default()
        }
    }

    /// The search caps of a casual level 1–10 (values outside are clamped): depth caps of 1, 2, 3,
    /// 4, 6, 8, 10, 14 plies for levels 1–8 and time caps of 100, 200, 300, 400, 500, 700, 1000,
    /// 1500, 2000 and 3000 ms. For the randomness of the low levels, also set
    /// [`EngineOptions::level`] (or [`Engine::set_level`]).
    pub fn level(level: u8) -> Limits {
        let l = level.clamp(1, 10) as usize;
        const DEPTH: [Option<u32>; 10] = [
            Some(1),
            Some(2),
            Some(3),
            Some(4),
            Some(6),
            Some(8),
            Some(10),
            Some(14),
            None,
            None,
        ];
        const TIME: [u64; 10] = [100, 200, 300, 400, 500, 700, 1000, 1500, 2000, 3000];
        Limits {
            depth: DEPTH[l - 1],
            movetime_ms: Some(TIME[l - 1]),
            ..Limits::default()
        }
    }
}

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

/// Progress after each completed depth of the main search thread.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Completed nominal depth in plies.
    pub depth: u32,
    /// Deepest ply reached (extensions and capture quiescence included).
    pub seldepth: u32,
    /// The mean ply of the positions the main thread evaluated statically (its leaves) during
    /// this depth, in hundredths of a ply (1350 = 13.5 plies); 0 when it evaluated none (a
    /// database or book answer). The Hub protocol's `mean-depth`.
    pub mean_depth_hundredths: u32,
    /// Score of the best move.
    pub score: Score,
    /// Nodes searched so far (all threads).
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Time since the search started, in ms.
    pub time_ms: u64,
    /// The principal variation, starting with the best move.
    pub pv: Vec<Move>,
}

/// The answer of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when the game is over (no legal move).
    pub best_move: Option<Move>,
    /// Its score from the side to move's point of view.
    pub score: Score,
    /// Principal variation starting with `best_move`.
    pub pv: Vec<Move>,
    /// Last completed depth in plies; 0 (with 0 nodes) for a move from the opening book or a
    /// finished game.
    pub depth: u32,
    /// Nodes searched (all threads).
    pub nodes: u64,
    /// Time used in ms.
    pub time_ms: u64,
}

/// Engine settings. Zero values mean defaults: 16 MiB of hash, 1 thread.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineOptions {
    /// Transposition table size in MiB (0 = 16; capped at [`MAX_HASH_MIB`], and halved until the
    /// memory can be allocated).
    pub hash_mib: usize,
    /// Search threads (0 = 1). More than one uses lazy SMP and is not deterministic.
    pub threads: usize,
    /// Casual level 1–10: levels 1–6 pick randomly among moves close to the best (the margin shrinks
    /// with the level) but always play a win in one. Endgame databases: every level plays a
    /// database win by the shortest way (it converts); levels from [`TABLES_FROM_LEVEL`] up use
    /// them everywhere, the beginner levels below only for that (they are meant to be beatable).
    /// `None` (or 7–10) always plays the best move.
    pub level: Option<u8>,
}

/// The lowest casual level ([`EngineOptions::level`]) that uses the endgame databases at every
/// node; every level converts a database win at the root.
pub const TABLES_FROM_LEVEL: u8 = 4;

pub use level::DEFAULT_LEVEL;

/// Switches of single search heuristics, so that each can be measured by SPRT within one build
/// (`crown match` spec keys, see [`SearchTweaks::KEYS`] and [`SearchTweaks::set`]). `None` in a
/// field means the game's default; the defaults are the settings kept by SPRT (docs/engine.md,
/// "Results").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchTweaks {
    /// History malus: each quiet move searched before a quiet cutoff move at a node loses the
    /// cutoff's bonus (depth²) in the history table. Default: on in American and pool checkers,
    /// off in Impasse (SPRT results in docs/engine.md).
    pub history_malus: Option<bool>,
    /// Reverse futility pruning: at a non-PV node 1 to 3 plies from the horizon, with no capture for
    /// either side, the static evaluation minus [`RFP_MARGIN`] per ply of depth at or above beta
    /// ends the node with that value. Default: off.
    pub reverse_futility: Option<bool>,
    /// Futility pruning: at a non-PV node 1 or 2 plies from the horizon, with no capture for either
    /// side, quiet moves after the first are skipped when the static evaluation plus
    /// [`FUTILITY_MARGIN`] per ply of depth is at or below alpha. Default: off.
    pub futility: Option<bool>,
    /// Late-move reductions (`lmr=`): 0 = fixed steps (one ply for quiet moves after the third at
    /// depth ≥ 3, two after the eighth at depth ≥ 6); 1 = those steps adjusted by the move's
    /// history score (one ply more when it is negative, one less when it is above half the
    /// maximum); 2 = `round(ln depth · ln (k + 1) / 2.25)` plies for the `k`-th move (0-based, from
    /// the fourth), one less at PV nodes, adjusted by history as 1. A reduced search keeps at least
    /// one ply. Default: 1 in American checkers (SPRT at 20 ms, with `trunc=100`: +28 Elo) and
    /// pool (alone: +26 Elo), 0 in Impasse.
    pub lmr: Option<u8>,
    /// Material truncation (`trunc=MARGIN`, centi-men; 0 = off), after Cake: at a node where the
    /// material count (man 100, king [`TRUNC_KING_AMERICAN`] or [`TRUNC_KING_POOL`]) of the side
    /// to move is more than MARGIN below alpha or above beta, the remaining depth drops (by
    /// [`SearchTweaks::truncation_depth`]); the depth dropped on the way is given back at the
    /// first node whose material is inside the margin again (so an exchange in progress costs no
    /// depth). Not with 8 pieces or fewer, not in Impasse. Default: 100 in American checkers (SPRT
    /// at 20 ms, with `lmr=1`: +28 Elo), 0 in pool (`trunc=100,lmr=1` −22 where `lmr=1` alone
    /// gains +26: rejected).
    pub truncation: Option<u16>,
    /// How much depth the material truncation takes (`truncd=QUARTERS`, 1 to 8 quarter plies;
    /// Cake takes one and a half plies). Default: 4 (one ply).
    pub truncation_depth: Option<u8>,
    /// The threat extension of the quiescence (`threat=0|1`): at the horizon with no capture for
    /// the side to move but one for the opponent, every move is searched one more ply. Default: on.
    pub threat_extension: Option<bool>,
    /// Threat extension margin (`tmargin=MARGIN`, centi-men; 0 = always): extend only when the
    /// static evaluation is within MARGIN of the window, else stand pat (Cake's `QLEVEL`).
    /// Default: 0.
    pub threat_margin: Option<u16>,
    /// Single-reply extension (`ext=0|1|2`): a node with one legal move costs no depth (1), half a
    /// ply (2) or a full ply (0: no extension). Default: 1.
    pub single_reply: Option<u8>,
    /// Internal iterative reduction (`iir=0|1`): a node of depth ≥ 4 with no move from the
    /// transposition table is searched one ply shallower. Default: off.
    pub iir: Option<bool>,
    /// Aspiration window half-width (`asp=CENTI`, 5 to 500) from depth 5. Default: 30.
    pub aspiration: Option<u16>,
    /// ProbCut (`probcut=0|1`, after Buro): at a non-PV node of depth ≥ 5 a null-window search
    /// [`PROBCUT_REDUCTION`] plies shallower around beta + [`PROBCUT_MARGIN`] that fails high ends
    /// the node. Default: off.
    pub probcut: Option<bool>,
    /// Multi-cut (`mc=0|1`, after Björnsson and Marsland): at a non-PV node of depth ≥ 6 the first
    /// six moves are searched [`MULTICUT_REDUCTION`] plies shallower with a null window at beta;
    /// when three of them fail high the node returns beta. Default: off.
    pub multicut: Option<bool>,
    /// Late-move pruning (`lmp=0|1`): at a non-PV node at most 3 plies from the horizon with no
    /// capture or threat, quiet moves after the first `3 + d²` (`d` = plies left) are skipped.
    /// Default: off.
    pub lmp: Option<bool>,
    /// Enhanced transposition cutoffs (`etc=0|1`): at a non-PV node of depth ≥ 3, before the
    /// moves are searched, a child whose stored result (deep enough, not a lower bound) already
    /// scores at or above beta for this node ends it. Default: off.
    pub etc: Option<bool>,
    /// Impasse crown quiescence (`cq=0|1|2`): at the horizon, when the side to move can crown (1)
    /// or crown or bear off (2), it may stand pat on the static evaluation or make one of those
    /// moves, and so on until neither side has one (at most [`CROWN_QUIESCENCE_PLIES`] plies), so
    /// that a leaf does not hide a crown the opponent makes next. Not in checkers. Default: 0.
    pub crown_quiescence: Option<u8>,
}

/// How many plies the Impasse crown quiescence ([`SearchTweaks::crown_quiescence`]) may go
/// beyond the horizon.
pub const CROWN_QUIESCENCE_PLIES: i32 = 8;

/// A spec key of [`SearchTweaks::set`] that does not exist or a value out of its range.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TweakError {
    /// No switch has this key (the keys are [`SearchTweaks::KEYS`]).
    UnknownKey(String),
    /// The value is outside the switch's range `lo..=hi`.
    OutOfRange {
        /// The key.
        key: &'static str,
        /// The value given.
        value: u64,
        /// The least value allowed.
        lo: u64,
        /// The greatest value allowed.
        hi: u64,
    },
}

impl fmt::Display for TweakError {
    /// `unknown search switch 'KEY'`, `KEY VALUE is not LO to HI`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TweakError::UnknownKey(k) => write!(f, "unknown search switch '{k}'"),
            TweakError::OutOfRange { key, value, lo, hi } => {
                write!(f, "{key} {value} is not {lo} to {hi}")
            }
        }
    }
}

impl std::error::Error for TweakError {}

impl SearchTweaks {
    /// The spec key of each switch with its range (`crown match --engine-a KEY=VALUE`), in the
    /// order `crown match --help` lists them.
    pub const KEYS: &'static [(&'static str, u64, u64)] = &[
        ("malus", 0, 1),
        ("rfp", 0, 1),
        ("futility", 0, 1),
        ("lmr", 0, 2),
        ("trunc", 0, 1000),
        ("truncd", 1, 8),
        ("threat", 0, 1),
        ("tmargin", 0, 1000),
        ("ext", 0, 2),
        ("iir", 0, 1),
        ("asp", 5, 500),
        ("probcut", 0, 1),
        ("mc", 0, 1),
        ("lmp", 0, 1),
        ("etc", 0, 1),
        ("cq", 0, 2),
    ];

    /// Set the switch named by spec key `key` (one of [`SearchTweaks::KEYS`]) to `value`
    /// (0 = off, 1 = on for the on/off switches).
    ///
    /// # Errors
    /// [`TweakError::UnknownKey`] when no switch has that key, [`TweakError::OutOfRange`] when
    /// `value` is outside the key's range.
    pub fn set(&mut self, key: &str, value: u64) -> Result<(), TweakError> {
        let Some(&(name, lo, hi)) = Self::KEYS.iter().find(|(k, _, _)| *k == key) else {
            return Err(TweakError::UnknownKey(key.to_string()));
        };
        if !(lo..=hi).contains(&value) {
            return Err(TweakError::OutOfRange {
                key: name,
                value,
                lo,
                hi,
            });
        }
        let on = value == 1;
        // In range, so each value fits its field.
        let small = value as u16;
        match name {
            "malus" => self.history_malus = Some(on),
            "rfp" => self.reverse_futility = Some(on),
            "futility" => self.futility = Some(on),
            "lmr" => self.lmr = Some(value as u8),
            "trunc" => self.truncation = Some(small),
            "truncd" => self.truncation_depth = Some(value as u8),
            "threat" => self.threat_extension = Some(on),
            "tmargin" => self.threat_margin = Some(small),
            "ext" => self.single_reply = Some(value as u8),
            "iir" => self.iir = Some(on),
            "asp" => self.aspiration = Some(small),
            "probcut" => self.probcut = Some(on),
            "mc" => self.multicut = Some(on),
            "lmp" => self.lmp = Some(on),
            "cq" => self.crown_quiescence = Some(value as u8),
            _ => self.etc = Some(on),
        }
        Ok(())
    }

    /// The setting of each switch in `variant`: the field when set, else the game's default.
    pub(crate) fn resolve(&self, variant: crown_core::Variant) -> Tweaks {
        Tweaks {
            history_malus: self.history_malus.unwrap_or(variant.is_draughts()),
            reverse_futility: self.reverse_futility.unwrap_or(false),
            futility: self.futility.unwrap_or(false),
            lmr: self.lmr.unwrap_or(u8::from(variant.is_draughts())),
            truncation: match variant {
                crown_core::Variant::American => i32::from(self.truncation.unwrap_or(100)),
                crown_core::Variant::Pool => i32::from(self.truncation.unwrap_or(0)),
                crown_core::Variant::Impasse => 0,
            },
            threat_extension: self.threat_extension.unwrap_or(true),
            threat_margin: i32::from(self.threat_margin.unwrap_or(0)),
            truncation_depth: i32::from(self.truncation_depth.unwrap_or(4)),
            single_reply: match self.single_reply.unwrap_or(1) {
                0 => 0,
                2 => search::PLY / 2,
                _ => search::PLY,
            },
            iir: self.iir.unwrap_or(false),
            aspiration: i32::from(self.aspiration.unwrap_or(30)),
            probcut: self.probcut.unwrap_or(false),
            multicut: self.multicut.unwrap_or(false),
            lmp: self.lmp.unwrap_or(false),
            etc: self.etc.unwrap_or(false),
            crown_quiescence: match variant {
                crown_core::Variant::Impasse => self.crown_quiescence.unwrap_or(0),
                _ => 0,
            },
        }
    }
}

/// Reverse futility margin in centi-men per ply of remaining depth ([`SearchTweaks::reverse_futility`]).
pub const RFP_MARGIN: i32 = 80;
/// Futility margin in centi-men per ply of remaining depth ([`SearchTweaks::futility`]).
pub const FUTILITY_MARGIN: i32 = 100;
/// A king's worth in centi-men for the material count of [`SearchTweaks::truncation`] in American
/// checkers (Cake counts 130).
pub const TRUNC_KING_AMERICAN: i32 = 130;
/// A king's worth in centi-men for the material count of [`SearchTweaks::truncation`] in pool
/// checkers (flying kings).
pub const TRUNC_KING_POOL: i32 = 300;
/// How many plies shallower the ProbCut search is ([`SearchTweaks::probcut`]).
pub const PROBCUT_REDUCTION: i32 = 4;
/// How far above beta the ProbCut search looks, in centi-men ([`SearchTweaks::probcut`]).
pub const PROBCUT_MARGIN: i32 = 100;
/// How many plies shallower the multi-cut searches are ([`SearchTweaks::multicut`]).
pub const MULTICUT_REDUCTION: i32 = 3;

/// The switches of [`SearchTweaks`] with every default filled in for one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Tweaks {
    pub(crate) history_malus: bool,
    pub(crate) reverse_futility: bool,
    pub(crate) futility: bool,
    pub(crate) lmr: u8,
    /// Margin in centi-men; 0 = off.
    pub(crate) truncation: i32,
    pub(crate) threat_extension: bool,
    /// Margin in centi-men; 0 = always extend.
    pub(crate) threat_margin: i32,
    /// In quarter plies ([`search::PLY`] = one ply).
    pub(crate) truncation_depth: i32,
    /// The single-reply extension in quarter plies.
    pub(crate) single_reply: i32,
    pub(crate) iir: bool,
    /// Half-width in centi-men.
    pub(crate) aspiration: i32,
    pub(crate) probcut: bool,
    pub(crate) multicut: bool,
    pub(crate) lmp: bool,
    pub(crate) etc: bool,
    /// 0 = off, 1 = crowns, 2 = crowns and bear-offs (Impasse only).
    pub(crate) crown_quiescence: u8,
}

/// Default transposition table size in MiB.
pub const DEFAULT_HASH_MIB: usize = 16;

/// Largest transposition table in MiB (4 GiB): larger requests are capped to it. When even that
/// much memory cannot be allocated, the engine halves the size until it can ([`Engine::hash_mib`]
/// gives the size obtained), so a large request never aborts the process.
pub const MAX_HASH_MIB: usize = 4096;

/// The engine: owns its transposition table and history, reusable across the moves of a game.
/// It is `Send + 'static`, so a front end can move it to a worker thread.
pub struct Engine {
    options: EngineOptions,
    tt: tt::Table,
    rng: crown_core::rng::Rng,
    tables: Option<Arc<dyn EndgameTables>>,
    /// The evaluation chosen with [`Engine::set_eval`]; `None` = the game's default.
    eval: Option<eval::EvalKind>,
    /// Trained weights loaded at run time ([`Engine::set_weights`]); they replace the evaluation
    /// for their own game.
    weights: Option<Arc<trained::Weights>>,
    /// The search switches chosen with [`Engine::set_tweaks`].
    tweaks: SearchTweaks,
    /// Whether [`Engine::search`] plays from the embedded opening book ([`Engine::set_book`]).
    book: bool,
}

impl Engine {
    /// A new engine with `options` (zero values mean defaults, see [`EngineOptions`]).
    pub fn new(options: EngineOptions) -> Engine {
        let mib = if options.hash_mib == 0 {
            DEFAULT_HASH_MIB
        } else {
            options.hash_mib
        };
        let seed = web_time::SystemTime::now()
            .duration_since(web_time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0x9e37_79b9_7f4a_7c15);
        Engine {
            tt: tt::Table::new(mib),
            options,
            rng: crown_core::rng::Rng::new(seed),
            tables: None,
            eval: None,
            weights: None,
            tweaks: SearchTweaks::default(),
            book: false,
        }
    }

    /// Use these endgame databases (or none) from the next search on: the search probes them at
    /// the root and at every node with at most [`EndgameTables::max_pieces`] pieces (see
    /// `docs/engine.md`). One loaded set can be shared by many engines. Casual levels below
    /// [`TABLES_FROM_LEVEL`] use them only to convert a database win (see
    /// [`EngineOptions::level`]).
    pub fn set_tables(&mut self, tables: Option<Arc<dyn EndgameTables>>) {
        self.tables = tables;
    }

    /// The endgame databases in use, if any.
    pub fn tables(&self) -> Option<&Arc<dyn EndgameTables>> {
        self.tables.as_ref()
    }

    /// The options in force.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    /// Change the casual level (see [`EngineOptions::level`]).
    pub fn set_level(&mut self, level: Option<u8>) {
        self.options.level = level;
    }

    /// Change the number of threads (0 = 1).
    pub fn set_threads(&mut self, threads: usize) {
        self.options.threads = threads;
    }

    /// The size of the transposition table actually allocated, in MiB (rounded down): less than
    /// asked when the request was above [`MAX_HASH_MIB`] or the memory was not available.
    pub fn hash_mib(&self) -> usize {
        self.tt.mib()
    }

    /// Resize (and clear) the transposition table, in MiB (0 = default; capped and halved as in
    /// [`EngineOptions::hash_mib`]).
    pub fn set_hash_mib(&mut self, mib: usize) {
        self.options.hash_mib = mib;
        self.tt = tt::Table::new(if mib == 0 { DEFAULT_HASH_MIB } else { mib });
    }

    /// Choose the evaluation: `Some(kind)`, or `None` for each game's default
    /// ([`eval::EvalKind::default_for`]).
    pub fn set_eval(&mut self, kind: Option<eval::EvalKind>) {
        self.eval = kind;
    }

    /// Evaluate with these trained weights (e.g. a file written by `crown tune fit` and read with
    /// [`trained::Weights::from_bytes`]) in games of their variant ([`trained::Weights::variant`]),
    /// whatever [`Engine::set_eval`] says; other games keep their evaluation. `None` goes back to
    /// the embedded evaluations. Used to test new weights against the embedded ones without a
    /// rebuild (`crown match --engine-a weights=FILE`).
    pub fn set_weights(&mut self, weights: Option<Arc<trained::Weights>>) {
        self.weights = weights;
    }

    /// The evaluation chosen with [`Engine::set_eval`] (`None`: each game's default).
    pub fn eval_kind(&self) -> Option<eval::EvalKind> {
        self.eval
    }

    /// Switch single search heuristics on or off (see [`SearchTweaks`]; the default value keeps
    /// each game's defaults).
    pub fn set_tweaks(&mut self, tweaks: SearchTweaks) {
        self.tweaks = tweaks;
    }

    /// The search switches chosen with [`Engine::set_tweaks`].
    pub fn tweaks(&self) -> SearchTweaks {
        self.tweaks
    }

    /// Seed the random choices of the low levels (for reproducible tests).
    pub fn set_seed(&mut self, seed: u64) {
        self.rng = crown_core::rng::Rng::new(seed);
    }

    /// Forget everything learnt (transposition table) before a new game.
    pub fn new_game(&mut self) {
        self.tt.clear();
    }

    /// Search the current position of `game` within `limits`. Another thread may set `stop` to end
    /// the search early; `on_info` is called after each completed depth. Always returns a legal
    /// best move unless the game is over.
    pub fn search(
        &mut self,
        game: &crown_core::Game,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.tt.new_search();
        search::run(self, game, limits, stop, on_info)
    }

    fn next_random(&mut self) -> u64 {
        self.rng.next_u64()
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

    #[test]
    fn engine_is_send_and_static() {
        fn check<T: Send + 'static>() {}
        check::<Engine>();
    }
}

/// The README example, compiled and run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
