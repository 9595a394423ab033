//! `crown match`: engine against engine, each opening played with both colours; optionally in
//! parallel, against another `crown` binary, and stopped by a pentanomial SPRT. The match itself is
//! [`crown_arena::runner::Match`]; this module parses the arguments, makes the players, writes the
//! PDN and shows progress and the result.

mod report;
mod spec;

use crate::common::{egdb_description, pdn_date_today, shared_dir, EgdbArgs};
use crate::CliError;
use clap::Args;
use crown_ai::{EndgameTables, Engine};
use crown_arena::external::{EgdbWanted, ExternalEngine, ExternalOptions};
use crown_arena::game::SeatConfig;
use crown_arena::openings::{acf_three_move, read_opening_file, Openings};
use crown_arena::runner::{Flow, Match, MatchEvent, PairGame};
use crown_arena::sprt::{self, Verdict};
use crown_arena::{ArenaError, Player};
use crown_core::{Color, ImpasseSetup, Variant};
use crown_notation::game_to_pdn;
use indicatif::{ProgressBar, ProgressStyle};
use report::{print_result, Tally};
use spec::{check_external_spec, parse_spec, Spec};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Arguments of `crown match`.
#[derive(Args, Debug)]
pub struct MatchArgs {
    /// Game: american, pool or impasse.
    #[arg(long, default_value = "american")]
    variant: String,
    /// Impasse start setup: seed (default) or steere; the random openings start from it.
    #[arg(long)]
    setup: Option<String>,
    /// Number of games (rounded up to an even number: each opening is played with both colours).
    /// Default 20; with --sprt, the most games to play (default 20000) if no bound is reached.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    games: Option<u32>,
    /// Engine A: comma-separated key=value, each key once, among level=1..10, depth=PLIES,
    /// movetime=MS, nodes=N,
    /// hash=MIB, threads=N, time=MS and inc=MS (a game clock: the engine loses on time when it runs
    /// out), egdb=0|1 (use the match's endgame databases, default 1),
    /// eval=classic|trained (default: the game's), the search switches (built-in engines only,
    /// docs/engine.md "Search switches"): malus=0|1, rfp=0|1, rfpm=10..400, rfpd=1..8, futility=0|1, lmr=0..2,
    /// trunc=MARGIN, truncd=1..8, threat=0|1, tmargin=MARGIN, ext=0..2, iir=0|1, asp=5..500,
    /// probcut=0|1, mc=0|1, lmp=0|1, etc=0|1, cq=0..2,
    /// book=0|1 (play from the embedded opening book; default: --book), weights=FILE (trained
    /// weights written by `crown tune fit`, for this game; built-in engines only), e.g. "level=10",
    /// "depth=8,hash=32" or
    /// "time=1000,inc=100".
    #[arg(long, default_value = "level=10")]
    engine_a: String,
    /// Engine B, same syntax as --engine-a.
    #[arg(long, default_value = "level=5")]
    engine_b: String,
    /// Engine B is this `crown` binary instead of the built-in engine, driven through its
    /// `crown engine` line protocol (docs/protocol.md); e.g. an older revision for a SPRT. Its spec
    /// may not use the keys the protocol cannot set (eval, weights, the search switches). It has
    /// 10 s plus 5 times its move time (or clock) to answer each move.
    #[arg(long)]
    engine_b_bin: Option<PathBuf>,
    /// Openings: a PDN file (each game's position after its main line: its [FEN] tag or the start,
    /// then its moves), or `acf3` for the embedded ACF three-move deck (156 ballots). American
    /// default: the ACF deck plus the 11-man ballots of the shared data when found; other games:
    /// random balanced openings. Each game's GameType must be the variant's (no GameType means
    /// checkers: accepted for american and pool, not impasse); a game whose position is already
    /// over is refused. Openings are shuffled by --seed.
    #[arg(long)]
    openings: Option<String>,
    /// Cap on each engine's time per move in ms (at least 1).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Node budget per move for both engines (deterministic whatever the machine's load; at least
    /// 1).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Game pairs played at once, each on its own thread with single-threaded engines unless a spec
    /// says threads=N.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    concurrency: u32,
    /// Stop by a sequential probability ratio test on game pairs: H0 "A is ELO0 stronger" against
    /// H1 "A is ELO1 stronger", logistic Elo, e.g. "0,5" (fishtest's pentanomial GSPRT).
    #[arg(long, value_name = "ELO0,ELO1")]
    sprt: Option<String>,
    /// SPRT false-positive rate.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// SPRT false-negative rate.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Write every game to this PDN file, each as soon as it ends (kept when the match fails or is
    /// interrupted).
    #[arg(long)]
    pdn: Option<PathBuf>,
    /// Seed for the choice of openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Adjudicate a draw after this many plies (at least 1).
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..))]
    max_plies: u32,
    #[command(flatten)]
    egdb: EgdbArgs,
    /// Both engines play from the embedded opening book (off by default, so that a match measures
    /// the search; a spec's book=0|1 overrides this for its engine).
    #[arg(long)]
    book: bool,
}

/// Parse `--sprt ELO0,ELO1`.
fn parse_sprt(text: &str) -> Result<(f64, f64), CliError> {
    let bad = || {
        CliError(format!(
            "--sprt '{text}': expected ELO0,ELO1 with ELO0 < ELO1, e.g. 0,5"
        ))
    };
    let (a, b) = text.split_once(',').ok_or_else(bad)?;
    let (e0, e1): (f64, f64) = (
        a.trim().parse().map_err(|_| bad())?,
        b.trim().parse().map_err(|_| bad())?,
    );
    if !(e0.is_finite() && e1.is_finite() && e0 < e1) {
        return Err(bad());
    }
    Ok((e0, e1))
}

fn openings(args: &MatchArgs, variant: Variant) -> Result<Openings, CliError> {
    let setup = match &args.setup {
        None => ImpasseSetup::Seed,
        Some(s) => {
            let setup: ImpasseSetup = s.parse()?;
            if variant != Variant::Impasse {
                return Err(CliError(format!(
                    "--setup {s} applies only to --variant impasse"
                )));
            }
            if args.openings.is_some() {
                return Err(CliError(
                    "give either --openings or --setup, not both".into(),
                ));
            }
            setup
        }
    };
    let list = match (args.openings.as_deref(), variant) {
        (Some("acf3"), Variant::American | Variant::Pool) => acf_three_move(variant)?,
        (Some("acf3"), Variant::Impasse) => {
            return Err(CliError(
                "--openings acf3 is a checkers deck, not for --variant impasse".into(),
            ))
        }
        (Some(path), _) => read_opening_file(Path::new(path), variant)?,
        (None, Variant::American) => {
            let mut all = acf_three_move(variant)?;
            match shared_dir() {
                Some(dir) => all.extend(read_opening_file(
                    &dir.join("data/pdn/ballots-11-man-english.pdn"),
                    variant,
                )?),
                None => eprintln!(
                    "note: shared data not found (CROWN_SHARED); openings: the ACF three-move deck only"
                ),
            }
            all
        }
        (None, _) => {
            return Ok(Openings::Random {
                seed: args.seed,
                setup,
            })
        }
    };
    Ok(Openings::shuffled(list, args.seed))
}

/// The built-in engine of `spec`, with the match's endgame databases unless the spec says
/// `egdb=0`.
fn internal_engine(spec: &Spec, tables: Option<&Arc<dyn EndgameTables>>) -> Engine {
    let mut engine = Engine::new(spec.options.clone());
    engine.set_tables(tables.cloned().filter(|_| spec.egdb));
    engine.set_eval(spec.eval);
    engine.set_tweaks(spec.tweaks);
    engine.set_book(spec.book == Some(true));
    engine.set_weights(spec.weights.clone());
    engine.set_network(spec.network.clone());
    engine
}

/// Engine A and engine B of one worker.
type Players = (Box<dyn Player>, Box<dyn Player>);

/// The players of one worker: A built in; B built in, or the binary `b_bin` (its start-up warning,
/// if any, on stderr).
fn players(
    variant: Variant,
    (a, b): (&Spec, &Spec),
    b_bin: Option<&Path>,
    b_egdb: &EgdbWanted,
    tables: Option<&Arc<dyn EndgameTables>>,
) -> Result<Players, ArenaError> {
    let a_player: Box<dyn Player> = Box::new(internal_engine(a, tables));
    let b_player: Box<dyn Player> = match b_bin {
        Some(path) => {
            let options = ExternalOptions {
                variant,
                hash_mib: b.options.hash_mib,
                threads: b.options.threads,
                level: b.options.level,
                book: b.book == Some(true),
                egdb: b_egdb.clone(),
            };
            let mut engine = ExternalEngine::start(path, "engine B", &options)?;
            if let Some(w) = engine.take_warning() {
                eprintln!("warning: {w}");
            }
            Box::new(engine)
        }
        None => Box::new(internal_engine(b, tables)),
    };
    Ok((a_player, b_player))
}

/// The PDN of a finished match game: "A (spec)" and "B (spec)" as the players, so that identical
/// specs stay distinguishable, followed by a blank line.
fn game_pdn(g: &PairGame, (a, b): (&Spec, &Spec), date: &str) -> String {
    let (a_name, b_name) = (format!("A ({})", a.text), format!("B ({})", b.text));
    let (black, white) = if g.record.seat0_color == Color::Black {
        (a_name.as_str(), b_name.as_str())
    } else {
        (b_name.as_str(), a_name.as_str())
    };
    let mut pdn = game_to_pdn(
        &g.record.game,
        &[
            ("Event", "crown match"),
            ("Date", date),
            ("Round", &g.round()),
            ("Black", black),
            ("White", white),
        ],
    );
    pdn.push('\n');
    pdn
}

/// Run `crown match`.
pub fn run(args: &MatchArgs) -> Result<ExitCode, CliError> {
    let variant: Variant = args.variant.parse()?;
    let mut a = parse_spec(&args.engine_a, args.movetime, args.nodes)?;
    let mut b = parse_spec(&args.engine_b, args.movetime, args.nodes)?;
    a.book.get_or_insert(args.book);
    b.book.get_or_insert(args.book);
    for (name, spec) in [("A", &a), ("B", &b)] {
        if let Some(w) = &spec.weights {
            if w.variant != variant {
                return Err(CliError(format!(
                    "engine {name} spec '{}': the weights are for {}, the match is {}",
                    spec.text,
                    w.variant.id(),
                    variant.id()
                )));
            }
        }
    }
    if args.engine_b_bin.is_some() {
        check_external_spec(&b)?;
    }
    let sprt_bounds = args.sprt.as_deref().map(parse_sprt).transpose()?;
    if !(args.alpha > 0.0 && args.alpha < 0.5 && args.beta > 0.0 && args.beta < 0.5) {
        return Err(CliError(format!(
            "--alpha {} / --beta {}: each must be between 0 and 0.5",
            args.alpha, args.beta
        )));
    }
    let games = args
        .games
        .unwrap_or(if sprt_bounds.is_some() { 20_000 } else { 20 });
    let pairs = games.div_ceil(2).max(1) as usize;
    let openings = openings(args, variant)?;
    let tables = args.egdb.load();
    let b_egdb = if b.egdb && tables.is_some() {
        EgdbWanted {
            value: args.egdb.egdb.as_ref().map_or("default".to_string(), |d| {
                std::path::absolute(d)
                    .unwrap_or_else(|_| d.clone())
                    .display()
                    .to_string()
            }),
            description: egdb_description(tables.as_ref()),
        }
    } else {
        EgdbWanted::none()
    };
    let date = pdn_date_today();
    // The PDN file is created before the first game and every game is appended to it as soon as
    // it ends, so that a failure or Ctrl-C loses no finished game.
    let mut pdn_file = match &args.pdn {
        Some(path) => Some(
            std::fs::File::create(path)
                .map_err(|e| CliError(format!("writing {}: {e}", path.display())))?,
        ),
        None => None,
    };
    let llr_bounds = sprt::bounds(args.alpha, args.beta);
    let total = (pairs * 2) as u64;
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {msg}  [{elapsed}<{eta}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let quiet_bar = std::io::stderr().is_terminal();
    // Ctrl-C (or SIGTERM): finish the games in progress, then print the result; a second one
    // quits at once (the finished games are in the PDN file already).
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\ninterrupted: finishing the games in progress (interrupt again to quit now)");
    });
    let seat = |name: &str, spec: &Spec| SeatConfig {
        name: name.into(),
        limits: spec.limits.clone(),
        clock: spec.clock,
    };
    let arena = Match {
        variant,
        openings: &openings,
        pairs,
        concurrency: args.concurrency as usize,
        max_plies: args.max_plies as usize,
        seats: [seat("A", &a), seat("B", &b)],
        stop: &INTERRUPTED,
    };
    let mut tally = Tally::default();
    let mut failure: Option<CliError> = None;
    let mut test = sprt_bounds.map(|(e0, e1)| sprt::Sequential::new(e0, e1, llr_bounds));
    let make_players = || {
        players(
            variant,
            (&a, &b),
            args.engine_b_bin.as_deref(),
            &b_egdb,
            tables.as_ref(),
        )
    };
    let summary = arena.run(make_players, |event| match event {
        MatchEvent::Failed(e) => {
            failure.get_or_insert(CliError(e.to_string()));
            Flow::Abort
        }
        MatchEvent::Game(g) => {
            if let Some(t) = g.record.time_loss {
                eprintln!(
                    "\n{} lost on time: {} ms used with {} ms left at ply {}",
                    if t.seat == 0 { "A" } else { "B" },
                    t.used_ms,
                    t.left_ms,
                    t.ply
                );
            }
            let mut flow = Flow::Continue;
            if let (Some(f), Some(path)) = (pdn_file.as_mut(), &args.pdn) {
                let pdn = game_pdn(g, (&a, &b), &date);
                if let Err(e) = f.write_all(pdn.as_bytes()).and_then(|()| f.flush()) {
                    failure.get_or_insert(CliError(format!("writing {}: {e}", path.display())));
                    pdn_file = None;
                    flow = Flow::Abort;
                }
            }
            bar.inc(1);
            flow
        }
        MatchEvent::Pair(pair) => {
            // Once the SPRT has stopped, pairs still in flight are not counted: the verdict and
            // the counts are those at the crossing.
            if let Some(t) = test.as_mut() {
                if !t.add_pair(pair[0].record.half_points, pair[1].record.half_points) {
                    return Flow::Continue;
                }
            }
            tally.add_pair(pair);
            let (wins, draws, losses) = (tally.wins, tally.draws, tally.losses);
            let mut flow = Flow::Continue;
            let msg = match &test {
                Some(t) => {
                    if t.verdict() != Verdict::Inconclusive {
                        flow = Flow::Halt;
                    }
                    format!(
                        "A +{wins} ={draws} -{losses}  LLR {:.2} ({:.2}, {:.2})  pentanomial {:?}",
                        t.llr(),
                        llr_bounds.0,
                        llr_bounds.1,
                        tally.penta.0
                    )
                }
                None => format!("A +{wins} ={draws} -{losses}"),
            };
            let msg = if a.clock.is_some() || b.clock.is_some() {
                format!(
                    "{msg}  on time: A {} B {}",
                    tally.time_losses[0], tally.time_losses[1]
                )
            } else {
                msg
            };
            // Without a terminal the bar is hidden: a status line every 100 games instead,
            // so a log file shows progress.
            if !quiet_bar && tally.penta.pairs() % 50 == 0 {
                eprintln!("{} games: {msg}", 2 * tally.penta.pairs());
            }
            bar.set_message(msg);
            flow
        }
    });
    bar.finish();
    let finished = summary.finished;
    let interrupted = INTERRUPTED.load(Ordering::SeqCst);
    let stopped_early = failure.is_some() || interrupted;
    // A match stopped before any game ended (engine B did not start, say) has no result to show.
    if stopped_early && finished > 0 {
        println!(
            "match stopped early: {}",
            if failure.is_some() {
                "a game failed (the error follows)"
            } else {
                "interrupted"
            }
        );
    }
    if !stopped_early || finished > 0 {
        print_result(
            (args.alpha, args.beta),
            (&a, &b),
            &tally,
            test.as_ref().zip(sprt_bounds),
            llr_bounds,
            &summary.unpaired,
        );
    }
    if let Some(e) = failure {
        return Err(e);
    }
    if interrupted {
        return Err(CliError(format!(
            "interrupted after {finished} finished games"
        )));
    }
    Ok(ExitCode::SUCCESS)
}

/// Set by Ctrl-C (or SIGTERM) during `crown match`: no new game starts.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_spec_t(text: &str, movetime: Option<u64>) -> Result<Spec, CliError> {
        parse_spec(text, movetime, None)
    }

    #[test]
    fn the_book_is_off_unless_asked() {
        assert_eq!(parse_spec_t("depth=8", None).unwrap().book, None);
        assert_eq!(
            parse_spec_t("depth=8,book=1", None).unwrap().book,
            Some(true)
        );
        assert_eq!(
            parse_spec_t("depth=8,book=0", None).unwrap().book,
            Some(false)
        );
        assert!(parse_spec_t("book=2", None).is_err());
        // `crown match` without --book: both built-in engines search from the first move.
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            args: MatchArgs,
        }
        let cli = Cli::try_parse_from(["crown"]).unwrap();
        assert!(!cli.args.book);
        let cli = Cli::try_parse_from(["crown", "--book"]).unwrap();
        assert!(cli.args.book);
        // The engines a match makes: book off for a spec without book=1.
        let (a, b) = (
            parse_spec_t("nodes=100", None).unwrap(),
            parse_spec_t("nodes=100,book=1", None).unwrap(),
        );
        let (a, b) = (internal_engine(&a, None), internal_engine(&b, None));
        assert!(!a.book());
        assert!(b.book());
    }

    #[test]
    fn sprt_argument() {
        assert_eq!(parse_sprt("0,5").unwrap(), (0.0, 5.0));
        assert_eq!(parse_sprt(" -3 , 2.5").unwrap(), (-3.0, 2.5));
        for bad in ["5,0", "0", "a,b", "1,1", ""] {
            assert!(parse_sprt(bad).is_err(), "{bad}");
        }
    }

    /// `--nodes 0`, `--movetime 0` and `--max-plies 0` are refused by the argument parser.
    #[test]
    fn zero_budgets_are_refused() {
        use clap::Parser;
        #[derive(Parser)]
        struct Cli {
            #[command(flatten)]
            args: MatchArgs,
        }
        for flag in ["--nodes", "--movetime", "--max-plies"] {
            assert!(
                Cli::try_parse_from(["crown", flag, "0"]).is_err(),
                "{flag} 0"
            );
            assert!(
                Cli::try_parse_from(["crown", flag, "1"]).is_ok(),
                "{flag} 1"
            );
        }
    }
}
