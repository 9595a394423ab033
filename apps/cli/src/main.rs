//! `crown`: the Crown command-line tool. See README.md for every command with examples.

use clap::{Parser, Subcommand};
use crown_cli::commands::{
    analyze, annotate, bench, book, bot, egdb, engine, pdn, perft, play, puzzles, r#match, rules,
    tune,
};
use crown_cli::CliError;
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
    Perft(perft::PerftArgs),
    /// List the legal moves of a position.
    Moves(rules::MovesArgs),
    /// Play moves from a position and print the resulting FEN and outcome.
    Apply(rules::ApplyArgs),
    /// PDN files: check (parse and replay), fmt (canonical rewrite), fen (a position of a game).
    Pdn(pdn::PdnArgs),
    /// Search a position with the engine and print a line per depth.
    Analyze(analyze::AnalyzeArgs),
    /// Review every move of the games of a PDN file with the engine; write annotated PDN.
    Annotate(annotate::AnnotateArgs),
    /// Fixed-depth search over fixed positions of all three games: total nodes and nodes/s.
    Bench(bench::BenchArgs),
    /// Play a game against the engine in the terminal (default: American checkers, you play Black).
    Play(play::PlayArgs),
    /// Engine against engine: score and Elo difference with its 95% error.
    Match(r#match::MatchArgs),
    /// Run the engine over a line protocol on stdin/stdout (docs/protocol.md).
    Engine(engine::EngineArgs),
    /// Endgame databases: build, probe, info, verify (docs/egdb.md).
    Egdb(egdb::EgdbArgs),
    /// Train the evaluation: self-play data (`gen`, `pack`) and logistic regression (`fit`).
    Tune(tune::TuneArgs),
    /// Opening books: build (by the engine's own analysis), probe (docs/engine.md).
    Book(book::BookArgs),
    /// Puzzles: gen (find them in the games of PDN files), check (re-prove a puzzle file).
    Puzzles(puzzles::PuzzlesArgs),
    /// Connect a Hub engine to a Crown server as a bot account (docs/api.md, "Bot accounts").
    Bot(bot::BotArgs),
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
        Command::Perft(args) => perft::run(&args),
        Command::Moves(args) => rules::moves(&args),
        Command::Apply(args) => rules::apply(&args),
        Command::Pdn(args) => pdn::run(&args),
        Command::Analyze(args) => analyze::run(&args),
        Command::Annotate(args) => annotate::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Play(args) => play::run(&args),
        Command::Match(args) => r#match::run(&args),
        Command::Engine(args) => engine::run(&args),
        Command::Egdb(args) => egdb::run(&args),
        Command::Tune(args) => tune::run(&args),
        Command::Book(args) => book::run(&args),
        Command::Puzzles(args) => puzzles::run(&args),
        Command::Bot(args) => bot::run(&args),
    };
    match result {
        Ok(code) => code,
        Err(CliError(msg)) => {
            eprintln!("error: {}", msg.lines().next().unwrap_or(""));
            ExitCode::from(2)
        }
    }
}
