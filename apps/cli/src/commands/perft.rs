//! `crown perft`.

use crate::common::PositionArgs;
use crate::CliError;
use clap::Args;
use crown_core::{divide, perft, perft_hashed, PerftConvention, PerftTable, Position};
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `crown perft`.
#[derive(Args, Debug)]
pub struct PerftArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// Depth in plies (complete turns).
    #[arg(long)]
    depth: u32,
    /// List each root move with its count.
    #[arg(long)]
    divide: bool,
    /// Count every capture path separately (the older published tables' convention).
    #[arg(long)]
    count_paths: bool,
    /// Threads that share the root moves.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Use a transposition table of this many MiB per thread (0 = none: pure move-generation speed).
    #[arg(long, default_value_t = 0)]
    hash: usize,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

/// Run `crown perft`.
pub fn run(args: &PerftArgs) -> Result<ExitCode, CliError> {
    let pos = args.pos.position()?;
    if args.threads == 0 || args.threads > 256 {
        return Err(CliError("--threads must be between 1 and 256".into()));
    }
    if args.hash.saturating_mul(args.threads) > 64 * 1024 {
        return Err(CliError(
            "--hash is in MiB per thread; --hash times --threads must be at most 65536".into(),
        ));
    }
    if args.depth > 30 {
        return Err(CliError(
            "--depth above 30 would not finish; pick a smaller depth".into(),
        ));
    }
    let conv = if args.count_paths {
        PerftConvention::Paths
    } else {
        PerftConvention::Distinct
    };
    let start = Instant::now();
    let (nodes, per_move) = if args.depth == 0 {
        (1, Vec::new())
    } else {
        let split = divide_threads(&pos, args.depth, conv, args.threads, args.hash);
        (split.iter().map(|x| x.1).sum(), split)
    };
    let secs = start.elapsed().as_secs_f64();
    let nps = if secs > 0.0 { nodes as f64 / secs } else { 0.0 };
    if args.json {
        let mut obj = serde_json::json!({
            "variant": pos.variant().id(),
            "fen": pos.to_fen(),
            "depth": args.depth,
            "nodes": nodes,
            "seconds": secs,
            "nodes_per_second": nps.round(),
        });
        if args.divide {
            obj["divide"] = per_move
                .iter()
                .map(|(text, n)| serde_json::json!({"move": text, "nodes": n}))
                .collect();
        }
        println!("{obj}");
    } else {
        if args.divide {
            for (text, n) in &per_move {
                println!("{text:<14} {n}");
            }
        }
        println!(
            "perft {} depth {}: {} nodes in {:.3} s ({:.1} M nodes/s)",
            pos.variant().id(),
            args.depth,
            nodes,
            secs,
            nps / 1e6
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Perft split by root move over `threads` threads; returns (move text, count) per root move.
fn divide_threads(
    pos: &Position,
    depth: u32,
    conv: PerftConvention,
    threads: usize,
    hash_mib: usize,
) -> Vec<(String, u64)> {
    let roots = divide(pos, 0, conv);
    let texts: Vec<String> = roots
        .iter()
        .map(|(m, _)| {
            if conv == PerftConvention::Paths {
                m.long_text()
            } else {
                pos.move_text(m)
            }
        })
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut counts = vec![0u64; roots.len()];
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.min(roots.len().max(1)))
            .map(|_| {
                let roots = &roots;
                let next = &next;
                s.spawn(move || {
                    let mut table = (hash_mib > 0).then(|| PerftTable::new(hash_mib));
                    let mut out = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some((m, _)) = roots.get(i) else { break };
                        let child = pos.after(m);
                        let n = match table.as_mut() {
                            Some(t) => perft_hashed(&child, depth - 1, conv, t),
                            None => perft(&child, depth - 1, conv),
                        };
                        out.push((i, n));
                    }
                    out
                })
            })
            .collect();
        for h in handles {
            if let Ok(part) = h.join() {
                for (i, n) in part {
                    counts[i] = n;
                }
            }
        }
    });
    texts.into_iter().zip(counts).collect()
}
