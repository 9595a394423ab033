//! `crown match`: engine against engine, each opening played with both colours; optionally in
//! parallel, against another `crown` binary, and stopped by a pentanomial SPRT.

use crate::common::{egdb_description, pdn_date_today, EgdbArgs};
use crate::sprt::{self, EloEstimate, NoInterval, Pentanomial, Verdict};
use crate::CliError;
use clap::Args;
use crown_ai::EndgameTables;
use crown_ai::{Clock, Engine, EngineOptions, Limits, SearchTweaks, MAX_HASH_MIB};
use crown_core::{Color, Game, ImpasseSetup, Move, Position, Variant};
use crown_notation::{game_to_pdn, game_type_tag, read_games, replay, variant_from_game_type};
use indicatif::{ProgressBar, ProgressStyle};
use std::io::{BufRead, BufReader, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitCode, Stdio};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// The ACF three-move deck (156 ballots), embedded: see the header of the file for its source.
pub const ACF_THREE_MOVE_PDN: &str = include_str!("../../../data/acf-3-move-ballots.pdn");

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
    /// eval=classic|trained (default: the game's), malus=0|1, rfp=0|1, futility=0|1 (search
    /// switches, built-in engines only: history malus, reverse futility, futility pruning),
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
    /// may not use the keys the protocol cannot set (eval, malus, rfp, futility, weights). It has
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

/// One engine's settings, parsed from a SPEC.
#[derive(Clone, Debug)]
struct Spec {
    text: String,
    limits: Limits,
    options: EngineOptions,
    /// Game clock (start time, increment) in ms.
    clock: Option<Clock>,
    /// Use the endgame databases (`egdb=1`, the default).
    egdb: bool,
    /// Evaluation (`eval=classic|trained`); `None` = the game's default.
    eval: Option<crown_ai::eval::EvalKind>,
    /// Search switches (`malus=0|1`, `rfp=0|1`, `futility=0|1`); unset ones keep the game's default.
    tweaks: SearchTweaks,
    /// Opening book (`book=0|1`); `None` = the match's `--book`.
    book: Option<bool>,
    /// Trained weights read from `weights=FILE`, used instead of the evaluation in games of their
    /// variant.
    weights: Option<Arc<crown_ai::trained::Weights>>,
    /// The keys the spec gives, in order (each at most once).
    keys: Vec<String>,
}

fn parse_spec(text: &str, movetime: Option<u64>, nodes: Option<u64>) -> Result<Spec, CliError> {
    let mut limits = Limits::default();
    let mut options = EngineOptions {
        hash_mib: 16,
        threads: 1,
        level: None,
    };
    let mut clock: Option<Clock> = None;
    let mut egdb = true;
    let mut eval = None;
    let mut tweaks = SearchTweaks::default();
    let mut book = None;
    let mut weights = None;
    let mut keys: Vec<String> = Vec::new();
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
        let k = k.trim();
        if keys.iter().any(|seen| seen == k) {
            return Err(CliError(format!(
                "engine spec '{text}': {k} is given twice"
            )));
        }
        keys.push(k.to_string());
        let v = v.trim();
        if k == "eval" {
            eval = Some(
                v.parse()
                    .map_err(|e| CliError(format!("engine spec '{text}': {e}")))?,
            );
            continue;
        }
        if k == "weights" {
            if v.is_empty() {
                return Err(CliError(format!(
                    "engine spec '{text}': weights= needs a file name (weights=FILE)"
                )));
            }
            let bytes = std::fs::read(v)
                .map_err(|e| CliError(format!("engine spec '{text}': reading weights {v}: {e}")))?;
            let w = crown_ai::trained::Weights::from_bytes(&bytes)
                .map_err(|e| CliError(format!("engine spec '{text}': {v}: {e}")))?;
            weights = Some(Arc::new(w));
            continue;
        }
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
            "movetime" => limits.movetime_ms = Some(range("movetime", n, 1, u64::MAX)?),
            "nodes" => limits.nodes = Some(range("nodes", n, 1, u64::MAX)?),
            "hash" => options.hash_mib = range("hash", n, 1, MAX_HASH_MIB as u64)? as usize,
            "time" => {
                clock.get_or_insert(Clock::default()).remaining_ms = range("time", n, 1, u64::MAX)?
            }
            "inc" => clock.get_or_insert(Clock::default()).increment_ms = n,
            "egdb" => egdb = range("egdb", n, 0, 1)? == 1,
            "malus" => tweaks.history_malus = Some(range("malus", n, 0, 1)? == 1),
            "rfp" => tweaks.reverse_futility = Some(range("rfp", n, 0, 1)? == 1),
            "futility" => tweaks.futility = Some(range("futility", n, 0, 1)? == 1),
            "book" => book = Some(range("book", n, 0, 1)? == 1),
            "threads" => {
                options.threads = range("threads", n, 1, crate::common::MAX_THREADS as u64)? as usize
            }
            _ => {
                return Err(CliError(format!(
                    "engine spec '{text}': unknown key '{k}' (level, depth, movetime, nodes, hash, threads, time, inc, egdb, eval, malus, rfp, futility, book, weights)"
                )))
            }
        }
    }
    if eval == Some(crown_ai::eval::EvalKind::Classic) && weights.is_some() {
        return Err(CliError(format!(
            "engine spec '{text}': eval=classic and weights= contradict each other (the weights replace the evaluation)"
        )));
    }
    if let Some(cap) = movetime {
        limits.movetime_ms = Some(limits.movetime_ms.map_or(cap, |m| m.min(cap)));
    }
    if let Some(n) = nodes {
        limits.nodes = Some(n);
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
        egdb,
        eval,
        tweaks,
        book,
        weights,
        keys,
    })
}

/// The shared data directory: `$CROWN_SHARED`, else `../shared` or `shared` from the current
/// directory or one of its parents.
pub(crate) fn shared_dir() -> Option<PathBuf> {
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

/// The openings of a PDN file: the file's text, read by [`read_openings`].
///
/// # Errors
/// The file cannot be read, or an error of [`read_openings`].
pub(crate) fn read_opening_file(path: &Path, variant: Variant) -> Result<Vec<Position>, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError(format!("reading openings {}: {e}", path.display())))?;
    read_openings(&text, &path.display().to_string(), variant)
}

/// The openings of PDN `text` (named `name` in errors), for `variant`: each game's position after
/// its main line, from its `[FEN]` tag (or the variant's start) through its moves. Each game's
/// `GameType` must name `variant`; a game without the tag is checkers by the PDN 2.0 convention and
/// is accepted for American and pool checkers (same board and FEN), not for Impasse. Games with
/// neither a FEN tag nor a move (the start position) are skipped.
///
/// # Errors
/// A one-line message naming the file and game: unreadable PDN, a `GameType` of another game, a FEN
/// that is not a legal position of `variant`, an illegal move, a game whose position is already
/// over (no legal move or no pieces left for the side to move), or no opening at all.
pub(crate) fn read_openings(
    text: &str,
    name: &str,
    variant: Variant,
) -> Result<Vec<Position>, CliError> {
    let mut out = Vec::new();
    for game in read_games(text) {
        let mut game = game.map_err(|e| CliError(format!("openings {name}: {e}")))?;
        let (index, line) = (game.index, game.line);
        let at = || format!("openings {name}: game {index} (line {line})");
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
        if let Some(fen) = game.tag("FEN") {
            Position::from_fen(variant, fen)
                .map_err(|e| CliError(format!("{}: FEN \"{fen}\": {e}", at())))?;
        }
        if game.tag("FEN").is_none() && game.main_line().next().is_none() {
            continue;
        }
        // A checkers game without GameType is replayed by the rules of `variant` (pool men capture
        // backwards).
        game.set_tag("GameType", game_type_tag(variant));
        let r = replay(&game).map_err(|e| CliError(format!("{}: {e}", at())))?;
        if let Some(o) = Game::from_position(r.end()).outcome() {
            return Err(CliError(format!(
                "{}: the game is already over ({o}), so it is no opening",
                at()
            )));
        }
        out.push(r.end());
    }
    if out.is_empty() {
        return Err(CliError(format!("openings {name}: no openings found")));
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
/// 95% error by the delta method, the difference alone when there are fewer than 10 games or every
/// game had the same result (an error bar of 0 would be false), or a sentence when one side won
/// every game (the difference is then unbounded).
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
    let min_games = 2 * sprt::MIN_PAIRS_FOR_INTERVAL;
    if wins + draws + losses < min_games as u32 {
        format!("Elo difference A - B: {d:+.0} (no error bar: it needs at least {min_games} games)")
    } else if var == 0.0 {
        format!("Elo difference A - B: {d:+.0} (no error bar: every game had the same result)")
    } else {
        format!("Elo difference A - B: {d:+.0} +/- {err:.0} (95%)")
    }
}

/// How long engine B may take to answer the `hub` … `wait` and `init` … `ready` handshake.
const HANDSHAKE_DEADLINE: Duration = Duration::from_secs(60);

/// How long engine B may take to answer `go think` under `limits` before the match kills it and
/// fails the game: 10 s plus 5 times its time budget (the move time or, with a game clock, the
/// time left plus the increment, whichever is smaller); with a node budget and no time, 10 s plus
/// 1 ms per node (a search of at least 1000 nodes per second); with a depth alone, 10 minutes.
fn answer_deadline(limits: &Limits) -> Duration {
    let clock = limits
        .clock
        .map(|c| c.remaining_ms.saturating_add(c.increment_ms));
    let budget = match (limits.movetime_ms, clock) {
        (Some(m), Some(c)) => Some(m.min(c)),
        (m, c) => m.or(c),
    };
    let ms = match (budget, limits.nodes) {
        (Some(b), _) => 10_000u64.saturating_add(b.saturating_mul(5)),
        (None, Some(n)) => 10_000u64.saturating_add(n),
        (None, None) => 600_000,
    };
    Duration::from_millis(ms)
}

/// The Elo line from game pairs: the estimate with its 95 % interval, or the estimate alone with
/// the reason there is no interval (too few pairs, or every pair scored the same).
fn pair_elo_line(penta: &Pentanomial) -> String {
    // Adding +0.0 turns a -0.0 into +0.0, so an even score prints "+0.0".
    match sprt::elo_estimate(penta) {
        EloEstimate::Interval(e, lo, hi) => {
            let (e, lo, hi) = (e + 0.0, lo + 0.0, hi + 0.0);
            format!(
                "Elo A - B from pairs: {e:+.1} (95% {lo:+.1} to {hi:+.1}, +/- {:.1})",
                (hi - lo) / 2.0
            )
        }
        EloEstimate::Point(e, why) => {
            let why = match why {
                NoInterval::TooFewPairs => format!(
                    "no interval: it needs at least {} game pairs",
                    sprt::MIN_PAIRS_FOR_INTERVAL
                ),
                NoInterval::NoSpread => {
                    "no interval: every pair scored the same, so the spread is unknown".to_string()
                }
            };
            format!("Elo A - B from pairs: {:+.1} ({why})", e + 0.0)
        }
        EloEstimate::Unbounded => {
            "Elo A - B from pairs: unbounded (one side won every game)".into()
        }
        EloEstimate::NoPairs => "Elo A - B from pairs: no game pairs".into(),
    }
}

/// A `crown` binary driven through its `crown engine` line protocol (docs/protocol.md).
struct External {
    path: PathBuf,
    child: Child,
    /// The engine's input; closed (`None`) once the engine is told to quit.
    stdin: Option<ChildStdin>,
    /// The engine's output lines, read by a thread so that a silent engine cannot block the match.
    lines: mpsc::Receiver<std::io::Result<String>>,
    /// The engine was killed (it did not answer in time): do not wait for it to quit.
    killed: bool,
}

/// What engine B must be told about the endgame databases: the `set-param name=egdb` value that
/// gives it the match's databases (`none`, `default` or a directory) and the description its `hub`
/// reply then shows (`none`, or e.g. `american ≤4 pieces`).
#[derive(Clone, Debug)]
struct EgdbWanted {
    value: String,
    description: String,
}

impl External {
    /// Start `path engine`, identify it (`hub` … `wait`, `init` … `ready`) and set its options:
    /// variant, hash, threads and level always; `book=on` when asked; the endgame databases when
    /// the ones B reports in its `hub` reply are not `egdb`'s (a binary that has no `egdb`
    /// parameter gets a warning when `egdb` names a directory).
    fn start(
        path: &Path,
        variant: Variant,
        spec: &Spec,
        egdb: &EgdbWanted,
    ) -> Result<External, CliError> {
        let mut command = Command::new(path);
        command
            .arg("engine")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        // A process group of its own: a Ctrl-C at the terminal reaches the match (which lets the
        // games in progress finish) but not engine B, which must still answer for them.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .map_err(|e| CliError(format!("engine B {}: cannot start: {e}", path.display())))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(CliError(format!("engine B {}: no pipes", path.display())));
        };
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut stdout = BufReader::new(stdout);
            loop {
                let mut line = String::new();
                match stdout.read_line(&mut line) {
                    Ok(0) => return,
                    Ok(_) => {
                        if tx.send(Ok(line)).is_err() {
                            return;
                        }
                    }
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                }
            }
        });
        let mut e = External {
            path: path.to_path_buf(),
            child,
            stdin: Some(stdin),
            lines,
            killed: false,
        };
        e.send("hub")?;
        let mut reported_egdb = None;
        let deadline = (Instant::now() + HANDSHAKE_DEADLINE, HANDSHAKE_DEADLINE);
        loop {
            let line = e.read_line("wait", deadline)?;
            if line.split_whitespace().next() == Some("wait") {
                break;
            }
            if let Ok((cmd, args)) = crate::commands::engine::parse_line(&line) {
                let get = |k: &str| args.iter().find(|(a, _)| a == k).map(|(_, v)| v.clone());
                if cmd == "param" && get("name").as_deref() == Some("egdb") {
                    reported_egdb = Some(get("value").unwrap_or_default());
                }
            }
        }
        e.send("init")?;
        e.read_until("ready", HANDSHAKE_DEADLINE)?;
        let o = &spec.options;
        e.send(&format!("set-param name=variant value={}", variant.id()))?;
        e.send(&format!("set-param name=hash value={}", o.hash_mib))?;
        e.send(&format!("set-param name=threads value={}", o.threads))?;
        e.send(&format!(
            "set-param name=level value={}",
            o.level.unwrap_or(0)
        ))?;
        if spec.book == Some(true) {
            e.send("set-param name=book value=on")?;
        }
        match reported_egdb {
            Some(d) if d != egdb.description => e.send(&format!(
                "set-param name=egdb value=\"{}\"",
                egdb.value.replace('"', "'")
            ))?,
            Some(_) => {}
            None if egdb.value != "none" && egdb.value != "default" => eprintln!(
                "warning: engine B {} has no egdb parameter (an older binary?): it cannot be given the endgame databases in {}",
                path.display(),
                egdb.value
            ),
            None => {}
        }
        Ok(e)
    }

    fn err(&self, what: &str) -> CliError {
        CliError(format!("engine B {}: {what}", self.path.display()))
    }

    fn send(&mut self, line: &str) -> Result<(), CliError> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.err(&format!("writing '{line}': input closed")));
        };
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .map_err(|e| self.err(&format!("writing '{line}': {e}")))
    }

    /// The next line of the engine (trimmed), waiting for `word` until `deadline` (`allowed` after
    /// the request). An `error` line is an error; at the deadline the engine is killed and that is
    /// an error too.
    fn read_line(
        &mut self,
        word: &str,
        (deadline, allowed): (Instant, Duration),
    ) -> Result<String, CliError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(wait) {
            Ok(Ok(line)) => {
                let t = line.trim();
                if t.starts_with("error") {
                    return Err(self.err(t));
                }
                Ok(t.to_string())
            }
            Ok(Err(e)) => Err(self.err(&format!("reading: {e}"))),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                Err(self.err(&format!("exited while we waited for '{word}'")))
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                let _ = self.child.kill();
                let _ = self.child.wait();
                self.killed = true;
                Err(self.err(&format!(
                    "no '{word}' within {:.1} s: the engine was stopped",
                    allowed.as_secs_f64()
                )))
            }
        }
    }

    /// Read lines until one starts with `word`, within `allowed` from now; return it. An `error`
    /// line is an error.
    fn read_until(&mut self, word: &str, allowed: Duration) -> Result<String, CliError> {
        let deadline = (Instant::now() + allowed, allowed);
        loop {
            let line = self.read_line(word, deadline)?;
            if line.split_whitespace().next() == Some(word) {
                return Ok(line);
            }
        }
    }

    fn new_game(&mut self) -> Result<(), CliError> {
        self.send("new-game")
    }

    /// The engine's move in `game` under `limits` (`None` when it answers `done move=none`), within
    /// [`answer_deadline`].
    fn go(&mut self, game: &Game, limits: &Limits) -> Result<Option<Move>, CliError> {
        self.go_within(game, limits, answer_deadline(limits))
    }

    /// [`External::go`] with the time the engine has to answer.
    fn go_within(
        &mut self,
        game: &Game,
        limits: &Limits,
        deadline: Duration,
    ) -> Result<Option<Move>, CliError> {
        let mut moves = Vec::new();
        for (pos, mv) in game.history() {
            moves.push(pos.move_text(mv));
        }
        self.send(&format!(
            "pos pos=\"{}\" moves=\"{}\"",
            game.start().to_fen(),
            moves.join(" ")
        ))?;
        let mut level = String::from("level");
        if let Some(d) = limits.depth {
            level.push_str(&format!(" depth={d}"));
        }
        if let Some(n) = limits.nodes {
            level.push_str(&format!(" nodes={n}"));
        }
        if let Some(ms) = limits.movetime_ms {
            level.push_str(&format!(" move-time={ms}"));
        }
        if let Some(c) = limits.clock {
            level.push_str(&format!(" time={} inc={}", c.remaining_ms, c.increment_ms));
        }
        self.send(&level)?;
        self.send("go think")?;
        let done = self.read_until("done", deadline)?;
        let (_, args) = crate::commands::engine::parse_line(&done).map_err(|e| self.err(&e))?;
        let Some((_, text)) = args.iter().find(|(k, _)| k == "move") else {
            return Err(self.err(&format!("'{done}' has no move")));
        };
        if text == "none" {
            return Ok(None);
        }
        crate::commands::engine::find_move(game.position(), text)
            .map(Some)
            .map_err(|e| self.err(&format!("move '{text}': {e}")))
    }
}

impl Drop for External {
    /// Ask the engine to quit; kill it when it has not within 5 s (or was killed already).
    fn drop(&mut self) {
        if self.killed {
            return;
        }
        let _ = self.send("quit");
        // End of input too, for a wrapper that waits for it.
        self.stdin = None;
        let end = Instant::now() + Duration::from_secs(5);
        while Instant::now() < end {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One side of the match: the built-in engine or another binary.
enum Player {
    Internal(Box<Engine>),
    External(External),
}

impl Player {
    fn new_game(&mut self) -> Result<(), CliError> {
        match self {
            Player::Internal(e) => {
                e.new_game();
                Ok(())
            }
            Player::External(x) => x.new_game(),
        }
    }

    fn go(&mut self, game: &Game, limits: &Limits) -> Result<Option<Move>, CliError> {
        match self {
            Player::Internal(e) => {
                let stop = AtomicBool::new(false);
                Ok(e.search(game, limits, &stop, &mut |_| {}).best_move)
            }
            Player::External(x) => x.go(game, limits),
        }
    }
}

/// One finished game: A's points in half points (0, 1, 2), its PDN, time losses and longest moves.
struct GameRecord {
    half_points: u8,
    pdn: String,
    /// Lost on time: A, B.
    time_loss: [bool; 2],
    /// Longest time one move took, in ms, for A and B.
    longest: [u64; 2],
}

/// Everything a worker needs to play game pairs.
struct MatchSetup<'a> {
    variant: Variant,
    a: &'a Spec,
    b: &'a Spec,
    b_bin: Option<&'a Path>,
    /// The endgame databases engine B (`b_bin`) must use: the match's, unless B's spec says
    /// `egdb=0`.
    b_egdb: EgdbWanted,
    /// The endgame databases of the built-in engines whose spec does not say `egdb=0`.
    tables: Option<Arc<dyn EndgameTables>>,
    max_plies: usize,
    write_pdn: bool,
    date: String,
}

impl MatchSetup<'_> {
    fn players(&self) -> Result<(Player, Player), CliError> {
        let internal = |spec: &Spec| {
            let mut engine = Engine::new(spec.options.clone());
            engine.set_tables(self.tables.clone().filter(|_| spec.egdb));
            engine.set_eval(spec.eval);
            engine.set_tweaks(spec.tweaks);
            engine.set_book(spec.book == Some(true));
            engine.set_weights(spec.weights.clone());
            Player::Internal(Box::new(engine))
        };
        let a = internal(self.a);
        let b = match self.b_bin {
            Some(path) => {
                Player::External(External::start(path, self.variant, self.b, &self.b_egdb)?)
            }
            None => internal(self.b),
        };
        Ok((a, b))
    }

    /// Play one game from `opening`, engine A moving first when `a_first`; `round` names it in PDN.
    fn play_game(
        &self,
        players: &mut (Player, Player),
        opening: &Position,
        a_first: bool,
        round: &str,
    ) -> Result<GameRecord, CliError> {
        let (a, b) = (self.a, self.b);
        players.0.new_game()?;
        players.1.new_game()?;
        let mut game = Game::from_position(*opening);
        let first = opening.side_to_move();
        // Engine A plays the side to move of the opening in the first game of the pair.
        let a_color = if a_first { first } else { first.opposite() };
        // Remaining clock time of A and B, in ms.
        let mut left = [
            a.clock.map(|c| c.remaining_ms),
            b.clock.map(|c| c.remaining_ms),
        ];
        let mut time_loss = [false; 2];
        let mut longest = [0u64; 2];
        while game.outcome().is_none() && game.ply_count() < self.max_plies {
            let mover = game.position().side_to_move();
            let a_turn = mover == a_color;
            let (player, spec) = if a_turn {
                (&mut players.0, a)
            } else {
                (&mut players.1, b)
            };
            let who = usize::from(!a_turn);
            let mut limits = spec.limits.clone();
            if let (Some(c), Some(ms)) = (spec.clock, left[who]) {
                limits.clock = Some(Clock {
                    remaining_ms: ms,
                    increment_ms: c.increment_ms,
                });
            }
            let t0 = std::time::Instant::now();
            let best = player.go(&game, &limits)?;
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
                    time_loss[who] = true;
                    break;
                }
                left[who] = Some(ms - used + c.increment_ms);
            }
            let Some(mv) = best else {
                if game.legal_moves().is_empty() {
                    break;
                }
                return Err(CliError(format!(
                    "engine {} answered no move (done move=none) at ply {} in \"{}\", where it has legal moves",
                    if a_turn { "A" } else { "B" },
                    game.ply_count(),
                    game.position().to_fen()
                )));
            };
            game.play(&mv).map_err(|e| {
                CliError(format!(
                    "engine {} played an illegal move at ply {}: {e}",
                    if a_turn { "A" } else { "B" },
                    game.ply_count()
                ))
            })?;
        }
        let half_points = match game.outcome().and_then(|o| o.winner()) {
            Some(w) if w == a_color => 2,
            Some(_) => 0,
            None => 1,
        };
        let mut pdn = String::new();
        if self.write_pdn {
            // "A (spec)" and "B (spec)", so that identical specs stay distinguishable.
            let (a_name, b_name) = (format!("A ({})", a.text), format!("B ({})", b.text));
            let (black, white) = if a_color == Color::Black {
                (a_name.as_str(), b_name.as_str())
            } else {
                (b_name.as_str(), a_name.as_str())
            };
            pdn = game_to_pdn(
                &game,
                &[
                    ("Event", "crown match"),
                    ("Date", &self.date),
                    ("Round", round),
                    ("Black", black),
                    ("White", white),
                ],
            );
            pdn.push('\n');
        }
        Ok(GameRecord {
            half_points,
            pdn,
            time_loss,
            longest,
        })
    }
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

/// Where the openings come from.
enum Openings {
    /// A fixed list, shuffled by the seed; pair `i` plays entry `i` modulo the length.
    List(Vec<Position>),
    /// Random balanced openings; pair `i` gets its own generator, so results do not depend on the
    /// order in which parallel workers take pairs. Impasse games start from the setup.
    Random(u64, ImpasseSetup),
}

impl Openings {
    fn get(&self, variant: Variant, pair: usize) -> Position {
        match self {
            Openings::List(v) => v[pair % v.len()],
            Openings::Random(seed, setup) => {
                let mut rng = Rng((seed ^ (pair as u64).wrapping_mul(0xd1b5_4a32_d192_ed03))
                    .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                    | 1);
                random_opening(variant, *setup, &mut rng)
            }
        }
    }
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
    let mut list = match (args.openings.as_deref(), variant) {
        (Some("acf3"), Variant::American | Variant::Pool) => {
            read_openings(ACF_THREE_MOVE_PDN, "acf3", variant)?
        }
        (Some("acf3"), Variant::Impasse) => {
            return Err(CliError(
                "--openings acf3 is a checkers deck, not for --variant impasse".into(),
            ))
        }
        (Some(path), _) => read_opening_file(Path::new(path), variant)?,
        (None, Variant::American) => {
            let mut all = read_openings(ACF_THREE_MOVE_PDN, "acf3", variant)?;
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
        (None, _) => return Ok(Openings::Random(args.seed, setup)),
    };
    // Fisher-Yates shuffle by the seed.
    let mut rng = Rng(args.seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    for i in (1..list.len()).rev() {
        let j = rng.below(i + 1);
        list.swap(i, j);
    }
    Ok(Openings::List(list))
}

/// The spec keys that the `crown engine` protocol cannot set (docs/protocol.md has no such
/// `set-param`), so that an engine B given by `--engine-b-bin` cannot honour them.
const BUILT_IN_ONLY_KEYS: [&str; 5] = ["eval", "malus", "rfp", "futility", "weights"];

/// Refuse a spec for `--engine-b-bin` that gives a key of [`BUILT_IN_ONLY_KEYS`]: B would silently
/// play with another setup than the spec says.
fn check_external_spec(spec: &Spec) -> Result<(), CliError> {
    match spec
        .keys
        .iter()
        .find(|k| BUILT_IN_ONLY_KEYS.contains(&k.as_str()))
    {
        Some(k) => Err(CliError(format!(
            "engine B spec '{}': {k}= is for the built-in engine, not --engine-b-bin (the crown engine protocol cannot set it)",
            spec.text
        ))),
        None => Ok(()),
    }
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
        EgdbWanted {
            value: "none".into(),
            description: "none".into(),
        }
    };
    let setup = MatchSetup {
        variant,
        a: &a,
        b: &b,
        b_bin: args.engine_b_bin.as_deref(),
        b_egdb,
        tables,
        max_plies: args.max_plies as usize,
        write_pdn: args.pdn.is_some(),
        date: pdn_date_today(),
    };
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
    let next = AtomicUsize::new(0);
    // `halt`: start no new pair (SPRT bound reached); `abort`: start no new game (a game failed,
    // or Ctrl-C).
    let halt = AtomicBool::new(false);
    let abort = AtomicBool::new(false);
    // Ctrl-C (or SIGTERM): finish the games in progress, then print the result; a second one
    // quits at once (the finished games are in the PDN file already).
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("\ninterrupted: finishing the games in progress (interrupt again to quit now)");
    });
    let (tx, rx) = mpsc::channel::<Report>();
    let mut tally = Tally::default();
    // Finished games whose pair is not complete yet: [A first, B first].
    let mut pending: std::collections::BTreeMap<usize, [Option<GameRecord>; 2]> =
        std::collections::BTreeMap::new();
    let mut failure: Option<CliError> = None;
    // Games finished (each in the PDN file), counted or not.
    let mut finished = 0usize;
    let mut test = sprt_bounds.map(|(e0, e1)| sprt::Sequential::new(e0, e1, llr_bounds));
    std::thread::scope(|scope| {
        for _ in 0..args.concurrency.min(pairs as u32) {
            let tx = tx.clone();
            let (setup, openings, next, halt, abort) = (&setup, &openings, &next, &halt, &abort);
            scope.spawn(move || {
                let mut players = match setup.players() {
                    Ok(p) => p,
                    Err(e) => {
                        let _ = tx.send(Report::Failed(e));
                        return;
                    }
                };
                let stopped =
                    || abort.load(Ordering::Relaxed) || INTERRUPTED.load(Ordering::Relaxed);
                loop {
                    if halt.load(Ordering::Relaxed) || stopped() {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= pairs {
                        return;
                    }
                    let opening = openings.get(setup.variant, i);
                    for (second, a_first) in [(false, true), (true, false)] {
                        if stopped() {
                            return;
                        }
                        let round = format!("{}.{}", i + 1, 1 + usize::from(second));
                        let report = match setup.play_game(&mut players, &opening, a_first, &round)
                        {
                            Ok(g) => Report::Game(i, second, g),
                            Err(e) => Report::Failed(CliError(format!(
                                "game {round} (opening \"{}\"): {}",
                                opening.to_fen(),
                                e.0
                            ))),
                        };
                        let failed = matches!(report, Report::Failed(_));
                        if tx.send(report).is_err() || failed {
                            return;
                        }
                    }
                }
            });
        }
        drop(tx);
        for msg in rx {
            let (i, second, game) = match msg {
                Report::Game(i, second, g) => (i, second, g),
                Report::Failed(e) => {
                    abort.store(true, Ordering::Relaxed);
                    failure.get_or_insert(e);
                    continue;
                }
            };
            if let (Some(f), Some(path)) = (pdn_file.as_mut(), &args.pdn) {
                if let Err(e) = f.write_all(game.pdn.as_bytes()).and_then(|()| f.flush()) {
                    abort.store(true, Ordering::Relaxed);
                    failure.get_or_insert(CliError(format!("writing {}: {e}", path.display())));
                    pdn_file = None;
                }
            }
            bar.inc(1);
            finished += 1;
            let slot = pending.entry(i).or_default();
            slot[usize::from(second)] = Some(game);
            let [Some(_), Some(_)] = slot else { continue };
            let Some([Some(first), Some(second)]) = pending.remove(&i) else {
                continue;
            };
            let pair = [first, second];
            // Once the SPRT has stopped, pairs still in flight are not counted: the verdict and
            // the counts are those at the crossing.
            if let Some(t) = test.as_mut() {
                if !t.add_pair(pair[0].half_points, pair[1].half_points) {
                    continue;
                }
            }
            tally.add_pair(&pair);
            let (wins, draws, losses) = (tally.wins, tally.draws, tally.losses);
            let msg = match &test {
                Some(t) => {
                    if t.verdict() != Verdict::Inconclusive {
                        halt.store(true, Ordering::Relaxed);
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
        }
    });
    bar.finish();
    let unpaired: Vec<String> = pending
        .iter()
        .flat_map(|(i, slot)| {
            slot.iter()
                .enumerate()
                .filter(|(_, g)| g.is_some())
                .map(move |(k, _)| format!("{}.{}", i + 1, k + 1))
        })
        .collect();
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
            args,
            (&a, &b),
            &tally,
            test.as_ref().zip(sprt_bounds),
            llr_bounds,
            &unpaired,
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

/// What a match worker reports: one finished game (pair index, whether it is the pair's second
/// game, the game), or the error that stopped it.
enum Report {
    Game(usize, bool, GameRecord),
    Failed(CliError),
}

/// The counted result of a match so far, from A's point of view.
#[derive(Default)]
struct Tally {
    wins: u32,
    draws: u32,
    losses: u32,
    penta: Pentanomial,
    /// Losses on time: A, B.
    time_losses: [u32; 2],
    /// Longest move in ms: A, B.
    longest: [u64; 2],
}

impl Tally {
    /// Count one finished game pair.
    fn add_pair(&mut self, pair: &[GameRecord; 2]) {
        for g in pair {
            match g.half_points {
                2 => self.wins += 1,
                1 => self.draws += 1,
                _ => self.losses += 1,
            }
            for w in 0..2 {
                self.time_losses[w] += u32::from(g.time_loss[w]);
                self.longest[w] = self.longest[w].max(g.longest[w]);
            }
        }
        self.penta
            .add_pair(pair[0].half_points, pair[1].half_points);
    }
}

/// Print the result of a match (finished or stopped early): games and score, time losses, Elo,
/// pentanomial, the SPRT's state, and the finished games whose pair is not (not counted).
fn print_result(
    args: &MatchArgs,
    (a, b): (&Spec, &Spec),
    tally: &Tally,
    test: Option<(&sprt::Sequential, (f64, f64))>,
    llr_bounds: (f64, f64),
    unpaired: &[String],
) {
    let (wins, draws, losses) = (tally.wins, tally.draws, tally.losses);
    let n = wins + draws + losses;
    let points = f64::from(wins) + 0.5 * f64::from(draws);
    if n == 0 {
        println!("0 games: no game pair finished");
    } else {
        println!(
            "{n} games: A ({}) {wins} wins, {draws} draws, {losses} losses; score {points:.1}/{n} = {:.1}%",
            a.text,
            100.0 * points / f64::from(n)
        );
    }
    if a.clock.is_some() || b.clock.is_some() {
        println!(
            "losses on time: A {}, B {}; longest move: A {} ms, B {} ms",
            tally.time_losses[0], tally.time_losses[1], tally.longest[0], tally.longest[1]
        );
    }
    println!("{}", elo_line(wins, draws, losses));
    // The counts are those at the SPRT's crossing when it stopped (the same as `penta`).
    let penta = test.map_or(tally.penta, |(t, _)| *t.pentanomial());
    let c = penta.0;
    println!(
        "pentanomial (pairs scoring 0, 0.5, 1, 1.5, 2 for A): {} {} {} {} {}",
        c[0], c[1], c[2], c[3], c[4]
    );
    println!("{}", pair_elo_line(&penta));
    if let Some((t, (e0, e1))) = test {
        let llr = t.llr();
        let verdict = match t.verdict() {
            Verdict::H1 => "H1 accepted: A is stronger (PASS)",
            Verdict::H0 => "H0 accepted: A is not stronger by elo1 (FAIL)",
            Verdict::Inconclusive => "inconclusive: no bound reached",
        };
        println!(
            "SPRT elo0={e0} elo1={e1} alpha={} beta={}: LLR {llr:.2} (bounds {:.2}, {:.2}); {verdict}",
            args.alpha, args.beta, llr_bounds.0, llr_bounds.1
        );
        if t.late_pairs() > 0 {
            println!(
                "({} game pairs finished after the bound was crossed and are not counted)",
                t.late_pairs()
            );
        }
    }
    if !unpaired.is_empty() {
        println!(
            "(games {} finished without their pair: in the PDN, not counted)",
            unpaired.join(", ")
        );
    }
}

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
        let setup = MatchSetup {
            variant: Variant::American,
            a: &a,
            b: &b,
            b_bin: None,
            b_egdb: EgdbWanted {
                value: "none".into(),
                description: "none".into(),
            },
            tables: None,
            max_plies: 10,
            write_pdn: false,
            date: String::new(),
        };
        match setup.players().unwrap() {
            (Player::Internal(a), Player::Internal(b)) => {
                assert!(!a.book());
                assert!(b.book());
            }
            _ => panic!("built-in engines expected"),
        }
    }

    #[test]
    fn egdb_key_turns_the_databases_off() {
        assert!(parse_spec_t("depth=8", None).unwrap().egdb);
        assert!(!parse_spec_t("depth=8,egdb=0", None).unwrap().egdb);
        assert!(parse_spec_t("egdb=2", None).is_err());
    }

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
        assert!(elo_line(5, 0, 5).starts_with("Elo difference A - B: +0 +/- "));
        // 15 wins, 5 losses: 75% is +191 Elo (-400 log10(1/3) = 190.8).
        assert!(elo_line(15, 0, 5).starts_with("Elo difference A - B: +191 +/- "));
    }

    /// No error bar of zero width: all draws, or too few games, give the difference alone.
    #[test]
    fn elo_line_without_an_error_bar() {
        assert_eq!(
            elo_line(0, 12, 0),
            "Elo difference A - B: +0 (no error bar: every game had the same result)"
        );
        assert_eq!(
            elo_line(3, 0, 1),
            "Elo difference A - B: +191 (no error bar: it needs at least 10 games)"
        );
        assert_eq!(
            elo_line(1, 0, 1),
            "Elo difference A - B: +0 (no error bar: it needs at least 10 games)"
        );
    }

    #[test]
    fn acf_deck_has_the_156_ballots() {
        let deck = read_openings(ACF_THREE_MOVE_PDN, "acf3", Variant::American).unwrap();
        // 174 ACF ballots less the 18 barred ones (usacheckers.com: the 156-opening deck).
        assert_eq!(deck.len(), 156);
        // Every opening is three plies from the start: White to move, 12 men each unless the third
        // move was a capture.
        for pos in &deck {
            assert_eq!(pos.side_to_move(), Color::White);
        }
        // ACF #46, 9-14 23-18 14x23 ("Double Cross"): Black's man from 9 stands on 23, White's 23 is
        // gone.
        let double_cross = Position::from_fen(
            Variant::American,
            "W:W21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,23",
        )
        .unwrap();
        assert!(deck.contains(&double_cross));
        // Barred ACF #3, 9-13 21-17 10-14, is not in the deck.
        let barred = Position::from_fen(
            Variant::American,
            "W:W17,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,11,12,13,14",
        )
        .unwrap();
        assert!(!deck.contains(&barred));
        // Distinct ballots reach distinct positions.
        let mut fens: Vec<String> = deck.iter().map(Position::to_fen).collect();
        fens.sort();
        fens.dedup();
        assert_eq!(fens.len(), 156);
    }

    #[test]
    fn openings_need_the_right_game() {
        let e = read_openings(ACF_THREE_MOVE_PDN, "acf3", Variant::Impasse).unwrap_err();
        assert!(e.0.contains("no GameType tag (checkers)"), "{}", e.0);
        let e = read_openings("[FEN \"B:W99:B1\"] *", "x.pdn", Variant::American).unwrap_err();
        assert!(e.0.starts_with("openings x.pdn: game "), "{}", e.0);
        let e = read_openings("1. 11-16 23-19 2. 16-20 *", "y.pdn", Variant::American).unwrap_err();
        assert!(e.0.starts_with("openings y.pdn: game "), "{}", e.0);
    }

    #[test]
    fn sprt_argument() {
        assert_eq!(parse_sprt("0,5").unwrap(), (0.0, 5.0));
        assert_eq!(parse_sprt(" -3 , 2.5").unwrap(), (-3.0, 2.5));
        for bad in ["5,0", "0", "a,b", "1,1", ""] {
            assert!(parse_sprt(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn spec_parsing() {
        let s = parse_spec_t("level=10", Some(100)).unwrap();
        assert_eq!(s.limits.movetime_ms, Some(100));
        assert_eq!(s.options.level, Some(10));
        let s = parse_spec_t("depth=8,hash=32", None).unwrap();
        assert_eq!(s.limits.depth, Some(8));
        assert_eq!(s.options.hash_mib, 32);
        assert!(parse_spec_t("level=11", None).is_err());
        // The unknown-key message lists every key, the clock ones included.
        let e = parse_spec_t("speed=3", None).unwrap_err().0;
        assert!(
            e.ends_with(
                "(level, depth, movetime, nodes, hash, threads, time, inc, egdb, eval, malus, rfp, futility, book, weights)"
            ),
            "{e}"
        );
        for empty in ["", " ", ",", " , "] {
            let e = parse_spec_t(empty, None).unwrap_err().0;
            assert!(e.contains("is empty"), "{e}");
        }
        assert!(parse_spec_t("hash=0", None).is_err());
        assert!(parse_spec_t("threads=0", None).is_err());
        assert!(parse_spec_t("depth=0", None).is_err());
        let s = parse_spec_t("time=1000,inc=100", None).unwrap();
        assert_eq!(
            s.clock,
            Some(Clock {
                remaining_ms: 1000,
                increment_ms: 100
            })
        );
    }

    /// `weights=FILE` reads a weights file; a file that is not one is refused with its reason.
    #[test]
    fn weights_key_reads_a_weights_file() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("pool.bin");
        let zero = crown_ai::trained::Weights::zero(Variant::Pool);
        std::fs::write(&good, zero.to_bytes()).unwrap();
        let s = parse_spec_t(&format!("nodes=100,weights={}", good.display()), None).unwrap();
        assert_eq!(s.weights.as_deref(), Some(&zero));
        assert!(parse_spec_t("nodes=100", None).unwrap().weights.is_none());
        let bad = dir.path().join("bad.bin");
        std::fs::write(&bad, b"not weights").unwrap();
        let e = parse_spec_t(&format!("weights={}", bad.display()), None)
            .unwrap_err()
            .0;
        assert!(e.contains("truncated") || e.contains("bad magic"), "{e}");
        let e = parse_spec_t("depth=2,weights=", None).unwrap_err().0;
        assert!(e.contains("weights= needs a file name"), "{e}");
        let e = parse_spec_t("weights=/nonexistent/w.bin", None)
            .unwrap_err()
            .0;
        assert!(e.contains("reading weights /nonexistent/w.bin"), "{e}");
    }

    #[test]
    fn search_switch_keys() {
        let s = parse_spec_t("malus=0,rfp=1", None).unwrap();
        assert_eq!(
            s.tweaks,
            SearchTweaks {
                history_malus: Some(false),
                reverse_futility: Some(true),
                futility: None,
            }
        );
        assert_eq!(
            parse_spec_t("depth=4", None).unwrap().tweaks,
            SearchTweaks::default()
        );
        let e = parse_spec_t("futility=2", None).unwrap_err().0;
        assert!(e.contains("futility 2 is not 0 to 1"), "{e}");
    }

    /// Degenerate specs are refused with the key named: a key given twice, a zero node, time or
    /// clock budget, and `eval=classic` with `weights=` (the weights replace the evaluation).
    #[test]
    fn degenerate_specs_are_refused() {
        let e = parse_spec_t("level=3,level=4", None).unwrap_err().0;
        assert_eq!(e, "engine spec 'level=3,level=4': level is given twice");
        let e = parse_spec_t("depth=4, depth=4", None).unwrap_err().0;
        assert!(e.ends_with("depth is given twice"), "{e}");
        for (spec, key) in [
            ("nodes=0", "nodes 0"),
            ("movetime=0", "movetime 0"),
            ("time=0,inc=100", "time 0"),
        ] {
            let e = parse_spec_t(spec, None).unwrap_err().0;
            assert!(e.contains(&format!("{key} is not 1 to ")), "{e}");
        }
        assert_eq!(parse_spec_t("nodes=1", None).unwrap().limits.nodes, Some(1));
        let dir = tempfile::tempdir().unwrap();
        let w = dir.path().join("american.bin");
        std::fs::write(
            &w,
            crown_ai::trained::Weights::zero(Variant::American).to_bytes(),
        )
        .unwrap();
        let e = parse_spec_t(&format!("eval=classic,weights={}", w.display()), None)
            .unwrap_err()
            .0;
        assert!(e.contains("eval=classic and weights= contradict"), "{e}");
        // The trained evaluation with other trained weights is no contradiction.
        assert!(parse_spec_t(&format!("eval=trained,weights={}", w.display()), None).is_ok());
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

    /// An opening whose position is already over is refused, naming the game.
    #[test]
    fn a_finished_opening_is_refused() {
        // Black to move has no piece left.
        let pdn = "[FEN \"B:W18:B\"]\n*\n";
        let e = read_openings(pdn, "x.pdn", Variant::American)
            .unwrap_err()
            .0;
        assert!(e.starts_with("openings x.pdn: game 1 "), "{e}");
        assert!(e.contains("the game is already over"), "{e}");
        let pdn = "[FEN \"W:W18,22:B14,1\"]\n*\n\n[FEN \"B:W18:B\"]\n*\n";
        let e = read_openings(pdn, "x.pdn", Variant::American)
            .unwrap_err()
            .0;
        assert!(e.starts_with("openings x.pdn: game 2 "), "{e}");
        assert!(e.contains("the game is already over"), "{e}");
    }

    /// The spec keys the `crown engine` protocol cannot send are refused for `--engine-b-bin`;
    /// those it can send are accepted.
    #[test]
    fn external_engine_specs_keep_to_the_protocol() {
        for key in ["eval=classic", "malus=0", "rfp=1", "futility=0"] {
            let spec = parse_spec_t(&format!("depth=4,{key}"), None).unwrap();
            let e = check_external_spec(&spec).unwrap_err().0;
            let name = key.split('=').next().unwrap();
            assert_eq!(
                e,
                format!("engine B spec 'depth=4,{key}': {name}= is for the built-in engine, not --engine-b-bin (the crown engine protocol cannot set it)")
            );
        }
        let ok =
            "level=3,depth=4,movetime=50,nodes=900,hash=2,threads=1,time=900,inc=9,egdb=0,book=1";
        assert!(check_external_spec(&parse_spec_t(ok, None).unwrap()).is_ok());
    }

    /// The time engine B has to answer: 10 s plus five times its time budget, else 1 ms a node,
    /// else 10 minutes.
    #[test]
    fn answer_deadlines() {
        let ms = |l: &Limits| answer_deadline(l).as_millis();
        let mut l = Limits::default();
        assert_eq!(ms(&l), 600_000);
        l.nodes = Some(2_000);
        assert_eq!(ms(&l), 12_000);
        l.movetime_ms = Some(100);
        assert_eq!(ms(&l), 10_500);
        // A clock with less time than the move time: the clock counts.
        l.clock = Some(Clock {
            remaining_ms: 50,
            increment_ms: 10,
        });
        assert_eq!(ms(&l), 10_300);
    }

    /// An engine B that never answers `go` is stopped at the deadline with an error naming the
    /// word it did not send; the process is gone.
    #[cfg(unix)]
    #[test]
    fn a_silent_engine_b_is_stopped() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("mute.sh");
        std::fs::write(
            &path,
            "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    hub) echo 'id name=Mute'; echo wait;;\n    init) echo ready;;\n    quit) exit 0;;\n  esac\ndone\n",
        )
        .unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        let spec = parse_spec_t("movetime=10", None).unwrap();
        let none = EgdbWanted {
            value: "none".into(),
            description: "none".into(),
        };
        let mut b = External::start(&path, Variant::American, &spec, &none).unwrap();
        let game = Game::new(Variant::American);
        let e = b
            .go_within(&game, &spec.limits, Duration::from_millis(100))
            .unwrap_err()
            .0;
        assert!(e.contains(": no 'done' within 0.1 s: "), "{e}");
        assert!(e.ends_with("the engine was stopped"), "{e}");
        assert!(b.child.try_wait().unwrap().is_some());
    }
}
