//! `crown annotate`: every move of the games of a PDN file checked by the engine
//! ([`crown_ai::review`]), written back as PDN with NAGs, score comments and the engine's better line,
//! with a summary per game and side and, with `--graph DIR`, an evaluation graph per game.

mod graph;
mod pdn;

use crate::CliError;
use clap::Args;
use crown_ai::review::{review_game, Band, GameReview, ReviewOptions, SideSummary};
use crown_ai::{EndgameTables, Engine, EngineOptions, Limits};
use crown_core::Color;
use crown_notation::{canonical, replay, PdnErrorKind, PdnGame, PdnReader, Replay};
use indicatif::{ProgressBar, ProgressStyle};
use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

pub use pdn::annotate_pdn;

/// Set by Ctrl-C, SIGTERM or SIGHUP: the reviews in progress stop and the finished games are
/// written.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Arguments of `crown annotate`.
#[derive(Args, Debug)]
pub struct AnnotateArgs {
    /// The PDN file (American checkers, pool checkers or Impasse games).
    file: PathBuf,
    /// Write the annotated PDN here (written to a temporary file in the same directory, then
    /// renamed). Without it the PDN goes to stdout, unless --json is given.
    #[arg(short, long)]
    output: Option<PathBuf>,
    /// Search each position for this many ms (default 100 when no depth is given).
    #[arg(long, conflicts_with = "depth")]
    movetime: Option<u64>,
    /// Search each position to this depth in plies, 1 to 128 (deterministic).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=crown_ai::MAX_PLY as i64))]
    depth: Option<u32>,
    /// Games to annotate, 1-based, e.g. `3,7-9` (default: all). Only these are written.
    #[arg(long)]
    games: Option<String>,
    /// Games annotated at the same time, one search thread each, 1 to 64.
    #[arg(long, default_value_t = 1, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=crate::common::MAX_THREADS as u64))]
    threads: usize,
    /// Transposition table per game in MiB, 1 to 4096.
    #[arg(long, default_value_t = 16, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=crown_ai::MAX_HASH_MIB as u64))]
    hash: usize,
    /// Write an evaluation graph per game into this directory: game-N.svg and game-N.png.
    #[arg(long)]
    graph: Option<PathBuf>,
    /// Print the summary as one JSON object on stdout (see docs/annotate.md).
    #[arg(long)]
    json: bool,
    /// Do not look for `!` moves (saves the searches of the other moves where the best move was
    /// played).
    #[arg(long)]
    no_only_moves: bool,
    /// Endgame databases (`--egdb DIR`, `--no-egdb`; default: `$CROWN_EGDB_DIR` or the per-user
    /// data directory): positions they hold are scored exactly, and a `!` can be proven by them.
    #[command(flatten)]
    egdb: crate::common::EgdbArgs,
}

/// Parse a 1-based game selection `3,7-9` into indices; `count` is the number of games in the file.
///
/// # Errors
/// A one-line message for an empty item, a bad number, a reversed range, 0, or a game past `count`.
pub fn parse_games(spec: &str, count: usize) -> Result<BTreeSet<usize>, CliError> {
    let mut out = BTreeSet::new();
    for item in spec.split(',') {
        let item = item.trim();
        let num = |t: &str| -> Result<usize, CliError> {
            let n: usize = t
                .trim()
                .parse()
                .map_err(|_| CliError(format!("--games: '{t}' is not a game number")))?;
            if n == 0 {
                return Err(CliError("--games: games count from 1".into()));
            }
            if n > count {
                return Err(CliError(format!(
                    "--games: there is no game {n}; the file holds {count}"
                )));
            }
            Ok(n)
        };
        match item.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (num(a)?, num(b)?);
                if a > b {
                    return Err(CliError(format!("--games: range '{item}' is reversed")));
                }
                out.extend(a..=b);
            }
            None => {
                out.insert(num(item)?);
            }
        }
    }
    Ok(out)
}

/// A game ready to review: the canonical game and its replay.
struct Job {
    game: PdnGame,
    replay: Replay,
}

/// Write `bytes` to `path` through a temporary file in the same directory and a rename, so that a
/// failure never leaves a half-written file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), CliError> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if path.is_dir() {
        return Err(CliError(format!("{}: is a directory", path.display())));
    }
    // The error is named by its kind: tempfile's own message names the temporary file, which the
    // user never asked for.
    let mut tmp = tempfile::NamedTempFile::new_in(&dir)
        .map_err(|e| CliError(format!("{}: cannot write: {}", path.display(), e.kind())))?;
    tmp.write_all(bytes)
        .and_then(|()| tmp.flush())
        .map_err(|e| CliError(format!("{}: {e}", path.display())))?;
    // A temporary file is private (0600): give the result the mode of the file it replaces, or the
    // usual 0644 of a new file.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let perms = std::fs::metadata(path)
            .map(|m| m.permissions())
            .unwrap_or_else(|_| std::fs::Permissions::from_mode(0o644));
        let _ = tmp.as_file().set_permissions(perms);
    }
    tmp.persist(path)
        .map_err(|e| CliError(format!("{}: {}", path.display(), e.error)))?;
    Ok(())
}

fn limits_of(args: &AnnotateArgs) -> Limits {
    match args.depth {
        Some(d) => Limits::depth(d),
        None => Limits::movetime(args.movetime.unwrap_or(100)),
    }
}

/// The engine settings as written in the `AnnotatorSettings` tag.
/// With endgame databases loaded, their description ends it (`, egdb american ≤4 pieces`).
fn settings_text(args: &AnnotateArgs, tables: Option<&Arc<dyn EndgameTables>>) -> String {
    let limit = match args.depth {
        Some(d) => format!("depth {d}"),
        None => format!("movetime {} ms", args.movetime.unwrap_or(100)),
    };
    let egdb = crate::common::egdb_loaded(tables).map_or(String::new(), |d| format!(", egdb {d}"));
    format!(
        "crown-ai {}, {limit} per position, hash {} MiB{egdb}",
        env!("CARGO_PKG_VERSION"),
        args.hash
    )
}

fn band_text(b: Band, first: Color) -> String {
    match b {
        Band::FirstWins => format!("{first} winning"),
        Band::SecondWins => format!("{} winning", first.opposite()),
        Band::Balanced => "balanced".into(),
    }
}

fn side_json(s: &SideSummary) -> serde_json::Value {
    serde_json::json!({
        "moves": s.moves,
        "only_moves": s.only_moves,
        "inaccuracies": s.inaccuracies,
        "mistakes": s.mistakes,
        "blunders": s.blunders,
        "average_loss": (s.average_loss * 10_000.0).round() / 10_000.0,
    })
}

/// Move text with its PDN number (`12. 11-15`, `12... 23-19`) of the move at `ply`.
fn numbered(job: &Job, ply: usize) -> String {
    let (n, second) = job.replay.move_number(ply);
    let pos = job.replay.position_at(ply);
    let text = job
        .replay
        .moves
        .get(ply)
        .map(|m| pos.move_text(m))
        .unwrap_or_default();
    format!("{n}.{} {text}", if second { ".." } else { "" })
}

fn summary_json(job: &Job, review: &GameReview) -> serde_json::Value {
    let first = review.first;
    let pos_text = |ply: usize, m: &crown_core::Move| job.replay.position_at(ply).move_text(m);
    let moves: Vec<_> = review
        .moves
        .iter()
        .map(|m| {
            serde_json::json!({
                "ply": m.ply,
                "move": pos_text(m.ply, &m.played),
                "best": pos_text(m.ply, &m.best),
                "score": m.played_score.to_string(),
                "best_score": m.best_score.to_string(),
                "depth": m.depth,
                "loss": (m.loss * 10_000.0).round() / 10_000.0,
                "mark": m.mark.map(|k| k.symbol()),
            })
        })
        .collect();
    let turning: Vec<_> = review
        .turning_points
        .iter()
        .map(|t| {
            serde_json::json!({
                "ply": t.ply,
                "move": numbered(job, t.ply),
                "before": band_text(t.before, first),
                "after": band_text(t.after, first),
            })
        })
        .collect();
    serde_json::json!({
        "game": job.game.index,
        "event": job.game.tag("Event"),
        "black": job.game.tag("Black"),
        "white": job.game.tag("White"),
        "result": job.game.result,
        "plies": job.replay.moves.len(),
        "first": first.to_string(),
        "sides": {
            first.to_string(): side_json(&review.summary(first)),
            first.opposite().to_string(): side_json(&review.summary(first.opposite())),
        },
        "turning_points": turning,
        "moves": moves,
    })
}

/// The players' names from the PDN tags, the side that moves first in the game first (Black in
/// checkers, White in Impasse), `?` when a tag is missing.
fn players(job: &Job) -> (&str, &str) {
    let name = |tag| job.game.tag(tag).unwrap_or("?");
    if job.replay.variant == crown_core::Variant::Impasse {
        (name("White"), name("Black"))
    } else {
        (name("Black"), name("White"))
    }
}

fn summary_text(job: &Job, review: &GameReview) -> Vec<String> {
    let g = &job.game;
    let (first, second) = players(job);
    let mut out = vec![format!(
        "game {}: {} ({first} - {second}), {}, {} plies",
        g.index,
        g.tag("Event").unwrap_or("?"),
        g.result.as_deref().unwrap_or("*"),
        job.replay.moves.len()
    )];
    for side in [review.first, review.first.opposite()] {
        let s = review.summary(side);
        out.push(format!(
            "  {side}: {} ?!, {} ?, {} ??, {} !, average loss {:.3} over {} moves",
            s.inaccuracies, s.mistakes, s.blunders, s.only_moves, s.average_loss, s.moves
        ));
    }
    if review.turning_points.is_empty() {
        out.push("  turning points: none".into());
    } else {
        let list: Vec<String> = review
            .turning_points
            .iter()
            .map(|t| {
                format!(
                    "{} ({} -> {})",
                    numbered(job, t.ply),
                    band_text(t.before, review.first),
                    band_text(t.after, review.first)
                )
            })
            .collect();
        out.push(format!("  turning points: {}", list.join(", ")));
    }
    out
}

/// Run `crown annotate`.
pub fn run(args: &AnnotateArgs) -> Result<ExitCode, CliError> {
    let path = &args.file;
    let file =
        std::fs::File::open(path).map_err(|e| CliError(format!("{}: {e}", path.display())))?;
    if file.metadata().map(|m| m.is_dir()).unwrap_or(false) {
        return Err(CliError(format!("{}: is a directory", path.display())));
    }
    let mut items = Vec::new();
    for item in PdnReader::new(file) {
        if let Err(e) = &item {
            if matches!(e.kind, PdnErrorKind::Io(_)) {
                return Err(CliError(format!("{}: {}", path.display(), e.kind)));
            }
        }
        items.push(item);
    }
    if items.is_empty() {
        return Err(CliError(format!(
            "{}: no PDN game in the file",
            path.display()
        )));
    }
    let selected = match &args.games {
        Some(spec) => parse_games(spec, items.len())?,
        None => (1..=items.len()).collect(),
    };
    // Fail on an unusable output before the long work, not after it.
    if let Some(out) = &args.output {
        if out.is_dir() {
            return Err(CliError(format!("{}: is a directory", out.display())));
        }
        let dir = match out.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        tempfile::NamedTempFile::new_in(&dir)
            .map_err(|e| CliError(format!("{}: cannot write: {}", out.display(), e.kind())))?;
    }
    if let Some(dir) = &args.graph {
        if dir.exists() && !dir.is_dir() {
            return Err(CliError(format!(
                "--graph {}: not a directory",
                dir.display()
            )));
        }
        std::fs::create_dir_all(dir).map_err(|e| CliError(format!("{}: {e}", dir.display())))?;
        tempfile::NamedTempFile::new_in(dir)
            .map_err(|e| CliError(format!("{}: cannot write: {}", dir.display(), e.kind())))?;
    }

    let mut skipped = Vec::new();
    let mut jobs = Vec::new();
    for (i, item) in items.into_iter().enumerate() {
        if !selected.contains(&(i + 1)) {
            continue;
        }
        let game = match item.and_then(|g| canonical(&g)) {
            Ok(g) => g,
            Err(e) => {
                skipped.push((i + 1, e.to_string()));
                continue;
            }
        };
        match replay(&game) {
            Ok(r) => jobs.push(Job { game, replay: r }),
            Err(e) => skipped.push((i + 1, e.to_string())),
        }
    }
    for (_, e) in &skipped {
        eprintln!("{}: {e} (skipped)", path.display());
    }
    if jobs.is_empty() {
        return Err(CliError(format!(
            "{}: none of the {} selected games replays; nothing written",
            path.display(),
            skipped.len()
        )));
    }

    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    let options = ReviewOptions {
        limits: limits_of(args),
        check_only_moves: !args.no_only_moves,
    };
    let tables = args.egdb.load();
    let total: u64 = jobs.iter().map(|j| j.replay.moves.len() as u64).sum();
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} positions  {msg}  [{elapsed}<{eta}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let reviews: Mutex<Vec<Option<GameReview>>> = Mutex::new(vec![None; jobs.len()]);
    let next = AtomicUsize::new(0);
    let done_games = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..args.threads.min(jobs.len()) {
            s.spawn(|| {
                let mut engine = Engine::new(EngineOptions {
                    hash_mib: args.hash,
                    threads: 1,
                    level: None,
                });
                engine.set_tables(tables.clone());
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= jobs.len() || INTERRUPTED.load(Ordering::SeqCst) {
                        break;
                    }
                    let job = &jobs[i];
                    let review = review_game(
                        &mut engine,
                        &job.replay.start,
                        &job.replay.moves,
                        &options,
                        &INTERRUPTED,
                        &mut |_| bar.inc(1),
                    );
                    if review.is_some() {
                        let d = done_games.fetch_add(1, Ordering::SeqCst) + 1;
                        bar.set_message(format!("{d}/{} games", jobs.len()));
                    }
                    if let Ok(mut r) = reviews.lock() {
                        r[i] = review;
                    }
                }
            });
        }
    });
    bar.finish_and_clear();
    let reviews = reviews.into_inner().unwrap_or_else(|e| e.into_inner());
    let interrupted = INTERRUPTED.load(Ordering::SeqCst);

    let settings = settings_text(args, tables.as_ref());
    let mut text = String::new();
    let mut json_games = Vec::new();
    let mut lines = Vec::new();
    let (mut moves, mut blunders) = (0usize, 0usize);
    let mut done = 0;
    let mut graphs = Vec::new();
    for (job, review) in jobs.iter().zip(&reviews) {
        let Some(review) = review else { continue };
        done += 1;
        let annotated = annotate_pdn(&job.game, &job.replay, review, &settings);
        text.push_str(&crown_notation::write_game(&annotated));
        moves += review.moves.len();
        blunders += review
            .moves
            .iter()
            .filter(|m| m.mark == Some(crown_ai::review::Mark::Blunder))
            .count();
        if args.graph.is_some() {
            graphs.push((job, review));
        }
        if args.json {
            json_games.push(summary_json(job, review));
        } else {
            lines.extend(summary_text(job, review));
        }
    }
    let per_100 = if moves > 0 {
        blunders as f64 * 100.0 / moves as f64
    } else {
        0.0
    };
    // Interrupted before any game was finished: nothing to write, and a file already at `-o` (an
    // earlier annotation, say) is left as it was rather than replaced by an empty file.
    let nothing = interrupted && done == 0;
    let total_line = format!(
        "{done} of {} games annotated ({} skipped{}), {moves} moves, {blunders} ?? ({per_100:.2} per 100 moves)",
        jobs.len() + skipped.len(),
        skipped.len(),
        if nothing {
            ", interrupted; nothing written"
        } else if interrupted {
            ", interrupted"
        } else {
            ""
        }
    );
    if let (Some(out), false) = (&args.output, nothing) {
        write_atomic(out, text.as_bytes())?;
    } else if args.output.is_none() && !args.json {
        let stdout = std::io::stdout();
        let mut lock = stdout.lock();
        lock.write_all(text.as_bytes())
            .map_err(|e| CliError(format!("stdout: {e}")))?;
    }
    if args.json {
        let skipped_json: Vec<_> = skipped
            .iter()
            .map(|(g, e)| serde_json::json!({"game": g, "reason": e}))
            .collect();
        let o = serde_json::json!({
            "file": path.display().to_string(),
            "settings": settings,
            "annotated": done,
            "interrupted": interrupted,
            "moves": moves,
            "blunders": blunders,
            "blunders_per_100_moves": (per_100 * 100.0).round() / 100.0,
            "skipped": skipped_json,
            "games": json_games,
        });
        println!("{o}");
    } else {
        // With the PDN on stdout the summary goes to stderr.
        let to_stdout = args.output.is_some();
        for l in lines.iter().chain(std::iter::once(&total_line)) {
            if to_stdout {
                println!("{l}");
            } else {
                eprintln!("{l}");
            }
        }
    }
    // The graphs come after the PDN and the summary: a graph that cannot be written (a disk
    // full, a directory in the way) is reported and the others are drawn, but the long work of
    // the review is never lost to it.
    let mut graph_failed = false;
    if let Some(dir) = &args.graph {
        for (job, review) in graphs {
            if let Err(e) = graph::write_graphs(dir, job, review) {
                eprintln!(
                    "error: {} (graph of game {} not written)",
                    e.0, job.game.index
                );
                graph_failed = true;
            }
        }
    }
    Ok(if interrupted {
        ExitCode::from(130)
    } else if skipped.is_empty() && !graph_failed {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_selection() {
        let s: Vec<usize> = parse_games("3,7-9", 10).unwrap().into_iter().collect();
        assert_eq!(s, [3, 7, 8, 9]);
        assert!(parse_games("0", 10).is_err());
        assert!(parse_games("11", 10).is_err());
        assert!(parse_games("5-3", 10).is_err());
        assert!(parse_games("x", 10).is_err());
        assert!(parse_games("1,,2", 10).is_err());
    }
}
