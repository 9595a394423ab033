//! `crown bench`: fixed-depth search over fixed positions of all three games (the node signature of
//! the search); `crown bench depth`: the depth the search reaches within a time or node budget over
//! many positions (the measure of selectivity, docs/engine.md "Depth").

use crate::common::shared_dir;
use crate::CliError;
use clap::{Args, Subcommand};
use crown_ai::bench::{depth_bench, DepthSummary};
use crown_ai::{Limits, SearchTweaks};
use crown_arena::openings::read_opening_file;
use crown_core::Variant;
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `crown bench`.
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BenchArgs {
    #[command(subcommand)]
    command: Option<BenchCommand>,
    /// Add this many plies to every benchmark depth (negative for a quicker run; the node signature
    /// is defined for 0).
    #[arg(long, default_value_t = 0, allow_hyphen_values = true)]
    depth_offset: i32,
    /// Evaluation: classic, trained or network (default: each game's own, American's the embedded
    /// network; the signature is defined for it). `network` with --network: that file's.
    #[arg(long)]
    eval: Option<String>,
    /// Network file (`tools/train/nnue.py`) for `--eval network`; its game's positions use it, the
    /// others the trained evaluation.
    #[arg(long)]
    network: Option<PathBuf>,
}

/// Subcommands of `crown bench`.
#[derive(Subcommand, Debug)]
enum BenchCommand {
    /// Depth reached per budget: mean and median completed depth and nodes/s over the first N
    /// openings with more than one legal move (default: the 11-man ballots of the shared data),
    /// one thread, 16 MiB hash, a
    /// fresh engine per position, no book, no databases. Without a budget: --movetime 100,300
    /// and --nodes 1000000.
    Depth(DepthArgs),
}

/// Arguments of `crown bench depth`.
#[derive(Args, Debug)]
struct DepthArgs {
    /// Game: american or pool (the checkers ballots are replayed by its rules), or impasse with
    /// --openings.
    #[arg(long, default_value = "american")]
    variant: String,
    /// Openings PDN (each game's position after its main line); default
    /// `$CROWN_SHARED/data/pdn/ballots-11-man-english.pdn` (or ../shared as other commands).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// How many of the file's first openings to search (at least 1); openings with a single legal
    /// move are left out (a timed search stops after depth 1 there).
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..))]
    positions: u32,
    /// Time budgets per position in ms, comma-separated (each a run of its own; time-dependent:
    /// the machine's load changes the depth).
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Vec<u64>,
    /// Node budgets per position, comma-separated (deterministic: the same depth whatever the
    /// load).
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Vec<u64>,
    /// Fixed depths, comma-separated (time and nodes to depth), 1 to 128.
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..=crown_ai::MAX_PLY as i64))]
    depth: Vec<u32>,
    /// Search switches as in `crown match` specs, comma-separated key=value (e.g. "malus=0,rfp=1").
    #[arg(long, default_value = "")]
    tweaks: String,
    /// Print a line per position (index, depth, seldepth, nodes, time).
    #[arg(long)]
    verbose: bool,
}

/// Run `crown bench` or `crown bench depth`.
pub fn run(args: &BenchArgs) -> Result<ExitCode, CliError> {
    if let Some(BenchCommand::Depth(d)) = &args.command {
        return run_depth(d);
    }
    let eval = match &args.eval {
        Some(e) => Some(e.parse().map_err(CliError)?),
        None => None,
    };
    let network = crate::common::read_network(args.network.as_deref(), eval)?;
    let lines = crown_ai::bench::bench_with_network(args.depth_offset, eval, network, &mut |l| {
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

/// The search switches of `text`: comma-separated `key=value` of [`SearchTweaks::KEYS`].
///
/// # Errors
/// A message naming `--tweaks` and the part: not key=value, not a number, an unknown key or a
/// value out of range.
fn parse_tweaks(text: &str) -> Result<SearchTweaks, CliError> {
    let mut tweaks = SearchTweaks::default();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| CliError(format!("--tweaks: '{part}' is not key=value")))?;
        let n: u64 = v
            .trim()
            .parse()
            .map_err(|_| CliError(format!("--tweaks: '{}' is not a number", v.trim())))?;
        tweaks
            .set(k.trim(), n)
            .map_err(|e| CliError(format!("--tweaks: {e}")))?;
    }
    Ok(tweaks)
}

fn run_depth(args: &DepthArgs) -> Result<ExitCode, CliError> {
    let variant: Variant = args.variant.parse()?;
    let tweaks = parse_tweaks(&args.tweaks)?;
    let path = match &args.openings {
        Some(p) => p.clone(),
        None if variant == Variant::Impasse => {
            return Err(CliError(
                "crown bench depth --variant impasse needs --openings FILE (the default ballots are checkers)".into(),
            ))
        }
        None => shared_dir()
            .ok_or_else(|| {
                CliError("cannot find the shared data for the ballots (set CROWN_SHARED or give --openings)".into())
            })?
            .join("data/pdn/ballots-11-man-english.pdn"),
    };
    // A position with one legal move ends a timed search after depth 1: it says nothing of depth.
    let mut positions = read_opening_file(&path, variant)?;
    positions.retain(|p| p.legal_moves().len() > 1);
    positions.truncate(args.positions as usize);
    let mut runs: Vec<(String, Limits)> = Vec::new();
    let (movetime, nodes) =
        if args.movetime.is_empty() && args.nodes.is_empty() && args.depth.is_empty() {
            (vec![100, 300], vec![1_000_000])
        } else {
            (args.movetime.clone(), args.nodes.clone())
        };
    runs.extend(
        movetime
            .iter()
            .map(|&ms| (format!("movetime {ms} ms"), Limits::movetime(ms))),
    );
    runs.extend(nodes.iter().map(|&n| {
        (
            format!("nodes {n}"),
            Limits {
                nodes: Some(n),
                ..Limits::default()
            },
        )
    }));
    runs.extend(
        args.depth
            .iter()
            .map(|&d| (format!("depth {d}"), Limits::depth(d))),
    );
    println!(
        "{} {} positions (more than one legal move) of {}, 1 thread, 16 MiB hash, fresh engine per position, switches [{}]",
        variant.id(),
        positions.len(),
        path.display(),
        args.tweaks
    );
    for (name, limits) in runs {
        let bar = ProgressBar::new(positions.len() as u64);
        bar.set_style(
            ProgressStyle::with_template(
                "{bar:40} {pos}/{len} positions  {msg}  [{elapsed}<{eta}]",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar.set_message(name.clone());
        let lines = depth_bench(&positions, &limits, tweaks, &mut |i, l| {
            bar.inc(1);
            if args.verbose {
                bar.suspend(|| {
                    println!(
                        "{name:<18} position {:>4} depth {:>3} seldepth {:>3} nodes {:>10} time {:>8.1} ms",
                        i + 1,
                        l.depth,
                        l.seldepth,
                        l.nodes,
                        l.time_us as f64 / 1000.0
                    )
                });
            }
        });
        bar.finish_and_clear();
        let Some(s) = DepthSummary::of(&lines) else {
            continue;
        };
        println!(
            "{name:<18} depth mean {:>5.2} median {:>4.1} (min {}, max {})  seldepth mean {:>5.1}  nodes mean {:>10.0}  nodes/s {}",
            s.mean_depth, s.median_depth, s.min_depth, s.max_depth, s.mean_seldepth, s.mean_nodes, s.nps
        );
    }
    Ok(ExitCode::SUCCESS)
}
