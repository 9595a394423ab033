//! `crown`: the Crown command-line tool. See README.md for every command with examples.

mod annotate_cmd;
mod bench_cmd;
mod book_cmd;
mod egdb_cmd;
mod match_cmd;
mod pdn_cmd;
mod perft_cmd;
mod sprt;
mod tune_cmd;

// The commands with input loops live in the library (tested as functions); `crate::common`,
// `crate::CliError`, … resolve through these imports.
use crown_cli::commands::play as play_cmd;
use crown_cli::{analyze_cmd, common, engine_cmd, rules_cmd, CliError};

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Crown: American checkers, American pool checkers and Impasse.
#[derive(Parser, Debug)]
#[command(name = "crown", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count the move tree to a depth (perft), to check move generation and measure its speed.
    Perft(perft_cmd::PerftArgs),
    /// List the legal moves of a position.
    Moves(rules_cmd::MovesArgs),
    /// Play moves from a position and print the resulting FEN and outcome.
    Apply(rules_cmd::ApplyArgs),
    /// PDN files: check (parse and replay), fmt (canonical rewrite), fen (a position of a game).
    Pdn(pdn_cmd::PdnArgs),
    /// Search a position with the engine and print a line per depth.
    Analyze(analyze_cmd::AnalyzeArgs),
    /// Review every move of the games of a PDN file with the engine; write annotated PDN.
    Annotate(annotate_cmd::AnnotateArgs),
    /// Fixed-depth search over fixed positions of all three games: total nodes and nodes/s.
    Bench(bench_cmd::BenchArgs),
    /// Play a game against the engine in the terminal (default: American checkers, you play Black).
    Play(play_cmd::PlayArgs),
    /// Engine against engine: score and Elo difference with its 95% error.
    Match(match_cmd::MatchArgs),
    /// Run the engine over a line protocol on stdin/stdout (docs/protocol.md).
    Engine(engine_cmd::EngineArgs),
    /// Endgame databases: build, probe, info, verify (docs/egdb.md).
    Egdb(egdb_cmd::EgdbArgs),
    /// Train the evaluation: self-play data (`gen`) and logistic regression (`fit`).
    Tune(tune_cmd::TuneArgs),
    /// Opening books: build (by the engine's own analysis), probe (docs/engine.md).
    Book(book_cmd::BookArgs),
}

/// A reader that stops early (`crown moves | head`) closes our stdout; `println!` then panics. Treat
/// that as the normal end of output for every command instead of printing a panic.
fn quiet_on_broken_pipe() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if msg.contains("failed printing to stdout") && msg.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}

fn main() -> ExitCode {
    quiet_on_broken_pipe();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                let _ = e.print();
                return ExitCode::SUCCESS;
            }
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                let _ = e.print();
                return ExitCode::from(2);
            }
            // One line: clap's message up to its first blank line (it may name the missing
            // arguments on the following lines), without the usage hints.
            let text = e.render().to_string();
            let line: Vec<&str> = text
                .lines()
                .map(str::trim)
                .skip_while(|l| l.is_empty())
                .take_while(|l| !l.is_empty())
                .collect();
            eprintln!(
                "{}",
                if line.is_empty() {
                    "error: bad arguments".to_string()
                } else {
                    line.join(" ")
                }
            );
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Perft(args) => perft_cmd::run(&args),
        Command::Moves(args) => rules_cmd::moves(&args),
        Command::Apply(args) => rules_cmd::apply(&args),
        Command::Pdn(args) => pdn_cmd::run(&args),
        Command::Analyze(args) => analyze_cmd::run(&args),
        Command::Annotate(args) => annotate_cmd::run(&args),
        Command::Bench(args) => bench_cmd::run(&args),
        Command::Play(args) => play_cmd::run(&args),
        Command::Match(args) => match_cmd::run(&args),
        Command::Engine(args) => engine_cmd::run(&args),
        Command::Egdb(args) => egdb_cmd::run(&args),
        Command::Tune(args) => tune_cmd::run(&args),
        Command::Book(args) => book_cmd::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(CliError(msg)) => {
            eprintln!("error: {}", msg.lines().next().unwrap_or(""));
            ExitCode::from(2)
        }
    }
}
