//! The engine ([`Engine`]): its options, its transposition table and random generator, the
//! evaluation, databases and switches it searches with, and what a search reports.

use crate::eval::{self, trained};
use crate::score::Score;
use crate::tweaks::SearchTweaks;
use crate::{search, tt, EndgameTables, Limits};
use crown_core::Move;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

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

/// Default transposition table size in MiB.
pub const DEFAULT_HASH_MIB: usize = 16;

/// Largest transposition table in MiB (4 GiB): larger requests are capped to it. When even that
/// much memory cannot be allocated, the engine halves the size until it can ([`Engine::hash_mib`]
/// gives the size obtained), so a large request never aborts the process.
pub const MAX_HASH_MIB: usize = 4096;

/// The engine: owns its transposition table and history, reusable across the moves of a game.
/// It is `Send + 'static`, so a front end can move it to a worker thread.
pub struct Engine {
    pub(crate) options: EngineOptions,
    pub(crate) tt: tt::Table,
    pub(crate) rng: crown_core::rng::Rng,
    pub(crate) tables: Option<Arc<dyn EndgameTables>>,
    /// The evaluation chosen with [`Engine::set_eval`]; `None` = the game's default.
    pub(crate) eval: Option<eval::EvalKind>,
    /// Trained weights loaded at run time ([`Engine::set_weights`]); they replace the evaluation
    /// for their own game.
    pub(crate) weights: Option<Arc<trained::Weights>>,
    /// The network of [`Engine::set_network`], used with [`eval::EvalKind::Network`] in its game.
    pub(crate) network: Option<Arc<eval::network::Network>>,
    /// The search switches chosen with [`Engine::set_tweaks`].
    pub(crate) tweaks: SearchTweaks,
    /// Whether [`Engine::search`] plays from the embedded opening book ([`Engine::set_book`]).
    pub(crate) book: bool,
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
            network: None,
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

    /// Evaluate with this network ([`eval::network`], e.g. read from a file written by
    /// `tools/train/nnue.py`) when the evaluation is [`eval::EvalKind::Network`] ([`Engine::set_eval`])
    /// and the game is the network's; otherwise the search evaluates as without it. `None` drops it.
    pub fn set_network(&mut self, network: Option<Arc<eval::network::Network>>) {
        self.network = network;
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

    pub(crate) fn next_random(&mut self) -> u64 {
        self.rng.next_u64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_is_send_and_static() {
        fn check<T: Send + 'static>() {}
        check::<Engine>();
    }
}
