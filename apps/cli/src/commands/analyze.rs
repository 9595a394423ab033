//! `crown analyze`: search one position and print a line per completed depth.

use crate::common::line_text;
use crate::common::{egdb_description, egdb_loaded, EgdbArgs, EgdbBuildArgs, PositionArgs};
use crate::CliError;
use clap::Args;
use crown_ai::{Engine, EngineOptions, Limits, SearchInfo};
use crown_core::Game;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

/// Arguments of `crown analyze`.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pos: PositionArgs,
    /// Moves to play from the position before analysing, in Crown's move notation.
    #[arg(long = "moves", num_args = 1..)]
    moves: Vec<String>,
    /// Search to this depth in plies, 1 to 128.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=crown_ai::MAX_PLY as i64))]
    depth: Option<u32>,
    /// Search for this many ms, at least 1 (default 1000 when no depth or nodes are given).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Stop after this many nodes, at least 1.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Search threads, 1 to 64.
    #[arg(long, default_value_t = 1, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=crate::common::MAX_THREADS as u64))]
    threads: usize,
    /// Transposition table size in MiB, 1 to 4096.
    #[arg(long, default_value_t = 64, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=crown_ai::MAX_HASH_MIB as u64))]
    hash: usize,
    /// Print one JSON object per line: first {"egdb"} (the endgame databases loaded, or null),
    /// then {"book": [{"move","score_cp","weight"}]} (the embedded opening book's moves, shown
    /// but not played), per depth {"depth","score","nodes","nps","pv"}, then {"bestmove","score","pv"}. Scores are
    /// text as in the plain output ("+0.25", "win in 7", "win in 23 (db)"); moves are in the
    /// notation `crown moves` prints.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    egdb: EgdbArgs,
    #[command(flatten)]
    egdb_build: EgdbBuildArgs,
}

/// Run `crown analyze`.
pub fn run(args: &AnalyzeArgs) -> Result<ExitCode, CliError> {
    let pos = args.pos.position()?;
    let mut game = Game::from_position(pos);
    crown_notation::play_moves(&mut game, &args.moves)?;
    if let Some(o) = game.outcome() {
        return Err(CliError(format!("the game is over: {o}")));
    }
    let root = *game.position();
    let mut limits = Limits {
        depth: args.depth,
        nodes: args.nodes,
        movetime_ms: args.movetime,
        ..Limits::default()
    };
    if limits.depth.is_none() && limits.nodes.is_none() && limits.movetime_ms.is_none() {
        limits.movetime_ms = Some(1000);
    }
    let mut engine = Engine::new(EngineOptions {
        hash_mib: args.hash,
        threads: args.threads,
        level: None,
    });
    engine.set_tables(
        args.egdb
            .load_building(&args.egdb_build, Some(game.variant())),
    );
    if args.json {
        let loaded = egdb_loaded(engine.tables());
        println!("{}", serde_json::json!({ "egdb": loaded }));
    } else {
        println!("info egdb {}", egdb_description(engine.tables()));
    }
    // The book moves are shown, not played: the search below runs as without a book.
    let book = crown_ai::book::Book::embedded(root.variant())
        .map(|b| b.probe(&root))
        .unwrap_or_default();
    if args.json {
        let list: Vec<serde_json::Value> = book
            .iter()
            .map(|b| serde_json::json!({"move": root.move_text(&b.mv), "score_cp": b.score_cp, "weight": b.weight}))
            .collect();
        println!("{}", serde_json::json!({ "book": list }));
    } else if book.is_empty() {
        println!("info book none");
    } else {
        let list: Vec<String> = book
            .iter()
            .map(|b| {
                format!(
                    "{} {}",
                    root.move_text(&b.mv),
                    crown_ai::Score::Value(i32::from(b.score_cp))
                )
            })
            .collect();
        println!("info book {}", list.join(", "));
    }
    let stop = AtomicBool::new(false);
    let json = args.json;
    let mut on_info = |info: &SearchInfo| {
        let pv = line_text(&root, &info.pv);
        if json {
            println!(
                "{}",
                serde_json::json!({
                    "depth": info.depth,
                    "score": info.score.to_string(),
                    "nodes": info.nodes,
                    "nps": info.nps,
                    "pv": pv,
                })
            );
        } else {
            println!(
                "depth {:>2}/{:<2} score {:>9} nodes {:>11} nps {:>9} time {:>6} ms  pv {}",
                info.depth,
                info.seldepth,
                info.score.to_string(),
                info.nodes,
                info.nps,
                info.time_ms,
                pv.join(" ")
            );
        }
    };
    let result = engine.search(&game, &limits, &stop, &mut on_info);
    let best = result.best_move.map(|m| root.move_text(&m));
    let pv = line_text(&root, &result.pv);
    if json {
        println!(
            "{}",
            serde_json::json!({"bestmove": best, "score": result.score.to_string(), "pv": pv})
        );
    } else {
        println!(
            "bestmove {} score {} depth {} nodes {} time {} ms",
            best.unwrap_or_else(|| "(none)".into()),
            result.score,
            result.depth,
            result.nodes,
            result.time_ms
        );
    }
    Ok(ExitCode::SUCCESS)
}
