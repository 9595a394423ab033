//! `crown puzzles`: `gen` finds puzzles in the games of PDN files ([`crown_puzzle::Finder`]) and
//! writes them as JSON Lines; `check` re-proves every puzzle of a file (docs/puzzles.md).

use crate::commands::annotate::write_atomic;
use crate::common::OutFile;
use crate::CliError;
use clap::{Args, Subcommand};
use crown_ai::{Engine, EngineOptions, Limits};
use crown_notation::{canonical, replay, PdnErrorKind, PdnReader};
use crown_puzzle::{read_jsonl, write_jsonl, Finder, FinderOptions, Puzzle, Source, Theme};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::HashSet;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Set by Ctrl-C, SIGTERM or SIGHUP: the work stops and what is finished is kept.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The exit code of an interrupted `gen` or `check` (128 + SIGINT, as `crown annotate`).
const INTERRUPTED_EXIT: u8 = 130;

/// Arguments of `crown puzzles`.
#[derive(Args, Debug)]
pub struct PuzzlesArgs {
    #[command(subcommand)]
    command: PuzzlesCommand,
}

#[derive(Subcommand, Debug)]
enum PuzzlesCommand {
    /// Find puzzles in the games of PDN files and write them as JSON Lines (exit 130 when
    /// interrupted).
    Gen(GenArgs),
    /// Re-prove every puzzle of a JSON Lines file; exit 1 naming each one that fails (130 when
    /// interrupted).
    Check(CheckArgs),
}

/// The default search budget of `gen` and `check`: the one the committed sets were proven with
/// (docs/puzzles.md), in nodes so that a check repeats the proof on any machine.
const DEFAULT_NODES: u64 = 30_000;

/// How hard to search: `--movetime MS` or `--nodes N` for the first search of a position and of
/// each other move; the confirmation searches four times as long.
#[derive(Args, Debug, Clone)]
struct SearchArgs {
    /// Search each position (and the position after each other move) for this many ms; the
    /// confirmation of a candidate searches four times as long (depends on the machine's load).
    #[arg(long, conflicts_with = "nodes")]
    movetime: Option<u64>,
    /// Search this many nodes instead (deterministic whatever the machine's load); the
    /// confirmation four times as many [default: 30000, the budget the committed sets were
    /// proven with].
    #[arg(long)]
    nodes: Option<u64>,
    /// Worker threads, one single-threaded engine each, 1 to 64.
    #[arg(long, default_value_t = 1, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=crate::common::MAX_THREADS as u64))]
    threads: usize,
    /// Transposition table per worker in MiB, 1 to 4096.
    #[arg(long, default_value_t = 16, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=crown_ai::MAX_HASH_MIB as u64))]
    hash: usize,
    /// Endgame databases: positions they hold are proven exactly.
    #[command(flatten)]
    egdb: crate::common::EgdbArgs,
}

impl SearchArgs {
    fn options(&self) -> Result<FinderOptions, CliError> {
        match (self.nodes, self.movetime) {
            (Some(0), _) => Err(CliError("--nodes: at least 1".into())),
            (_, Some(0)) => Err(CliError("--movetime: at least 1 ms".into())),
            (Some(n), _) => Ok(FinderOptions {
                limits: Limits {
                    nodes: Some(n),
                    ..Limits::default()
                },
                confirm: Limits {
                    nodes: Some(n.saturating_mul(4)),
                    ..Limits::default()
                },
            }),
            (None, Some(ms)) => Ok(FinderOptions::movetime(ms)),
            (None, None) => Self {
                nodes: Some(DEFAULT_NODES),
                ..self.clone()
            }
            .options(),
        }
    }

    fn engine(&self, tables: &Option<std::sync::Arc<dyn crown_ai::EndgameTables>>) -> Engine {
        let mut e = Engine::new(EngineOptions {
            hash_mib: self.hash,
            threads: 1,
            level: None,
        });
        e.set_tables(tables.clone());
        e
    }
}

#[derive(Args, Debug)]
struct GenArgs {
    /// PDN files (games of one or several of the three games).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// The JSON Lines file to write (rewritten after every game once a puzzle is found, so
    /// an interrupted run keeps what it found; a file already there is left alone until then).
    #[arg(long)]
    out: PathBuf,
    /// Only the first N games of each file.
    #[arg(long)]
    max_games: Option<usize>,
    #[command(flatten)]
    search: SearchArgs,
}

#[derive(Args, Debug)]
struct CheckArgs {
    /// The JSON Lines puzzle file.
    file: PathBuf,
    #[command(flatten)]
    search: SearchArgs,
}

/// Run `crown puzzles`.
pub fn run(args: &PuzzlesArgs) -> Result<ExitCode, CliError> {
    match &args.command {
        PuzzlesCommand::Gen(a) => gen(a),
        PuzzlesCommand::Check(a) => check(a),
    }
}

/// One game to search: where it comes from, its start and moves.
struct Job {
    source: Source,
    start: crown_core::Position,
    moves: Vec<crown_core::Move>,
}

fn bar(total: u64, what: &str) -> ProgressBar {
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template(&format!(
            "{{bar:40}} {{pos}}/{{len}} {what}  {{msg}}  [{{elapsed}}<{{eta}}]"
        ))
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

fn load_jobs(args: &GenArgs) -> Result<Vec<Job>, CliError> {
    let mut jobs = Vec::new();
    for path in &args.files {
        let file =
            std::fs::File::open(path).map_err(|e| CliError(format!("{}: {e}", path.display())))?;
        if file.metadata().map(|m| m.is_dir()).unwrap_or(false) {
            return Err(CliError(format!("{}: is a directory", path.display())));
        }
        let name = path
            .file_name()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut count = 0;
        for (i, item) in PdnReader::new(file).enumerate() {
            if args.max_games.is_some_and(|m| i >= m) {
                break;
            }
            count += 1;
            let game = match item {
                Err(e) if matches!(e.kind, PdnErrorKind::Io(_)) => {
                    return Err(CliError(format!("{}: {}", path.display(), e.kind)))
                }
                other => other.and_then(|g| canonical(&g)),
            };
            let r = game.and_then(|g| replay(&g).map(|r| (g, r)));
            let (g, r) = match r {
                Ok(x) => x,
                Err(e) => {
                    eprintln!("{}: game {}: {e} (skipped)", path.display(), i + 1);
                    continue;
                }
            };
            let tag = |t| g.tag(t).unwrap_or("?").to_string();
            let mut label = format!("{} - {}", tag("Black"), tag("White"));
            if let Some(ev) = g.tag("Event") {
                label = format!("{label}, {ev}");
            }
            jobs.push(Job {
                source: Source {
                    file: name.clone(),
                    game: i + 1,
                    name: label.chars().take(120).collect(),
                    ply: 0,
                },
                start: r.start,
                moves: r.moves,
            });
        }
        if count == 0 {
            return Err(CliError(format!(
                "{}: no PDN game in the file",
                path.display()
            )));
        }
    }
    Ok(jobs)
}

fn theme_counts(puzzles: &[Puzzle]) -> String {
    Theme::ALL
        .iter()
        .map(|t| {
            let n = puzzles.iter().filter(|p| p.themes.contains(t)).count();
            format!("{n} {t}")
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn gen(args: &GenArgs) -> Result<ExitCode, CliError> {
    let options = args.search.options()?;
    if args.out.is_dir() {
        return Err(CliError(format!("{}: is a directory", args.out.display())));
    }
    for f in &args.files {
        if crate::common::same_file(f, &args.out) {
            return Err(CliError(format!(
                "--out {} is one of the input files",
                args.out.display()
            )));
        }
    }
    let jobs = load_jobs(args)?;
    if jobs.is_empty() {
        return Err(CliError(
            "none of the games replays; nothing written".into(),
        ));
    }
    // Fail on an unusable output before the long work, without touching a file already there: a
    // temporary file beside it is created and removed again. The output is written only once
    // there is a puzzle to write, or when the run is complete.
    drop(OutFile::create(&args.out, "--out")?);
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    let tables = args.search.egdb.load();
    let total: u64 = jobs.iter().map(|j| j.moves.len() as u64).sum();
    eprintln!(
        "searching {} games ({total} positions); Ctrl-C stops and keeps the puzzles found",
        jobs.len()
    );
    let bar = bar(total, "positions");
    let started = Instant::now();
    // Results per game, in file order; positions already made puzzles (any game) are skipped.
    let results: Mutex<Vec<Option<Vec<Puzzle>>>> = Mutex::new(vec![None; jobs.len()]);
    let seen: Mutex<HashSet<(u8, u64)>> = Mutex::new(HashSet::new());
    let next = AtomicUsize::new(0);
    let found = AtomicUsize::new(0);
    let write_error: Mutex<Option<CliError>> = Mutex::new(None);
    let written = AtomicBool::new(false);
    // Rewrite the output with every puzzle found so far; with `partial`, only when there is one.
    let write_out = |results: &[Option<Vec<Puzzle>>], partial: bool| -> Result<(), CliError> {
        let all: Vec<Puzzle> = results.iter().flatten().flatten().cloned().collect();
        if partial && all.is_empty() {
            return Ok(());
        }
        written.store(true, Ordering::SeqCst);
        let mut buf = Vec::new();
        write_jsonl(&mut buf, &all).map_err(|e| CliError(e.to_string()))?;
        write_atomic(&args.out, &buf)
    };
    std::thread::scope(|s| {
        for _ in 0..args.search.threads.min(jobs.len()) {
            s.spawn(|| {
                let mut engine = args.search.engine(&tables);
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= jobs.len() || INTERRUPTED.load(Ordering::SeqCst) {
                        break;
                    }
                    let job = &jobs[i];
                    let v = job.start.variant() as u8;
                    // Each worker keeps its own keys for the game, merged after it.
                    let mut keys: HashSet<u64> = seen
                        .lock()
                        .map(|s| s.iter().filter(|(w, _)| *w == v).map(|(_, k)| *k).collect())
                        .unwrap_or_default();
                    let mut finder = Finder::new(&mut engine, options.clone(), &INTERRUPTED);
                    let puzzles = finder.find_in_game(
                        &job.start,
                        &job.moves,
                        &job.source,
                        &mut keys,
                        &mut |_| bar.inc(1),
                    );
                    if INTERRUPTED.load(Ordering::SeqCst) {
                        break;
                    }
                    if let Ok(mut s) = seen.lock() {
                        s.extend(keys.into_iter().map(|k| (v, k)));
                    }
                    let n = found.fetch_add(puzzles.len(), Ordering::SeqCst) + puzzles.len();
                    bar.set_message(format!("{n} puzzles"));
                    if let Ok(mut r) = results.lock() {
                        r[i] = Some(puzzles);
                        if let Err(e) = write_out(&r, true) {
                            if let Ok(mut w) = write_error.lock() {
                                *w = Some(e);
                            }
                            INTERRUPTED.store(true, Ordering::SeqCst);
                        }
                    }
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(e) = write_error.into_inner().ok().flatten() {
        return Err(e);
    }
    let results = results.into_inner().unwrap_or_default();
    let interrupted = INTERRUPTED.load(Ordering::SeqCst);
    if !interrupted {
        // Complete: the output is the run's result, even with no puzzle.
        write_out(&results, false)?;
    }
    let done = results.iter().filter(|r| r.is_some()).count();
    let all: Vec<Puzzle> = results.into_iter().flatten().flatten().collect();
    let secs = started.elapsed().as_secs_f64();
    let plies: usize = jobs.iter().map(|j| j.moves.len()).sum();
    println!(
        "{}: {} puzzles from {done} of {} games ({plies} positions) in {secs:.1} s{}; {}",
        args.out.display(),
        all.len(),
        jobs.len(),
        match (interrupted, written.load(Ordering::SeqCst)) {
            (false, _) => "",
            (true, true) => " (interrupted)",
            (true, false) => " (interrupted; nothing written)",
        },
        theme_counts(&all)
    );
    Ok(if interrupted {
        ExitCode::from(INTERRUPTED_EXIT)
    } else {
        ExitCode::SUCCESS
    })
}

fn check(args: &CheckArgs) -> Result<ExitCode, CliError> {
    let options = args.search.options()?;
    let path = &args.file;
    let file =
        std::fs::File::open(path).map_err(|e| CliError(format!("{}: {e}", path.display())))?;
    if file.metadata().map(|m| m.is_dir()).unwrap_or(false) {
        return Err(CliError(format!("{}: is a directory", path.display())));
    }
    let puzzles = read_jsonl(std::io::BufReader::new(file))
        .map_err(|e| CliError(format!("{}: {e}", path.display())))?;
    ensure_databases(&args.search.egdb, &puzzles)?;
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    let tables = args.search.egdb.load();
    let bar = bar(puzzles.len() as u64, "puzzles");
    let failures: Mutex<Vec<(usize, String)>> = Mutex::new(Vec::new());
    let next = AtomicUsize::new(0);
    let started = Instant::now();
    std::thread::scope(|s| {
        for _ in 0..args.search.threads.min(puzzles.len().max(1)) {
            s.spawn(|| {
                let mut engine = args.search.engine(&tables);
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= puzzles.len() || INTERRUPTED.load(Ordering::SeqCst) {
                        break;
                    }
                    let p = &puzzles[i];
                    engine.new_game();
                    let mut finder = Finder::new(&mut engine, options.clone(), &INTERRUPTED);
                    if let Err(e) = finder.check(p) {
                        if !INTERRUPTED.load(Ordering::SeqCst) {
                            if let Ok(mut f) = failures.lock() {
                                f.push((i, format!("puzzle {} (line {}): {e}", p.id, i + 1)));
                            }
                        }
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let mut failures = failures.into_inner().unwrap_or_default();
    failures.sort();
    for (_, f) in &failures {
        println!("{f}");
    }
    let checked = next.load(Ordering::SeqCst).min(puzzles.len());
    println!(
        "{}: {} puzzles, {} proven, {} failed in {:.1} s{}",
        path.display(),
        puzzles.len(),
        checked - failures.len(),
        failures.len(),
        started.elapsed().as_secs_f64(),
        if INTERRUPTED.load(Ordering::SeqCst) {
            " (interrupted)"
        } else {
            ""
        }
    );
    Ok(if INTERRUPTED.load(Ordering::SeqCst) {
        ExitCode::from(INTERRUPTED_EXIT)
    } else if failures.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Before a check: the puzzles were proven with the recommended (≤5-piece) databases of their
/// game, so build those that the database directory (`--egdb DIR` or the default one) lacks, in the
/// foreground with `crown egdb build`'s progress; with `--no-egdb`, one warning line instead.
fn ensure_databases(egdb: &crate::common::EgdbArgs, puzzles: &[Puzzle]) -> Result<(), CliError> {
    use crown_ai::tables::auto::{AutoBuild, RECOMMENDED_PIECES};
    if egdb.no_egdb {
        eprintln!(
            "warning: --no-egdb: the puzzles were proven with the ≤{RECOMMENDED_PIECES}-piece databases; results may differ without them"
        );
        return Ok(());
    }
    let dir = egdb
        .egdb
        .clone()
        .or_else(crown_egdb::Tablebase::default_dir)
        .ok_or_else(|| {
            CliError("no database directory: give --egdb DIR or set CROWN_EGDB_DIR".into())
        })?;
    for v in crown_core::Variant::ALL {
        if puzzles.iter().any(|p| p.variant == v)
            && !AutoBuild::is_complete(&dir, v, RECOMMENDED_PIECES)
        {
            eprintln!(
                "building the ≤{RECOMMENDED_PIECES}-piece {} databases in {} first (once; --no-egdb skips)",
                v.id(),
                dir.display()
            );
            crate::commands::egdb::build_with_progress(&crown_egdb::BuildOptions {
                variant: v,
                pieces: RECOMMENDED_PIECES,
                dir: dir.clone(),
                threads: None,
            })?;
        }
    }
    Ok(())
}
