//! The fixed benchmark: a fixed-depth search over fixed positions of all three games. Its total node
//! count is a signature of the search: any change in search behaviour changes it.

use crate::{Engine, EngineOptions, Limits};
use crown_core::{Game, Position, Variant};
use std::sync::atomic::AtomicBool;
use web_time::Instant;

/// The benchmark positions: (variant, PDN FEN, depth in plies).
pub const BENCH_POSITIONS: &[(Variant, &str, u32)] = &[
    (Variant::American, "B:W21-32:B1-12", 11),
    (
        Variant::American,
        "B:W19,23,22,21,27,26,25,32,31,30,29:B4,3,2,1,8,7,6,5,12,10,15",
        11,
    ),
    (Variant::American, "B:W18,19,25,29,30:B1,4,8,10,11", 13),
    (Variant::American, "W:WK14,K22,25,30:BK1,6,9,10", 13),
    (Variant::Pool, "B:W21-32:B1-12", 11),
    (
        Variant::Pool,
        "B:W19,23,22,21,27,26,25,32,31,30,29:B4,3,2,1,8,7,6,5,12,10,15",
        11,
    ),
    (Variant::Pool, "B:WK18,24,28,31:BK3,5,9,12", 9),
    (Variant::Impasse, "W:W21-32:B1-12", 9),
    (
        Variant::Impasse,
        "W:W17,K22,25,26,27,K23,31:B2,K11,5,K8,9,10",
        9,
    ),
];

/// Result of one benchmark position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchLine {
    /// The game.
    pub variant: Variant,
    /// The position in PDN FEN.
    pub fen: &'static str,
    /// Depth searched, in plies.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time in ms.
    pub time_ms: u64,
    /// Best move in Crown's notation.
    pub best_move: String,
}

/// Run the benchmark, one thread, 16 MiB hash, a fresh engine per position (so it is deterministic).
/// `depth_offset` is added to every depth (e.g. −2 for a quick check). Calls `on_line` per position.
pub fn bench(depth_offset: i32, on_line: &mut dyn FnMut(&BenchLine)) -> Vec<BenchLine> {
    bench_with(depth_offset, None, on_line)
}

/// [`bench`] with evaluation `eval` (`None`: each game's default, as [`bench`]).
pub fn bench_with(
    depth_offset: i32,
    eval: Option<crate::eval::EvalKind>,
    on_line: &mut dyn FnMut(&BenchLine),
) -> Vec<BenchLine> {
    let mut out = Vec::new();
    for &(variant, fen, depth) in BENCH_POSITIONS {
        let Ok(pos) = Position::from_fen(variant, fen) else {
            continue;
        };
        let depth = (depth as i32 + depth_offset).max(1) as u32;
        let game = Game::from_position(pos);
        let mut engine = Engine::new(EngineOptions {
            hash_mib: 16,
            threads: 1,
            level: None,
        });
        engine.set_eval(eval);
        let stop = AtomicBool::new(false);
        let start = Instant::now();
        let r = engine.search(&game, &Limits::depth(depth), &stop, &mut |_| {});
        let line = BenchLine {
            variant,
            fen,
            depth,
            nodes: r.nodes,
            time_ms: start.elapsed().as_millis() as u64,
            best_move: r.best_move.map(|m| pos.move_text(&m)).unwrap_or_default(),
        };
        on_line(&line);
        out.push(line);
    }
    out
}
