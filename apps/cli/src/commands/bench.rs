//! `crown bench`: fixed-depth search over fixed positions of all three games.

use crate::CliError;
use clap::Args;
use std::process::ExitCode;

/// Arguments of `crown bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Add this many plies to every benchmark depth (negative for a quicker run; the node signature
    /// is defined for 0).
    #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
    depth_offset: i32,
    /// Evaluation: classic or trained (default: each game's own; the signature is defined for it).
    #[arg(long)]
    eval: Option<String>,
}

/// Run `crown bench`.
pub fn run(args: &BenchArgs) -> Result<ExitCode, CliError> {
    let eval = match &args.eval {
        Some(e) => Some(e.parse().map_err(CliError)?),
        None => None,
    };
    let lines = crown_ai::bench::bench_with(args.depth_offset, eval, &mut |l| {
        println!(
            "{:<8} depth {:>2} nodes {:>10} time {:>6} ms  best {:<8} {}",
            l.variant.id(),
            l.depth,
            l.nodes,
            l.time_ms,
            l.best_move,
            l.fen
        );
    });
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let ms: u64 = lines.iter().map(|l| l.time_ms).sum();
    println!("total nodes {nodes}");
    println!("time {ms} ms");
    println!("nodes/s {}", nodes * 1000 / ms.max(1));
    Ok(ExitCode::SUCCESS)
}
