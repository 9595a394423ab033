//! `crown pdn check|fmt|fen`: PDN files (docs/notation.md).

use crate::CliError;
use clap::{Args, Subcommand};
use crown_notation::{
    canonical, replay, replay_prefix, write_game, PdnError, PdnErrorKind, PdnGame, PdnReader,
};
use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Print a line on stdout, control characters escaped (see [`printable`]); a closed pipe
/// (`crown pdn check … | head`) is not an error.
macro_rules! say {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stdout().lock(), "{}", printable(&format!($($arg)*)));
    }};
}

/// Print a line on stderr, control characters escaped (see [`printable`]).
macro_rules! complain {
    ($($arg:tt)*) => {{
        let _ = writeln!(std::io::stderr().lock(), "{}", printable(&format!($($arg)*)));
    }};
}

/// `text` with every control or format character (ESC, CR, tab, a right-to-left override, …, which
/// a file may hold in a tag or a move) written as `\u{1b}`, so that a line printed for a person
/// cannot drive the terminal, reorder itself or break into several lines.
fn printable(text: &str) -> String {
    crown_notation::printable(text)
}

/// `1 game`, `2 games`: the count and its noun agree.
fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// Arguments of `crown pdn`.
#[derive(Args, Debug)]
pub struct PdnArgs {
    #[command(subcommand)]
    command: PdnCommand,
}

#[derive(Subcommand, Debug)]
enum PdnCommand {
    /// Parse and replay every game; print a summary and one line per error. Exit 0 when every game
    /// parsed and replayed, 1 otherwise, 2 when a file cannot be read or holds no game (it is
    /// reported as an error line and the other files are still checked).
    Check(CheckArgs),
    /// Rewrite a file in canonical PDN 3.0 (to stdout, or -o OUT).
    Fmt(FmtArgs),
    /// Print the FEN of the position after K plies of game N.
    Fen(FenArgs),
}

#[derive(Args, Debug)]
struct CheckArgs {
    /// PDN files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Print {"games","replayed","warnings","errors":[{"file","game","event","line","column","move","text","reason"}]}
    /// (an unusable file is an error with "game" null).
    #[arg(long)]
    json: bool,
    /// Also print one line per warning (ambiguous captures resolved by look-ahead, FEN repairs).
    #[arg(long)]
    warnings: bool,
}

#[derive(Args, Debug)]
struct FmtArgs {
    /// The PDN file.
    file: PathBuf,
    /// Write here instead of stdout.
    #[arg(short, long)]
    output: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct FenArgs {
    /// The PDN file.
    file: PathBuf,
    /// The game, 1 for the first in the file.
    #[arg(long)]
    game: usize,
    /// Plies (half-moves) played from the game's start position; 0 for the start.
    #[arg(long, default_value_t = 0)]
    ply: usize,
}

/// Run `crown pdn`.
pub fn run(args: &PdnArgs) -> Result<ExitCode, CliError> {
    match &args.command {
        PdnCommand::Check(a) => check(a),
        PdnCommand::Fmt(a) => fmt(a),
        PdnCommand::Fen(a) => fen(a),
    }
}

/// A reader of the PDN file at `path`. A file that starts with a UTF-16 byte-order mark is read
/// as UTF-16 (the mark tells little- or big-endian), and so is one whose first bytes have a 0 in
/// every other byte (UTF-16 without a mark, see [`crown_notation::utf16_without_bom`]); any other
/// file streams (UTF-8, with the reader's Latin-1 fallback for lines that are not UTF-8).
fn open(path: &Path) -> Result<PdnReader<Box<dyn Read>>, CliError> {
    let at = |e: &dyn std::fmt::Display| CliError(format!("{}: {e}", path.display()));
    let mut f = File::open(path).map_err(|e| at(&e))?;
    if f.metadata().map(|m| m.is_dir()).unwrap_or(false) {
        return Err(CliError(format!("{}: is a directory", path.display())));
    }
    let mut head = Vec::with_capacity(crown_notation::UTF16_SNIFF_BYTES);
    (&mut f)
        .take(crown_notation::UTF16_SNIFF_BYTES as u64)
        .read_to_end(&mut head)
        .map_err(|e| at(&e))?;
    let utf16 = matches!(head.as_slice(), [0xff, 0xfe, ..] | [0xfe, 0xff, ..])
        || crown_notation::utf16_without_bom(&head).is_some();
    if utf16 {
        let mut bytes = head;
        f.read_to_end(&mut bytes).map_err(|e| at(&e))?;
        let text = crown_notation::decode_utf16_file(&bytes)
            .map_err(|e| at(&e))?
            .unwrap_or_default();
        return Ok(PdnReader::new(Box::new(std::io::Cursor::new(
            text.into_bytes(),
        ))));
    }
    Ok(PdnReader::new(Box::new(
        std::io::Cursor::new(head).chain(f),
    )))
}

/// An I/O error from the reader makes the whole file unusable.
fn io_error(path: &Path, e: &PdnError) -> Option<CliError> {
    matches!(e.kind, PdnErrorKind::Io(_))
        .then(|| CliError(format!("{}: {}", path.display(), e.kind)))
}

fn error_json(file: &Path, e: &PdnError) -> serde_json::Value {
    let l = &e.location;
    serde_json::json!({
        "file": file.display().to_string(),
        "game": l.game,
        "event": l.event,
        "line": l.line,
        "column": l.column,
        "move": l.move_number,
        "text": l.move_text,
        "reason": e.reason(),
    })
}

/// One problem `check` reports: a game that does not parse or replay, or a file that cannot be used.
enum Problem {
    Game(PdnError),
    File(String),
}

fn check(args: &CheckArgs) -> Result<ExitCode, CliError> {
    let (mut games, mut replayed, mut warnings) = (0usize, 0usize, 0usize);
    let mut errors: Vec<(PathBuf, Problem)> = Vec::new();
    let mut unusable = false;
    let mut warning_lines = Vec::new();
    for path in &args.files {
        let reader = match open(path) {
            Ok(r) => r,
            Err(CliError(e)) => {
                // Report it with the others and go on with the next file (exit 2 at the end).
                unusable = true;
                let reason = e
                    .strip_prefix(&format!("{}: ", path.display()))
                    .unwrap_or(&e)
                    .to_string();
                errors.push((path.clone(), Problem::File(reason)));
                continue;
            }
        };
        let mut in_file = 0;
        for item in reader {
            match item {
                Err(e) => {
                    if matches!(e.kind, PdnErrorKind::Io(_)) {
                        unusable = true;
                        errors.push((path.clone(), Problem::File(e.kind.to_string())));
                        break;
                    }
                    in_file += 1;
                    errors.push((path.clone(), Problem::Game(e)));
                }
                Ok(g) => {
                    in_file += 1;
                    match replay(&g) {
                        Ok(r) => {
                            replayed += 1;
                            warnings += r.warnings.len();
                            if args.warnings {
                                for w in &r.warnings {
                                    warning_lines.push(w.line(&format!("{}: ", path.display())));
                                }
                            }
                        }
                        Err(e) => errors.push((path.clone(), Problem::Game(e))),
                    }
                }
            }
        }
        if in_file == 0 && !unusable {
            unusable = true;
            errors.push((
                path.clone(),
                Problem::File("no PDN game in the file".into()),
            ));
        }
        games += in_file;
    }
    if args.json {
        let list: Vec<_> = errors
            .iter()
            .map(|(p, e)| match e {
                Problem::Game(e) => error_json(p, e),
                Problem::File(reason) => serde_json::json!({
                    "file": p.display().to_string(),
                    "game": null,
                    "event": null,
                    "line": null,
                    "column": null,
                    "move": null,
                    "text": null,
                    "reason": reason,
                }),
            })
            .collect();
        let mut o = serde_json::json!({
            "games": games,
            "replayed": replayed,
            "warnings": warnings,
            "errors": list,
        });
        if args.warnings {
            o["warning_lines"] = warning_lines.into();
        }
        say!("{o}");
    } else {
        for (p, e) in &errors {
            match e {
                Problem::Game(e) => say!("{}", e.line(&format!("{}: ", p.display()), "")),
                Problem::File(reason) => {
                    say!(
                        "{}",
                        crown_notation::one_line(&format!("{}: {reason}", p.display()))
                    )
                }
            }
        }
        for w in &warning_lines {
            say!("{w}");
        }
        say!(
            "{}, {replayed} replayed, {}, {}",
            count(games, "game"),
            count(warnings, "warning"),
            count(errors.len(), "error")
        );
    }
    Ok(if unusable {
        ExitCode::from(2)
    } else if errors.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn fmt(args: &FmtArgs) -> Result<ExitCode, CliError> {
    let mut out = String::new();
    let mut failed = false;
    let mut syntax_failed = false;
    let mut games = 0;
    // Problems in file order, and whether the game is one that does not replay (written as read
    // when the file is written at all). Printed at the end, when it is known whether it is.
    let mut problems: Vec<(PdnError, bool)> = Vec::new();
    let report = |problems: &[(PdnError, bool)], written: bool| {
        let prefix = format!("{}: ", args.file.display());
        for (e, as_read) in problems {
            if *as_read && written {
                complain!("{}", e.line(&prefix, " (game written as read)"));
            } else {
                complain!("{}", e.line(&prefix, ""));
            }
        }
    };
    for item in open(&args.file)? {
        games += 1;
        let game: PdnGame = match item {
            Ok(g) => g,
            Err(e) => {
                if let Some(fatal) = io_error(&args.file, &e) {
                    report(&problems, false);
                    return Err(fatal);
                }
                // Writing without this game would lose it: report and write nothing.
                problems.push((e, false));
                syntax_failed = true;
                continue;
            }
        };
        match canonical(&game) {
            Ok(c) => out.push_str(&write_game(&c)),
            Err(e) => {
                // Keep the game as read (moves as written) so that nothing is lost.
                problems.push((e, true));
                out.push_str(&crown_notation::write_game_as_read(&game));
                failed = true;
            }
        }
    }
    if games == 0 {
        return Err(CliError(format!(
            "{}: no PDN game in the file",
            args.file.display()
        )));
    }
    report(&problems, !syntax_failed);
    if syntax_failed {
        // A game that cannot be read cannot be written: write nothing rather than lose it.
        complain!(
            "{}: not written: a game has a syntax error",
            args.file.display()
        );
        return Ok(ExitCode::from(1));
    }
    match &args.output {
        Some(p) => {
            std::fs::write(p, &out).map_err(|e| CliError(format!("{}: {e}", p.display())))?
        }
        None => {
            let stdout = std::io::stdout();
            let mut lock = stdout.lock();
            lock.write_all(out.as_bytes())
                .map_err(|e| CliError(format!("stdout: {e}")))?;
        }
    }
    Ok(if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

fn fen(args: &FenArgs) -> Result<ExitCode, CliError> {
    if args.game == 0 {
        return Err(CliError("--game counts from 1".into()));
    }
    let mut seen = 0;
    for item in open(&args.file)?.take(args.game) {
        seen += 1;
        if seen < args.game {
            if let Err(e) = &item {
                if let Some(fatal) = io_error(&args.file, e) {
                    return Err(fatal);
                }
            }
            continue;
        }
        let game = match item {
            Ok(g) => g,
            Err(e) => {
                if let Some(fatal) = io_error(&args.file, &e) {
                    return Err(fatal);
                }
                complain!("{}", e.line(&format!("{}: ", args.file.display()), ""));
                return Ok(ExitCode::from(1));
            }
        };
        let (r, failure) = match replay_prefix(&game) {
            Ok(x) => x,
            Err(e) => {
                complain!("{}", e.line(&format!("{}: ", args.file.display()), ""));
                return Ok(ExitCode::from(1));
            }
        };
        if let Some(e) = failure.filter(|_| args.ply > r.moves.len()) {
            // The position asked for lies beyond a move that does not replay.
            complain!("{}", e.line(&format!("{}: ", args.file.display()), ""));
            return Ok(ExitCode::from(1));
        }
        if args.ply > r.moves.len() {
            return Err(CliError(format!(
                "game {} has {} plies; --ply must be at most {}",
                args.game,
                r.moves.len(),
                r.moves.len()
            )));
        }
        say!("{}", r.position_at(args.ply).to_fen());
        return Ok(ExitCode::SUCCESS);
    }
    Err(CliError(format!(
        "{} holds {seen} games; there is no game {}",
        args.file.display(),
        args.game
    )))
}
