//! `crown match`: engine against engine, each opening played with both colours.

use crate::common::pdn_date_today;
use crate::CliError;
use clap::Args;
use crown_ai::{Clock, Engine, EngineOptions, Limits, MAX_HASH_MIB};
use crown_core::{Color, Game, ImpasseSetup, Position, Variant};
use crown_notation::{game_to_pdn, read_games, variant_from_game_type};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;

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
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
    games: u32,
    /// Engine A: comma-separated key=value among level=1..10, depth=PLIES, movetime=MS, nodes=N,
    /// hash=MIB, threads=N, time=MS and inc=MS (a game clock: the engine loses on time when it runs
    /// out), e.g. "level=10", "depth=8,hash=32" or "time=1000,inc=100".
    #[arg(long, default_value = "level=10")]
    engine_a: String,
    /// Engine B, same syntax as --engine-a.
    #[arg(long, default_value = "level=5")]
    engine_b: String,
    /// PDN file whose [FEN "..."] tags are the openings (American default: the 11-man ballots in the
    /// shared data; other games: random balanced openings). Each game's GameType must be the
    /// variant's (no GameType means checkers: accepted for american and pool, not impasse).
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Cap on each engine's time per move in ms.
    #[arg(long)]
    movetime: Option<u64>,
    /// Write every game to this PDN file.
    #[arg(long)]
    pdn: Option<PathBuf>,
    /// Seed for the choice of openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Adjudicate a draw after this many plies.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
}

/// One engine's settings, parsed from a SPEC.
#[derive(Clone, Debug)]
struct Spec {
    text: String,
    limits: Limits,
    options: EngineOptions,
    /// Game clock (start time, increment) in ms.
    clock: Option<Clock>,
}

fn parse_spec(text: &str, movetime: Option<u64>) -> Result<Spec, CliError> {
    let mut limits = Limits::default();
    let mut options = EngineOptions {
        hash_mib: 16,
        threads: 1,
        level: None,
    };
    let mut clock: Option<Clock> = None;
    if text.split(',').all(|p| p.trim().is_empty()) {
        return Err(CliError(format!(
            "engine spec '{text}' is empty: give key=value pairs such as level=5 or depth=8"
        )));
    }
    let range = |name: &str, n: u64, lo: u64, hi: u64| {
        if (lo..=hi).contains(&n) {
            Ok(n)
        } else {
            Err(CliError(format!(
                "engine spec '{text}': {name} {n} is not {lo} to {hi}"
            )))
        }
    };
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (k, v) = part
            .split_once('=')
            .ok_or_else(|| CliError(format!("engine spec '{text}': '{part}' is not key=value")))?;
        let n: u64 = v
            .parse()
            .map_err(|_| CliError(format!("engine spec '{text}': '{v}' is not a number")))?;
        match k {
            "level" => {
                if !(1..=10).contains(&n) {
                    return Err(CliError(format!(
                        "engine spec '{text}': level {n} is not 1 to 10"
                    )));
                }
                let l = Limits::level(n as u8);
                limits.depth = l.depth;
                limits.movetime_ms = l.movetime_ms;
                options.level = Some(n as u8);
            }
            "depth" => limits.depth = Some(range("depth", n, 1, crown_ai::MAX_PLY as u64)? as u32),
            "movetime" => limits.movetime_ms = Some(n),
            "nodes" => limits.nodes = Some(n),
            "hash" => options.hash_mib = range("hash", n, 1, MAX_HASH_MIB as u64)? as usize,
            "time" => clock.get_or_insert(Clock::default()).remaining_ms = n,
            "inc" => clock.get_or_insert(Clock::default()).increment_ms = n,
            "threads" => {
                options.threads = range("threads", n, 1, crate::engine_cmd::MAX_THREADS as u64)? as usize
            }
            _ => {
                return Err(CliError(format!(
                    "engine spec '{text}': unknown key '{k}' (level, depth, movetime, nodes, hash, threads, time, inc)"
                )))
            }
        }
    }
    if let Some(cap) = movetime {
        limits.movetime_ms = Some(limits.movetime_ms.map_or(cap, |m| m.min(cap)));
    }
    if limits.depth.is_none()
        && limits.movetime_ms.is_none()
        && limits.nodes.is_none()
        && clock.is_none()
    {
        limits.movetime_ms = Some(100);
    }
    Ok(Spec {
        text: text.to_string(),
        limits,
        options,
        clock,
    })
}

/// The shared data directory: `$CROWN_SHARED`, else `../shared` or `shared` from the current
/// directory or one of its parents.
fn shared_dir() -> Option<PathBuf> {
    if let Ok(p) = std::env::var("CROWN_SHARED") {
        return Some(PathBuf::from(p));
    }
    let mut dir = std::env::current_dir().ok()?;
    loop {
        for cand in [dir.join("../shared"), dir.join("shared")] {
            if cand.join("data/pdn").is_dir() {
                return Some(cand);
            }
        }
        if !dir.pop() {
            return None;
        }
    }
}

/// The start positions (`[FEN "..."]` tags) of the games of a PDN file, for `variant`. Each game's
/// `GameType` must name `variant`; a game without the tag is checkers by the PDN 2.0 convention and
/// is accepted for American and pool checkers (same board and FEN), not for Impasse. Games without a
/// FEN tag are skipped.
///
/// # Errors
/// A one-line message naming the file and game: unreadable file or PDN, a `GameType` of another
/// game, a FEN that is not a legal position of `variant`, or no FEN at all.
fn read_fen_openings(path: &Path, variant: Variant) -> Result<Vec<Position>, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError(format!("reading openings {}: {e}", path.display())))?;
    let mut out = Vec::new();
    for game in read_games(&text) {
        let game = game.map_err(|e| CliError(format!("openings {}: {e}", path.display())))?;
        let at = || {
            format!(
                "openings {}: game {} (line {})",
                path.display(),
                game.index,
                game.line
            )
        };
        let game_type = game.tag("GameType");
        let ok = match variant_from_game_type(game_type) {
            Ok(v) if game_type.is_some() => v == variant,
            Ok(_) => variant != Variant::Impasse,
            Err(e) => return Err(CliError(format!("{}: {e}", at()))),
        };
        if !ok {
            let named = match game_type {
                Some(t) => format!("GameType \"{t}\""),
                None => "no GameType tag (checkers)".to_string(),
            };
            return Err(CliError(format!(
                "{}: {named} is not {} (--variant {})",
                at(),
                variant.name(),
                variant.id()
            )));
        }
        let Some(fen) = game.tag("FEN") else {
            continue;
        };
        let pos = Position::from_fen(variant, fen)
            .map_err(|e| CliError(format!("{}: FEN \"{fen}\": {e}", at())))?;
        out.push(pos);
    }
    if out.is_empty() {
        return Err(CliError(format!("{}: no [FEN] tags found", path.display())));
    }
    Ok(out)
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// A random opening: a few random plies from the start, kept when a shallow search finds it
/// balanced (within 0.30 men).
fn random_opening(variant: Variant, setup: ImpasseSetup, rng: &mut Rng) -> Position {
    let mut judge = Engine::new(EngineOptions {
        hash_mib: 4,
        threads: 1,
        level: None,
    });
    let stop = AtomicBool::new(false);
    let plies = if variant == Variant::Impasse { 4 } else { 6 };
    loop {
        let mut game = if variant == Variant::Impasse {
            Game::impasse(setup)
        } else {
            Game::new(variant)
        };
        for _ in 0..plies {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let _ = game.play(&mv);
        }
        if game.outcome().is_some() {
            continue;
        }
        judge.new_game();
        let r = judge.search(&game, &Limits::depth(8), &stop, &mut |_| {});
        if r.score.as_centi().abs() <= 30 {
            return *game.position();
        }
    }
}

/// Elo difference for a score fraction.
fn elo(p: f64) -> f64 {
    -400.0 * (1.0 / p - 1.0).log10()
}

/// The Elo line of a match result (A's wins, draws and losses): the logistic Elo difference with its
/// 95% error by the delta method, or a sentence when one side won every game (the difference is
/// then unbounded).
fn elo_line(wins: u32, draws: u32, losses: u32) -> String {
    let n = f64::from(wins + draws + losses);
    if n == 0.0 {
        return "Elo difference A - B: no games".into();
    }
    let p = (f64::from(wins) + 0.5 * f64::from(draws)) / n;
    if p >= 1.0 {
        return "Elo difference A - B: unbounded (A won every game)".into();
    }
    if p <= 0.0 {
        return "Elo difference A - B: unbounded (B won every game)".into();
    }
    let var = (f64::from(wins) * (1.0 - p).powi(2)
        + f64::from(draws) * (0.5 - p).powi(2)
        + f64::from(losses) * p.powi(2))
        / n;
    let se = (var / n).sqrt();
    // Delta method: d(elo)/dp = 400 / (ln 10 · p (1 − p)).
    let err = 1.96 * se * 400.0 / (std::f64::consts::LN_10 * p * (1.0 - p));
    // Rounded to a whole number; a difference that rounds to zero is "+0", never "-0".
    let mut d = elo(p).round();
    if d == 0.0 {
        d = 0.0;
    }
    format!("Elo difference A - B: {d:+.0} +/- {err:.0} (95%)")
}

/// Run `crown match`.
pub fn run(args: &MatchArgs) -> Result<ExitCode, CliError> {
    let variant: Variant = args.variant.parse()?;
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
    let a = parse_spec(&args.engine_a, args.movetime)?;
    let b = parse_spec(&args.engine_b, args.movetime)?;
    let pairs = args.games.div_ceil(2).max(1) as usize;
    let mut rng = Rng(args.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let openings: Vec<Position> = match (&args.openings, variant) {
        (Some(path), _) => {
            let all = read_fen_openings(path, variant)?;
            (0..pairs).map(|_| all[rng.below(all.len())]).collect()
        }
        (None, Variant::American) => {
            let dir = shared_dir().ok_or_else(|| {
                CliError(
                    "cannot find the shared data (set CROWN_SHARED or give --openings FILE)".into(),
                )
            })?;
            let all = read_fen_openings(&dir.join("data/pdn/ballots-11-man-english.pdn"), variant)?;
            (0..pairs).map(|_| all[rng.below(all.len())]).collect()
        }
        (None, _) => (0..pairs)
            .map(|_| random_opening(variant, setup, &mut rng))
            .collect(),
    };
    let total = (pairs * 2) as u64;
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games  {msg}  [{elapsed}<{eta}]")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let mut ea = Engine::new(a.options.clone());
    let mut eb = Engine::new(b.options.clone());
    let stop = AtomicBool::new(false);
    let (mut wins, mut draws, mut losses) = (0u32, 0u32, 0u32);
    let mut time_losses = [0u32; 2];
    // Longest time one move took, in ms, for A and B.
    let mut longest = [0u64; 2];
    let mut pdn = String::new();
    let date = pdn_date_today();
    for (i, opening) in openings.iter().enumerate() {
        for a_first in [true, false] {
            ea.new_game();
            eb.new_game();
            let mut game = Game::from_position(*opening);
            let first = opening.side_to_move();
            // Engine A plays the side to move of the opening in the first game of the pair.
            let a_color = if a_first { first } else { first.opposite() };
            // Remaining clock time of A and B, in ms.
            let mut left = [
                a.clock.map(|c| c.remaining_ms),
                b.clock.map(|c| c.remaining_ms),
            ];
            while game.outcome().is_none() && game.ply_count() < args.max_plies {
                let mover = game.position().side_to_move();
                let a_turn = mover == a_color;
                let (engine, spec) = if a_turn { (&mut ea, &a) } else { (&mut eb, &b) };
                let who = usize::from(!a_turn);
                let mut limits = spec.limits.clone();
                if let (Some(c), Some(ms)) = (spec.clock, left[who]) {
                    limits.clock = Some(Clock {
                        remaining_ms: ms,
                        increment_ms: c.increment_ms,
                    });
                }
                let t0 = std::time::Instant::now();
                let r = engine.search(&game, &limits, &stop, &mut |_| {});
                let used = t0.elapsed().as_millis() as u64;
                longest[who] = longest[who].max(used);
                if let (Some(c), Some(ms)) = (spec.clock, left[who]) {
                    if used > ms {
                        eprintln!(
                            "\n{} lost on time: {used} ms used with {ms} ms left at ply {}",
                            if a_turn { "A" } else { "B" },
                            game.ply_count()
                        );
                        game.lose_on_time(mover);
                        time_losses[who] += 1;
                        break;
                    }
                    left[who] = Some(ms - used + c.increment_ms);
                }
                let Some(mv) = r.best_move else { break };
                game.play(&mv)?;
            }
            match game.outcome().and_then(|o| o.winner()) {
                Some(w) if w == a_color => wins += 1,
                Some(_) => losses += 1,
                None => draws += 1,
            }
            if args.pdn.is_some() {
                // "A (spec)" and "B (spec)", so that identical specs stay distinguishable.
                let (a_name, b_name) = (format!("A ({})", a.text), format!("B ({})", b.text));
                let (black, white) = if a_color == Color::Black {
                    (a_name.as_str(), b_name.as_str())
                } else {
                    (b_name.as_str(), a_name.as_str())
                };
                let round = format!("{}.{}", i + 1, if a_first { 1 } else { 2 });
                pdn.push_str(&game_to_pdn(
                    &game,
                    &[
                        ("Event", "crown match"),
                        ("Date", &date),
                        ("Round", &round),
                        ("Black", black),
                        ("White", white),
                    ],
                ));
                pdn.push('\n');
            }
            bar.set_message(format!("A +{wins} ={draws} -{losses}"));
            bar.inc(1);
        }
    }
    bar.finish();
    if let Some(path) = &args.pdn {
        std::fs::write(path, pdn)
            .map_err(|e| CliError(format!("writing {}: {e}", path.display())))?;
    }
    let n = f64::from(wins + draws + losses);
    let p = (f64::from(wins) + 0.5 * f64::from(draws)) / n;
    println!(
        "{} games: A ({}) {wins} wins, {draws} draws, {losses} losses; score {:.1}/{} = {:.1}%",
        wins + draws + losses,
        a.text,
        f64::from(wins) + 0.5 * f64::from(draws),
        wins + draws + losses,
        100.0 * p
    );
    if a.clock.is_some() || b.clock.is_some() {
        println!(
            "losses on time: A {}, B {}; longest move: A {} ms, B {} ms",
            time_losses[0], time_losses[1], longest[0], longest[1]
        );
    }
    println!("{}", elo_line(wins, draws, losses));
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_even_score_is_zero() {
        assert!(elo(0.5).abs() < 1e-9);
        // 75% is +190.8 Elo by the logistic formula: -400 log10(1/3).
        assert!((elo(0.75) - 190.85).abs() < 0.1);
    }

    #[test]
    fn elo_line_wording() {
        assert_eq!(
            elo_line(4, 0, 0),
            "Elo difference A - B: unbounded (A won every game)"
        );
        assert_eq!(
            elo_line(0, 0, 2),
            "Elo difference A - B: unbounded (B won every game)"
        );
        // An even score is no difference: "+0", not "-0".
        assert!(elo_line(1, 0, 1).starts_with("Elo difference A - B: +0 +/- "));
        assert!(elo_line(0, 2, 0).starts_with("Elo difference A - B: +0 +/- 0"));
        // 3 wins, 1 loss: 75% is +191 Elo (-400 log10(1/3) = 190.8).
        assert!(elo_line(3, 0, 1).starts_with("Elo difference A - B: +191 +/- "));
    }

    #[test]
    fn spec_parsing() {
        let s = parse_spec("level=10", Some(100)).unwrap();
        assert_eq!(s.limits.movetime_ms, Some(100));
        assert_eq!(s.options.level, Some(10));
        let s = parse_spec("depth=8,hash=32", None).unwrap();
        assert_eq!(s.limits.depth, Some(8));
        assert_eq!(s.options.hash_mib, 32);
        assert!(parse_spec("level=11", None).is_err());
        // The unknown-key message lists every key, the clock ones included.
        let e = parse_spec("speed=3", None).unwrap_err().0;
        assert!(
            e.ends_with("(level, depth, movetime, nodes, hash, threads, time, inc)"),
            "{e}"
        );
        for empty in ["", " ", ",", " , "] {
            let e = parse_spec(empty, None).unwrap_err().0;
            assert!(e.contains("is empty"), "{e}");
        }
        assert!(parse_spec("hash=0", None).is_err());
        assert!(parse_spec("threads=0", None).is_err());
        assert!(parse_spec("depth=0", None).is_err());
        let s = parse_spec("time=1000,inc=100", None).unwrap();
        assert_eq!(
            s.clock,
            Some(Clock {
                remaining_ms: 1000,
                increment_ms: 100
            })
        );
    }
}
