//! `crown egdb`: build, probe, list and verify the endgame databases (crates/egdb, docs/egdb.md).

use crate::CliError;
use clap::{Args, Subcommand};
use crown_core::Variant;
use crown_egdb::{BuildOptions, Progress, Tablebase};
use crown_notation::{read_fen, FenPolicy};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `crown egdb`.
#[derive(Args, Debug)]
pub struct EgdbArgs {
    #[command(subcommand)]
    command: EgdbCommand,
}

#[derive(Subcommand, Debug)]
enum EgdbCommand {
    /// Build every class with at most N pieces (resumes: classes already on disk are checked and kept).
    Build(BuildArgs),
    /// The database value of a position: win/loss/draw, depth to win in plies, the best move.
    Probe(ProbeArgs),
    /// List the classes present: positions, wins/losses/draws, bytes on disk.
    Info(DirArgs),
    /// Re-check every stored value against the values of its successors.
    Verify(VerifyArgs),
}

#[derive(Args, Debug)]
struct DirArgs {
    /// Database directory (default: $CROWN_EGDB_DIR, else the per-user data directory).
    #[arg(long)]
    dir: Option<PathBuf>,
}

impl DirArgs {
    fn dir(&self) -> Result<PathBuf, CliError> {
        self.dir
            .clone()
            .or_else(Tablebase::default_dir)
            .ok_or_else(|| {
                CliError("no database directory: give --dir or set CROWN_EGDB_DIR".into())
            })
    }

    /// The directory to read (probe, info, verify): it must exist. The error names where the
    /// directory came from (`--dir`, `$CROWN_EGDB_DIR` or the per-user default).
    fn existing_dir(&self) -> Result<PathBuf, CliError> {
        let dir = self.dir()?;
        if dir.is_dir() {
            return Ok(dir);
        }
        let origin = if self.dir.is_some() {
            "--dir"
        } else if std::env::var_os("CROWN_EGDB_DIR").is_some_and(|d| !d.is_empty()) {
            "CROWN_EGDB_DIR"
        } else {
            "the default database directory"
        };
        let what = if dir.exists() {
            "is not a directory"
        } else {
            "does not exist"
        };
        Err(CliError(format!(
            "{origin} {} {what} (build databases there with `crown egdb build`)",
            dir.display()
        )))
    }
}

#[derive(Args, Debug)]
struct BuildArgs {
    /// Game: american, pool or impasse.
    #[arg(long)]
    variant: String,
    /// Largest number of pieces (Impasse: checkers, a double counting two); the default is the
    /// recommended set, the one the engine's front ends build in the background.
    #[arg(long, default_value_t = crown_ai::tables::auto::RECOMMENDED_PIECES)]
    pieces: u32,
    #[command(flatten)]
    dir: DirArgs,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
}

#[derive(Args, Debug)]
struct ProbeArgs {
    /// Game: american, pool or impasse.
    #[arg(long)]
    variant: String,
    /// The position, PDN FEN.
    #[arg(long)]
    fen: String,
    #[command(flatten)]
    dir: DirArgs,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Args, Debug)]
struct VerifyArgs {
    #[command(flatten)]
    dir: DirArgs,
    /// Worker threads (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
}

/// An indicatif bar with positions/s and ETA.
struct Bar(ProgressBar);

impl Progress for Bar {
    fn begin(&self, positions: u64) {
        self.0.inc_length(positions);
    }
    fn class(&self, name: &str, kept: bool) {
        self.0
            .set_message(format!("{name}{}", if kept { " (kept)" } else { "" }));
    }
    fn advance(&self, positions: u64) {
        self.0.inc(positions);
    }
}

fn bar() -> Bar {
    let pb = ProgressBar::new(0);
    pb.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {human_pos}/{human_len} positions, {per_sec}, ETA {eta} {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    Bar(pb)
}

fn variant(text: &str) -> Result<Variant, CliError> {
    Ok(text.parse::<Variant>()?)
}

/// Run `crown egdb`.
pub fn run(args: &EgdbArgs) -> Result<ExitCode, CliError> {
    match &args.command {
        EgdbCommand::Build(a) => build(a),
        EgdbCommand::Probe(a) => probe(a),
        EgdbCommand::Info(a) => info(a),
        EgdbCommand::Verify(a) => verify(a),
    }
}

fn build(a: &BuildArgs) -> Result<ExitCode, CliError> {
    if a.threads == Some(0) {
        return Err(CliError("--threads must be at least 1".into()));
    }
    build_with_progress(&BuildOptions {
        variant: variant(&a.variant)?,
        pieces: a.pieces,
        dir: a.dir.dir()?,
        threads: a.threads,
    })?;
    Ok(ExitCode::SUCCESS)
}

/// Build (or complete) a database set in the foreground as `crown egdb build` does: a progress bar
/// on stderr, then one summary line on stdout (and a line per damaged file replaced).
///
/// # Errors
/// The build's error, one line.
pub fn build_with_progress(opts: &BuildOptions) -> Result<(), CliError> {
    let bar = bar();
    let report = crown_egdb::build(opts, &bar)?;
    bar.0.finish_and_clear();
    for r in &report.replaced {
        println!("replaced damaged file: {r}");
    }
    println!(
        "{} ≤{} pieces in {}: built {} classes ({} positions, {} bytes), kept {}, {:.1} s, {:.0} positions/s",
        opts.variant.id(),
        opts.pieces,
        opts.dir.display(),
        report.built.len(),
        report.positions,
        report.bytes,
        report.kept.len(),
        report.seconds,
        report.positions as f64 / report.seconds.max(1e-9)
    );
    Ok(())
}

fn probe(a: &ProbeArgs) -> Result<ExitCode, CliError> {
    let v = variant(&a.variant)?;
    // Read the lenient way, as every front end reads a FEN a person gives (docs/notation.md).
    let read =
        read_fen(v, &a.fen, FenPolicy::Lenient).map_err(|e| CliError(format!("--fen: {e}")))?;
    for w in &read.warnings {
        eprintln!("warning: {w}");
    }
    let pos = read.position;
    let tb = Tablebase::open(&a.dir.existing_dir()?)?;
    let value = tb.probe(&pos)?;
    let best = tb.best_move(&pos)?;
    let best_text = best.map(|(m, _)| pos.move_text(&m));
    if a.json {
        println!(
            "{}",
            serde_json::json!({
                "variant": v.id(),
                "fen": pos.to_fen(),
                "result": value.wdl.id(),
                "distance": value.distance,
                "best_move": best_text,
            })
        );
    } else {
        let d = value
            .distance
            .map(|d| format!(" in {d} plies"))
            .unwrap_or_default();
        println!(
            "{} {}: {}{d} for {}; best move {}",
            v.id(),
            pos.to_fen(),
            value.wdl.id(),
            pos.side_to_move(),
            best_text.as_deref().unwrap_or("none")
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn info(a: &DirArgs) -> Result<ExitCode, CliError> {
    let dir = a.existing_dir()?;
    let tb = Tablebase::open(&dir)?;
    println!("{}: {}", dir.display(), tb.describe());
    for v in [Variant::American, Variant::Pool, Variant::Impasse] {
        if let Some(line) = tb.coverage(v) {
            println!("{line}");
        }
    }
    for (_, why) in tb.damaged() {
        println!("damaged (left out; `crown egdb build` rebuilds it): {why}");
    }
    let classes = tb.classes();
    let (mut pos, mut bytes) = (0u64, 0u64);
    for c in &classes {
        println!(
            "{:<8} {:<10} {:>3} pieces {:>12} positions  W {:>11}  L {:>11}  D {:>11}  max {:>3} plies  {:>11} bytes",
            c.variant.id(),
            c.material.name(),
            c.material.pieces(c.variant),
            c.positions,
            c.wins,
            c.losses,
            c.draws,
            c.max_distance,
            c.bytes
        );
        pos += c.positions;
        bytes += c.bytes;
    }
    println!("{} classes, {pos} positions, {bytes} bytes", classes.len());
    Ok(ExitCode::SUCCESS)
}

fn verify(a: &VerifyArgs) -> Result<ExitCode, CliError> {
    if a.threads == Some(0) {
        return Err(CliError("--threads must be at least 1".into()));
    }
    let dir = a.dir.existing_dir()?;
    let tb = Tablebase::open(&dir)?;
    if let Some((_, why)) = tb.damaged().first() {
        return Err(CliError(format!(
            "{why} ({} damaged file{} in all; rebuild with `crown egdb build`)",
            tb.damaged().len(),
            if tb.damaged().len() == 1 { "" } else { "s" }
        )));
    }
    if tb.classes().is_empty() {
        return Err(CliError(format!(
            "{}: no endgame database files to verify (build them with `crown egdb build`)",
            dir.display()
        )));
    }
    tb.check_files()?;
    let bar = bar();
    let mut total = 0;
    for v in [Variant::American, Variant::Pool, Variant::Impasse] {
        if tb.classes().iter().any(|c| c.variant == v) {
            total += crown_egdb::verify(&dir, v, a.threads, &bar)?;
        }
    }
    bar.0.finish_and_clear();
    println!(
        "{}: {} classes, {total} positions verified",
        dir.display(),
        tb.classes().len()
    );
    Ok(ExitCode::SUCCESS)
}
