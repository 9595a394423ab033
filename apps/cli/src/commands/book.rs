//! `crown book`: build an opening book by the engine's own analysis, and probe a book
//! (docs/engine.md, "Opening book").

use crate::common::{check_threads, OutFile, PositionArgs};
use crate::CliError;
use clap::{Args, Subcommand};
use crown_ai::book::{Book, BookEntryMove};
use crown_ai::{Engine, EngineOptions, Limits, Score};
use crown_arena::openings::acf_three_move;
use crown_arena::runner::{Flow, Pool};
use crown_core::{Game, ImpasseSetup, Position, Variant};
use indicatif::{ProgressBar, ProgressStyle};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

/// Arguments of `crown book`.
#[derive(Args, Debug)]
pub struct BookArgs {
    #[command(subcommand)]
    command: BookCommand,
}

#[derive(Subcommand, Debug)]
enum BookCommand {
    /// Build a book: search every move of the positions reached from the start (and, for
    /// American checkers, from the 156 ACF three-move ballots), keep the moves within a margin of
    /// the best, and expand the most promising lines first.
    Build(BuildArgs),
    /// List the book moves of a position with their scores.
    Probe(ProbeArgs),
}

/// Arguments of `crown book build`.
#[derive(Args, Debug)]
struct BuildArgs {
    /// Game: american, pool or impasse.
    #[arg(long, default_value = "american")]
    variant: String,
    /// Deepest ply (counted from the start of the game) of a position in the book.
    #[arg(long, default_value_t = 12)]
    plies: u32,
    /// The book file to write (checked before any work; replaced only when the book is done).
    #[arg(long)]
    out: PathBuf,
    /// Node budget of each move's search, at least 1 (default 20000 unless --movetime is given).
    #[arg(long, conflicts_with = "movetime", value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Time for each move's search in ms, at least 1 (not reproducible; prefer --nodes).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Keep the moves scored within this many centi-men of the best.
    #[arg(long, default_value_t = 25)]
    margin: i32,
    /// At most this many moves per position (at least 1).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    max_moves: u32,
    /// Stop expanding after this many positions (at least 1).
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u32).range(1..))]
    max_positions: u32,
    /// Worker threads, 1 to 64 (each with its own single-threaded engine); the book does not
    /// depend on it.
    #[arg(long, default_value_t = 2)]
    threads: usize,
}

/// Arguments of `crown book probe`.
#[derive(Args, Debug)]
struct ProbeArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// A book file [default: the book embedded for the game].
    #[arg(long)]
    book: Option<PathBuf>,
    /// Print one JSON object: {"fen", "moves": [{"move", "score_cp", "weight"}]}.
    #[arg(long)]
    json: bool,
}

/// Run `crown book`.
pub fn run(args: &BookArgs) -> Result<ExitCode, CliError> {
    match &args.command {
        BookCommand::Build(a) => build(a),
        BookCommand::Probe(a) => probe(a),
    }
}

fn probe(args: &ProbeArgs) -> Result<ExitCode, CliError> {
    let pos = args.position.position()?;
    let book = load(args.book.as_deref(), pos.variant())?;
    let moves = book.probe(&pos);
    if args.json {
        let list: Vec<serde_json::Value> = moves
            .iter()
            .map(|m| {
                serde_json::json!({
                    "move": pos.move_text(&m.mv),
                    "score_cp": m.score_cp,
                    "weight": m.weight,
                })
            })
            .collect();
        println!(
            "{}",
            serde_json::json!({ "fen": pos.to_fen(), "moves": list })
        );
    } else if moves.is_empty() {
        println!("no book moves");
    } else {
        for m in &moves {
            println!(
                "{:<12} score {:>7} weight {:>5}",
                pos.move_text(&m.mv),
                Score::Value(i32::from(m.score_cp)).to_string(),
                m.weight
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The book of `path`, or the embedded book of `variant`; a book of another game is an error.
fn load(path: Option<&std::path::Path>, variant: Variant) -> Result<Book, CliError> {
    let book = match path {
        Some(p) => {
            let bytes = std::fs::read(p)
                .map_err(|e| CliError(format!("cannot read book {}: {e}", p.display())))?;
            Book::from_bytes(&bytes).map_err(|e| CliError(format!("{}: {e}", p.display())))?
        }
        None => Book::embedded(variant)
            .map(|b| (*b).clone())
            .ok_or_else(|| CliError(format!("the embedded {variant} book is broken")))?,
    };
    if book.variant() != variant {
        return Err(CliError(format!(
            "the book is for {}, not {variant}",
            book.variant()
        )));
    }
    Ok(book)
}

/// A position waiting to be analysed: expanded in order of the score lost along its line (the
/// sum of the gaps to the best move), then ply, then key (so the order is reproducible).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Pending {
    lost: i32,
    ply: u32,
    key: u64,
    fen: String,
}

/// Positions analysed in one batch: fixed, so that the book does not depend on `--threads`.
const BATCH: usize = 32;

/// The book weight of a move `gap` centi-men below the best: 1000 for the best, halved every 10.
fn weight(gap: i32) -> u16 {
    let w = 1000.0 * 0.5f64.powf(f64::from(gap.max(0)) / 10.0);
    (w.round() as u16).max(1)
}

/// Search every legal move of `pos` (each child within `limits`, hash cleared first) and return
/// (index in reading order, score for the side to move), best first.
fn analyse(engine: &mut Engine, pos: &Position, limits: &Limits) -> Vec<(u8, i32)> {
    let stop = AtomicBool::new(false);
    let mut scored: Vec<(u8, i32)> = pos
        .legal_moves_sorted()
        .iter()
        .enumerate()
        .map(|(i, mv)| {
            engine.new_game();
            let child = Game::from_position(pos.after(mv));
            let r = engine.search(&child, limits, &stop, &mut |_| {});
            let s = r.score.negate().as_centi().clamp(-32_000, 32_000);
            (i as u8, s)
        })
        .collect();
    scored.sort_by_key(|&(i, s)| (Reverse(s), i));
    scored
}

fn build(args: &BuildArgs) -> Result<ExitCode, CliError> {
    let variant: Variant = args.variant.parse()?;
    if args.plies == 0 {
        return Err(CliError("--plies 0: expected at least 1".into()));
    }
    check_threads(args.threads)?;
    if args.margin < 0 {
        return Err(CliError(format!(
            "--margin {}: expected 0 or more",
            args.margin
        )));
    }
    let limits = match (args.nodes, args.movetime) {
        (_, Some(ms)) => Limits::movetime(ms.max(1)),
        (n, None) => Limits {
            nodes: Some(n.unwrap_or(20_000).max(1)),
            ..Limits::default()
        },
    };
    // Before any work: the book file can be written.
    let mut out = OutFile::create(&args.out, "--out")?;
    out.on_interrupt(false);
    // The roots: the start (both Impasse setups), and for American the ACF ballots (3 plies in).
    let mut roots: Vec<(Position, u32)> = match variant {
        Variant::Impasse => vec![
            (Position::impasse(ImpasseSetup::Seed), 0),
            (Position::impasse(ImpasseSetup::Steere), 0),
        ],
        _ => vec![(Position::new(variant), 0)],
    };
    if variant == Variant::American {
        roots.extend(acf_three_move(variant)?.into_iter().map(|p| (p, 3)));
    }
    let mut queue = BinaryHeap::new();
    let mut seen = HashSet::new();
    for (p, ply) in roots {
        if ply < args.plies && seen.insert(p.zobrist()) {
            queue.push(Reverse(Pending {
                lost: 0,
                ply,
                key: p.zobrist(),
                fen: p.to_fen(),
            }));
        }
    }

    let bar = ProgressBar::new(u64::from(args.max_positions));
    bar.set_style(
        ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {human_pos}/{human_len} positions, ETA {eta} {msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    let started = std::time::Instant::now();
    let mut entries: Vec<(u64, Vec<BookEntryMove>)> = Vec::new();
    let never = AtomicBool::new(false);
    while entries.len() < args.max_positions as usize && !queue.is_empty() {
        let take = BATCH.min(args.max_positions as usize - entries.len());
        let batch: Vec<Pending> = (0..take).filter_map(|_| queue.pop().map(|r| r.0)).collect();
        let positions: Vec<Position> = batch
            .iter()
            .map(|p| Position::from_fen(variant, &p.fen))
            .collect::<Result<_, _>>()
            .map_err(|e| CliError(format!("book build: {e}")))?;
        let mut results: Vec<Vec<(u8, i32)>> = vec![Vec::new(); batch.len()];
        // Each worker has its own single-threaded engine; `analyse` clears its table before every
        // search, so the book does not depend on which worker analyses which position.
        let pool = Pool {
            jobs: positions.len(),
            threads: args.threads,
            stop: &never,
        };
        pool.run(
            |_| {
                Some(Engine::new(EngineOptions {
                    hash_mib: 4,
                    threads: 1,
                    level: None,
                }))
            },
            |engine, i, worker| worker.report((i, analyse(engine, &positions[i], &limits))),
            |(i, scored)| {
                results[i] = scored;
                bar.inc(1);
                Flow::Continue
            },
        );
        for ((pending, pos), scored) in batch.iter().zip(&positions).zip(results) {
            let Some(&(_, best)) = scored.first() else {
                continue;
            };
            let legal = pos.legal_moves_sorted();
            let kept: Vec<(u8, i32)> = scored
                .into_iter()
                .filter(|&(_, s)| s >= best - args.margin)
                .take(args.max_moves as usize)
                .collect();
            for &(i, s) in &kept {
                let child = pos.after(&legal[i as usize]);
                if pending.ply + 1 < args.plies
                    && !child.legal_moves().is_empty()
                    && seen.insert(child.zobrist())
                {
                    queue.push(Reverse(Pending {
                        lost: pending.lost + (best - s),
                        ply: pending.ply + 1,
                        key: child.zobrist(),
                        fen: child.to_fen(),
                    }));
                }
            }
            entries.push((
                pending.key,
                kept.iter()
                    .map(|&(i, s)| BookEntryMove {
                        index: i,
                        score_cp: s as i16,
                        weight: weight(best - s),
                    })
                    .collect(),
            ));
        }
        bar.set_message(format!("{} waiting", queue.len()));
    }
    bar.finish_and_clear();
    let book = Book::from_entries(variant, entries);
    let bytes = book.to_bytes();
    out.write_all(&bytes)?;
    out.persist()?;
    println!(
        "{}: {variant} book, {} positions, {} moves, {} bytes, {:.1} s",
        args.out.display(),
        book.len(),
        book.move_count(),
        bytes.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crown_arena::openings::{read_openings, ACF_THREE_MOVE_PDN};

    /// The first move of every ballot of the ACF deck, read from the deck's text.
    fn deck_first_moves() -> HashSet<String> {
        ACF_THREE_MOVE_PDN
            .lines()
            .filter_map(|l| l.strip_prefix("1. "))
            .filter_map(|l| l.split_whitespace().next())
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn the_american_book_starts_with_deck_moves_and_covers_every_ballot() {
        let book = Book::embedded(Variant::American).unwrap();
        let start = Position::new(Variant::American);
        let moves = book.probe(&start);
        assert!(!moves.is_empty(), "no book move at the start");
        let deck = deck_first_moves();
        // The deck opens with each of the 7 legal first moves (ballots 1-174 of the ACF list).
        assert_eq!(deck.len(), 7, "{deck:?}");
        for m in &moves {
            assert!(deck.contains(&start.move_text(&m.mv)));
        }
        // Every ballot's position is a root of the build, so it has book moves.
        let ballots = read_openings(ACF_THREE_MOVE_PDN, "acf3", Variant::American).unwrap();
        assert_eq!(ballots.len(), 156);
        for b in &ballots {
            assert!(
                !book.probe(b).is_empty(),
                "ballot {} not in the book",
                b.to_fen()
            );
        }
    }

    #[test]
    fn every_american_book_move_is_legal_and_every_position_reachable() {
        // Walk from the start and the 156 ballots along every book move.
        let book = Book::embedded(Variant::American).unwrap();
        let mut stack = vec![Position::new(Variant::American)];
        stack.extend(read_openings(ACF_THREE_MOVE_PDN, "acf3", Variant::American).unwrap());
        let mut seen = HashSet::new();
        while let Some(pos) = stack.pop() {
            let stored = book.entry(pos.zobrist());
            if stored.is_empty() || !seen.insert(pos.zobrist()) {
                continue;
            }
            let moves = book.probe(&pos);
            assert_eq!(
                moves.len(),
                stored.len(),
                "illegal book move in {}",
                pos.to_fen()
            );
            for m in moves {
                assert!(pos.is_legal(&m.mv));
                stack.push(pos.after(&m.mv));
            }
        }
        assert_eq!(seen.len(), book.len());
    }

    #[test]
    fn weights_halve_every_ten_centi_men() {
        assert_eq!(weight(0), 1000);
        assert_eq!(weight(10), 500);
        assert_eq!(weight(20), 250);
        assert_eq!(weight(1000), 1);
    }
}
