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
    bench_with_network(depth_offset, eval, None, on_line)
}

/// [`bench_with`] with a network ([`crate::Engine::set_network`]): with
/// `eval = Some(EvalKind::Network)` its game's positions are evaluated by it, the others as
/// without it.
pub fn bench_with_network(
    depth_offset: i32,
    eval: Option<crate::eval::EvalKind>,
    network: Option<std::sync::Arc<crate::eval::network::Network>>,
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
        engine.set_network(network.clone());
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

/// One position of the depth benchmark ([`depth_bench`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DepthLine {
    /// The last completed depth, in plies.
    pub depth: u32,
    /// The deepest ply reached (extensions and capture quiescence included).
    pub seldepth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time the search took, in µs.
    pub time_us: u64,
}

/// Search each of `positions` within `limits` with a fresh engine (one thread, 16 MiB hash, no
/// opening book, no endgame databases, the game's default evaluation, search switches `tweaks`),
/// as `crown bench depth` does; calls `on_line` with each position's index and result. With a
/// depth or node limit alone the results are deterministic.
pub fn depth_bench(
    positions: &[Position],
    limits: &Limits,
    tweaks: crate::SearchTweaks,
    on_line: &mut dyn FnMut(usize, &DepthLine),
) -> Vec<DepthLine> {
    let stop = AtomicBool::new(false);
    let mut out = Vec::with_capacity(positions.len());
    for (i, &pos) in positions.iter().enumerate() {
        let mut engine = Engine::new(EngineOptions {
            hash_mib: 16,
            threads: 1,
            level: None,
        });
        engine.set_tweaks(tweaks);
        let game = Game::from_position(pos);
        let mut seldepth = 0;
        let start = Instant::now();
        let r = engine.search(&game, limits, &stop, &mut |info| seldepth = info.seldepth);
        let line = DepthLine {
            depth: r.depth,
            seldepth,
            nodes: r.nodes,
            time_us: start.elapsed().as_micros() as u64,
        };
        on_line(i, &line);
        out.push(line);
    }
    out
}

/// The summary of a depth benchmark: depths, node rate.
#[derive(Clone, Debug, PartialEq)]
pub struct DepthSummary {
    /// Positions searched.
    pub positions: usize,
    /// Mean completed depth, in plies.
    pub mean_depth: f64,
    /// Median completed depth, in plies (the mean of the two middle ones for an even count).
    pub median_depth: f64,
    /// Least completed depth.
    pub min_depth: u32,
    /// Greatest completed depth.
    pub max_depth: u32,
    /// Mean deepest ply reached.
    pub mean_seldepth: f64,
    /// Mean nodes per position.
    pub mean_nodes: f64,
    /// Nodes per second over all positions (total nodes / total time; 0 when no time was measured).
    pub nps: u64,
}

impl DepthSummary {
    /// The summary of `lines`; `None` for no line.
    pub fn of(lines: &[DepthLine]) -> Option<DepthSummary> {
        if lines.is_empty() {
            return None;
        }
        let n = lines.len() as f64;
        let mut depths: Vec<u32> = lines.iter().map(|l| l.depth).collect();
        depths.sort_unstable();
        let mid = depths.len() / 2;
        let median_depth = if depths.len() % 2 == 1 {
            f64::from(depths[mid])
        } else {
            (f64::from(depths[mid - 1]) + f64::from(depths[mid])) / 2.0
        };
        let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
        let us: u64 = lines.iter().map(|l| l.time_us).sum();
        Some(DepthSummary {
            positions: lines.len(),
            mean_depth: depths.iter().map(|&d| f64::from(d)).sum::<f64>() / n,
            median_depth,
            min_depth: depths[0],
            max_depth: depths[depths.len() - 1],
            mean_seldepth: lines.iter().map(|l| f64::from(l.seldepth)).sum::<f64>() / n,
            mean_nodes: nodes as f64 / n,
            nps: crate::search::nodes_per_second(nodes, std::time::Duration::from_micros(us)),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(depth: u32, nodes: u64, time_us: u64) -> DepthLine {
        DepthLine {
            depth,
            seldepth: depth + 10,
            nodes,
            time_us,
        }
    }

    /// Mean, median (odd and even counts), extremes and the node rate of total nodes over total
    /// time, computed by hand.
    #[test]
    fn depth_summary() {
        assert_eq!(DepthSummary::of(&[]), None);
        let s = DepthSummary::of(&[
            line(12, 1_000, 500),
            line(10, 3_000, 1_500),
            line(17, 2_000, 1_000),
        ])
        .unwrap();
        assert_eq!(s.positions, 3);
        assert_eq!(s.mean_depth, 13.0);
        assert_eq!(s.median_depth, 12.0);
        assert_eq!((s.min_depth, s.max_depth), (10, 17));
        assert_eq!(s.mean_seldepth, 23.0);
        assert_eq!(s.mean_nodes, 2_000.0);
        // 6,000 nodes in 3 ms.
        assert_eq!(s.nps, 2_000_000);
        let s = DepthSummary::of(&[
            line(9, 1, 1),
            line(12, 1, 1),
            line(10, 1, 1),
            line(15, 1, 1),
        ])
        .unwrap();
        assert_eq!(s.median_depth, 11.0);
    }

    /// With a node budget the depth bench is deterministic and keeps to the budget (the search
    /// checks it every 1,024 nodes).
    #[test]
    fn depth_bench_with_nodes_is_deterministic() {
        let positions = [
            Position::new(Variant::American),
            Position::from_fen(Variant::American, BENCH_POSITIONS[1].1).unwrap(),
        ];
        let limits = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        let a = depth_bench(
            &positions,
            &limits,
            crate::SearchTweaks::default(),
            &mut |_, _| {},
        );
        let b = depth_bench(
            &positions,
            &limits,
            crate::SearchTweaks::default(),
            &mut |_, _| {},
        );
        assert_eq!(a.len(), 2);
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(
                (x.depth, x.seldepth, x.nodes),
                (y.depth, y.seldepth, y.nodes)
            );
            assert!(x.nodes >= 20_000 && x.nodes < 20_000 + 1_024, "{x:?}");
            assert!(x.depth >= 1 && x.seldepth >= x.depth, "{x:?}");
        }
    }
}
