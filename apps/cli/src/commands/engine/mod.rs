//! `crown engine`: the Hub protocol version 2 of Scan 3.1 over stdin/stdout, with Crown's
//! extensions as extra `param`s and `info` fields (docs/protocol.md).

mod level;
mod reply;

use crate::common::{egdb_build_start, egdb_description, EgdbArgs, EgdbBuildArgs, MAX_THREADS};
use crate::CliError;
use clap::Args;
use crown_ai::{EndgameTables, Engine, EngineOptions, Limits, SearchInfo, MAX_HASH_MIB};
use crown_arena::protocol::parse_line;
use crown_core::{Game, ImpasseSetup, Move, Position, Variant};
use crown_notation::{
    decode_line, is_hub_position, quote, read_fen, read_game_move, read_hub_position, read_move,
    FenPolicy,
};
use level::{unbounded, Level};
use reply::{book_info_line, done_line, error_line, info_line, quoted_line};
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// The protocol version Crown speaks, announced in its `id` line (`protocol=2`) so that a client
/// can tell it from the earlier Crown dialect (milliseconds, FEN only), which had no such key.
pub const PROTOCOL_VERSION: u32 = 2;

/// The variant names `set-param name=variant` accepts, as listed in the `hub` reply: Crown's own
/// and `english`, the name Hub clients (pydraughts) give American checkers.
pub const VARIANT_NAMES: &str = "american english pool impasse";

/// Where the engine writes its protocol lines: shared by the command loop and the search thread.
pub type SharedOut = Arc<Mutex<Box<dyn Write + Send>>>;

/// Write one line to `out` and flush it. A closed output is ignored: the loop ends at end of input.
fn say(out: &SharedOut, line: &str) {
    let mut o = out.lock().unwrap_or_else(|p| p.into_inner());
    let _ = writeln!(o, "{line}");
    let _ = o.flush();
}

/// Arguments of `crown engine` (the endgame databases; everything else is set over the protocol).
#[derive(Args, Debug)]
pub struct EngineArgs {
    #[command(flatten)]
    egdb: EgdbArgs,
    #[command(flatten)]
    egdb_build: EgdbBuildArgs,
}

/// The command words of the protocol (docs/protocol.md).
const COMMANDS: [&str; 11] = [
    "hub",
    "init",
    "ping",
    "quit",
    "stop",
    "new-game",
    "set-param",
    "pos",
    "level",
    "go",
    "ponder-hit",
];

/// The first key given twice in `args` (e.g. `pos pos="A" pos="B"`), which would leave the
/// command ambiguous.
fn repeated_key(args: &[(String, String)]) -> Option<&str> {
    args.iter()
        .enumerate()
        .find(|(i, (k, _))| args[..*i].iter().any(|(a, _)| a == k))
        .map(|(_, (k, _))| k.as_str())
}

/// Find the legal move named by `text` with the one move reader of crown-notation
/// ([`crown_notation::read_move`]): Crown notation, algebraic squares, or Hub style
/// `from x to x captured…` (captured squares compared as a set, in any order).
///
/// # Errors
/// The reader's message: bad syntax, an illegal or ambiguous move.
pub fn find_move(pos: &Position, text: &str) -> Result<Move, String> {
    read_move(pos, text).map_err(|e| e.to_string())
}

/// How a search was started.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Mode {
    /// `go think`.
    Think,
    /// `go analyze`: until `stop`.
    Analyze,
    /// `go ponder`: until `stop`, or `ponder-hit`, which starts the timed search with these
    /// limits (the ones in force at `go ponder`).
    Ponder(Limits),
}

/// A running search.
struct Running {
    handle: JoinHandle<Engine>,
    mode: Mode,
    /// Set before stopping a ponder search at `ponder-hit`: its `done` line is not printed.
    quiet: Arc<AtomicBool>,
    /// Only the stop flag ends it.
    unbounded: bool,
}

struct State {
    out: SharedOut,
    variant: Variant,
    setup: ImpasseSetup,
    game: Game,
    /// The limits of `level` lines since the last `pos` or `go`.
    level: Option<Level>,
    hash: usize,
    threads: usize,
    /// Crown's casual level 1–10 (`set-param name=level`); its limits apply to a `go think` with
    /// no `level` line.
    casual: Option<u8>,
    /// Whether the engine plays from the embedded opening book (`set-param name=book`).
    book: bool,
    /// Hub's `ponder` parameter: whether the GUI will send `go ponder` (no effect on the engine).
    ponder: bool,
    /// The endgame databases, shared by every engine this session makes.
    tables: Option<Arc<dyn EndgameTables>>,
    engine: Option<Engine>,
    search: Option<Running>,
    stop: Arc<AtomicBool>,
}

impl State {
    /// Wait for a running search (stopping it first when `stop`) and take the engine back.
    fn finish(&mut self, stop: bool) {
        if let Some(r) = self.search.take() {
            if stop {
                self.stop.store(true, Ordering::Relaxed);
            }
            match r.handle.join() {
                Ok(engine) => self.engine = Some(engine),
                Err(_) => {
                    say(&self.out, &error_line("search thread failed; engine reset"));
                    self.engine = Some(self.new_engine());
                }
            }
        }
    }

    fn new_engine(&self) -> Engine {
        let mut e = Engine::new(EngineOptions {
            hash_mib: self.hash,
            threads: self.threads,
            level: self.casual,
        });
        e.set_tables(self.tables.clone());
        e.set_book(self.book);
        e
    }

    /// The limits of `go think`: the `level` lines since `pos`, else the casual level's, else one
    /// second.
    fn think_limits(&self) -> Limits {
        match (&self.level, self.casual) {
            (Some(l), _) => l.limits(),
            (None, Some(n)) => Limits::level(n),
            (None, None) => Limits::movetime(1000),
        }
    }

    /// Start searching the current position under `limits` in `mode` on a thread of its own.
    fn start(&mut self, limits: Limits, mode: Mode) {
        let Some(mut engine) = self.engine.take() else {
            say(&self.out, &error_line("engine unavailable"));
            return;
        };
        self.stop.store(false, Ordering::Relaxed);
        let stop = Arc::clone(&self.stop);
        let quiet = Arc::new(AtomicBool::new(false));
        let quiet_done = Arc::clone(&quiet);
        let game = self.game.clone();
        let out = Arc::clone(&self.out);
        let unbounded = unbounded(&limits);
        let handle = std::thread::spawn(move || {
            let root = *game.position();
            let mut infos = 0u32;
            let mut on_info = |i: &SearchInfo| {
                infos += 1;
                say(&out, &info_line(&root, i));
            };
            let started = std::time::Instant::now();
            let r = engine.search(&game, &limits, &stop, &mut on_info);
            if quiet_done.load(Ordering::Relaxed) {
                return engine;
            }
            if let (Some(m), 0) = (r.best_move.as_ref(), infos) {
                // A book move (no search, no `info` yet): its score in an `info` line of its own.
                say(
                    &out,
                    &book_info_line(&root, m, r.score, started.elapsed().as_millis() as u64),
                );
            }
            let mut pv = r.pv.clone();
            if let (Some(m), 1) = (r.best_move, pv.len()) {
                // No expected answer in the line (it was cut short): a quick 2-ply search of the
                // position after the move names one, as Scan's `quick_move` does, with a table of
                // its own so that the engine's next searches are the same as without it.
                let mut after = game.clone();
                if after.play(&m).is_ok() && after.outcome().is_none() {
                    let quick = Engine::new(EngineOptions {
                        hash_mib: 1,
                        threads: 1,
                        level: None,
                    })
                    .search(
                        &after,
                        &Limits::depth(2),
                        &AtomicBool::new(false),
                        &mut |_| {},
                    );
                    pv.extend(quick.best_move);
                }
            }
            say(&out, &done_line(&root, r.best_move.as_ref(), &pv));
            engine
        });
        self.search = Some(Running {
            handle,
            mode,
            quiet,
            unbounded,
        });
    }

    /// `ponder-hit`: the pondered move was played; search the same position with the limits of
    /// `go ponder` (the transposition table keeps what pondering found). Ignored when not
    /// pondering.
    fn ponder_hit(&mut self) {
        let limits = match &self.search {
            Some(Running {
                mode: Mode::Ponder(l),
                quiet,
                ..
            }) => {
                quiet.store(true, Ordering::Relaxed);
                l.clone()
            }
            _ => return,
        };
        self.finish(true);
        self.start(limits, Mode::Think);
    }

    fn running_unbounded(&self) -> bool {
        self.search.as_ref().is_some_and(|r| r.unbounded)
    }
}

fn start_game(variant: Variant, setup: ImpasseSetup) -> Game {
    if variant == Variant::Impasse {
        Game::impasse(setup)
    } else {
        Game::new(variant)
    }
}

/// Run `crown engine` on stdin and stdout, with the endgame databases of `--egdb` / the default
/// directory.
///
/// # Errors
/// A [`CliError`] when stdin cannot be read.
pub fn run(args: &EngineArgs) -> Result<ExitCode, CliError> {
    let out: SharedOut = Arc::new(Mutex::new(Box::new(std::io::stdout())));
    // The game is not known before the first `go`: the background build starts for the variant
    // of each search (once per variant), the tables are shared from the start.
    let tables = args.egdb.load_building(&args.egdb_build, None);
    session(std::io::stdin().lock(), out, tables)
        .map_err(|e| CliError(format!("reading stdin: {e}")))?;
    Ok(ExitCode::SUCCESS)
}

/// The `info` line announcing the background build of `variant`'s databases of up to `pieces`
/// pieces: `info egdb-build="american up to 5 pieces, in the background"`. Plain ASCII, with no
/// `=` in the value (pydraughts splits each field at every `=`).
fn egdb_build_line(variant: Variant, pieces: u32) -> String {
    format!(
        "info egdb-build=\"{} up to {pieces} pieces, in the background\"",
        variant.id()
    )
}

/// The `hub` reply: `id`, one `param` line per option, `wait`.
fn hub_reply(st: &State) -> Vec<String> {
    let bool_text = |b: bool| if b { "true" } else { "false" };
    vec![
        format!(
            "id name=Crown version={} author=\"Crown developers\" protocol={PROTOCOL_VERSION}",
            env!("CARGO_PKG_VERSION")
        ),
        format!(
            "param name=variant value={} type=enum values=\"{VARIANT_NAMES}\"",
            st.variant.id()
        ),
        format!(
            "param name=setup value={} type=enum values=\"seed steere\"",
            st.setup
        ),
        format!("param name=book value={} type=bool", bool_text(st.book)),
        format!("param name=ponder value={} type=bool", bool_text(st.ponder)),
        format!(
            "param name=threads value={} type=int min=1 max={MAX_THREADS}",
            st.threads
        ),
        format!(
            "param name=hash value={} type=int min=1 max={MAX_HASH_MIB}",
            st.hash
        ),
        format!(
            "param name=level value={} type=int min=0 max=10",
            st.casual.unwrap_or(0)
        ),
        quoted_line(
            "param name=egdb value",
            &egdb_description(st.tables.as_ref()),
        ) + " type=string",
        "wait".into(),
    ]
}

/// A Hub `bool` (`true`/`false`) or the `on`/`off` of earlier Crown versions.
fn parse_bool(v: &str) -> Option<bool> {
    match v {
        "true" | "on" => Some(true),
        "false" | "off" => Some(false),
        _ => None,
    }
}

/// `set-param name=N value=V`.
fn set_param(st: &mut State, name: &str, value: &str) -> Result<(), String> {
    let num = value.parse::<usize>();
    match (name, num) {
        ("variant", _) => {
            let v = value.parse::<Variant>().map_err(|e| e.to_string())?;
            st.variant = v;
            st.game = start_game(v, st.setup);
        }
        ("setup", _) => {
            let s = value.parse::<ImpasseSetup>().map_err(|e| e.to_string())?;
            st.setup = s;
            st.game = start_game(st.variant, s);
        }
        ("hash", Ok(n)) if (1..=MAX_HASH_MIB).contains(&n) => {
            st.hash = n;
            // Free the old table before allocating the new one.
            st.engine = None;
            let engine = st.new_engine();
            let got = engine.hash_mib();
            st.engine = Some(engine);
            if got < n {
                st.hash = got.max(1);
                return Err(format!("hash {n} MiB: not enough memory; using {got} MiB"));
            }
        }
        ("hash", _) => {
            return Err(format!(
                "bad parameter hash={value}: expected 1 to {MAX_HASH_MIB} (MiB)"
            ))
        }
        ("threads", Ok(n)) if (1..=MAX_THREADS).contains(&n) => {
            st.threads = n;
            if let Some(e) = st.engine.as_mut() {
                e.set_threads(n);
            }
        }
        ("level", Ok(n)) if n <= 10 => {
            st.casual = (n > 0).then_some(n as u8);
            if let Some(e) = st.engine.as_mut() {
                e.set_level(st.casual);
            }
        }
        ("book", _) if parse_bool(value).is_some() => {
            st.book = parse_bool(value) == Some(true);
            if let Some(e) = st.engine.as_mut() {
                e.set_book(st.book);
            }
        }
        ("ponder", _) if parse_bool(value).is_some() => st.ponder = parse_bool(value) == Some(true),
        ("egdb", _) => {
            let loaded = match value {
                "none" => Ok(None),
                "default" => crown_ai::tables::load(None),
                dir => crown_ai::tables::load(Some(std::path::Path::new(dir))),
            };
            st.tables = loaded.map_err(|e| e.to_string())?;
            if let Some(e) = st.engine.as_mut() {
                e.set_tables(st.tables.clone());
            }
        }
        _ => {
            return Err(format!(
                "bad parameter {}",
                quote(&format!("{name}={value}"))
            ))
        }
    }
    Ok(())
}

/// `pos [start] [pos=POS | fen=FEN] [moves="…"]`: the game it names, or an error naming the
/// problem. `POS` is a Hub position string or a FEN; warnings of a repaired FEN go to `warn`.
fn read_pos(
    st: &State,
    args: &[(String, String)],
    warn: &mut dyn FnMut(&str),
) -> Result<Game, String> {
    let get = |k: &str| arg(args, k);
    if get("pos").is_some() && get("fen").is_some() {
        return Err("pos: give pos= or fen=, not both".into());
    }
    let mut game = match get("pos").or(get("fen")) {
        Some(text) if is_hub_position(text) => Game::from_position(
            read_hub_position(st.variant, text).map_err(|e| format!("pos: {e}"))?,
        ),
        Some(text) => {
            let r =
                read_fen(st.variant, text, FenPolicy::Lenient).map_err(|e| format!("pos: {e}"))?;
            for w in &r.warnings {
                warn(w);
            }
            Game::from_position(r.position)
        }
        None => start_game(st.variant, st.setup),
    };
    for (i, text) in get("moves").unwrap_or("").split_whitespace().enumerate() {
        read_game_move(&game, text)
            .map_err(|e| e.to_string())
            .and_then(|m| game.play(&m).map_err(|e| e.to_string()))
            .map_err(|e| format!("pos: move {}: {e}", i + 1))?;
    }
    Ok(game)
}

/// The value of key `k` in `args`.
fn arg<'a>(args: &'a [(String, String)], k: &str) -> Option<&'a str> {
    args.iter().find(|(a, _)| a == k).map(|(_, v)| v.as_str())
}

/// The mode of `go think|ponder|analyze`, or the error for anything else.
fn go_mode(args: &[(String, String)]) -> Result<&'static str, String> {
    match args {
        [(mode, v)] if v.is_empty() && mode == "think" => Ok("think"),
        [(mode, v)] if v.is_empty() && mode == "ponder" => Ok("ponder"),
        [(mode, v)] if v.is_empty() && mode == "analyze" => Ok("analyze"),
        [] => Err("go: expected go think, go analyze or go ponder".into()),
        _ => {
            let given = args
                .iter()
                .map(|(k, v)| {
                    if v.is_empty() {
                        k.clone()
                    } else {
                        format!("{k}={v}")
                    }
                })
                .collect::<Vec<_>>()
                .join(" ");
            Err(format!(
                "go {}: expected go think, go analyze or go ponder",
                quote(&given)
            ))
        }
    }
}

/// The engine protocol (docs/protocol.md) over any input and output: read command lines from
/// `input` until `quit` or its end, answer on `out`; the engine probes `tables` (the `egdb`
/// parameter changes them). Lines are read as bytes: a line that is not UTF-8, too long to quote,
/// or not a command gets one `error message="…"` line (printable, at most 200 characters) and the
/// session goes on.
///
/// # Errors
/// Only an I/O error reading `input`.
pub fn session(
    mut input: impl BufRead,
    out: SharedOut,
    tables: Option<Arc<dyn EndgameTables>>,
) -> std::io::Result<()> {
    let mut st = State {
        out: Arc::clone(&out),
        variant: Variant::American,
        setup: ImpasseSetup::Seed,
        game: Game::new(Variant::American),
        level: None,
        hash: 64,
        threads: 1,
        casual: None,
        book: false,
        ponder: false,
        tables,
        engine: None,
        search: None,
        stop: Arc::new(AtomicBool::new(false)),
    };
    st.engine = Some(st.new_engine());
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        if input.read_until(b'\n', &mut bytes)? == 0 {
            break;
        }
        let line = match decode_line(&bytes) {
            Ok(l) => l,
            Err(e) => {
                say(&out, &error_line(&e.to_string()));
                continue;
            }
        };
        let (cmd, args) = match parse_line(line) {
            Ok(x) => x,
            Err(e) => {
                say(&out, &error_line(&e));
                continue;
            }
        };
        if COMMANDS.contains(&cmd.as_str()) {
            if let Some(key) = repeated_key(&args) {
                say(
                    &out,
                    &error_line(&format!("{cmd}: {} given twice", quote(&format!("{key}=")))),
                );
                continue;
            }
        }
        let get = |k: &str| arg(&args, k);
        match cmd.as_str() {
            "" => {}
            "hub" => {
                for l in hub_reply(&st) {
                    say(&out, &l);
                }
            }
            "init" => say(&out, "ready"),
            "ping" => say(&out, "pong"),
            "quit" => {
                st.finish(true);
                return Ok(());
            }
            "stop" => st.finish(true),
            "ponder-hit" => st.ponder_hit(),
            "new-game" => {
                st.finish(true);
                if let Some(e) = st.engine.as_mut() {
                    e.new_game();
                }
                st.game = start_game(st.variant, st.setup);
            }
            "set-param" => {
                st.finish(true);
                let (Some(name), Some(value)) = (get("name"), get("value")) else {
                    say(&out, &error_line("set-param needs name= and value="));
                    continue;
                };
                if let Err(e) = set_param(&mut st, name, value) {
                    say(&out, &error_line(&e));
                }
            }
            "pos" => {
                if get("pos").is_none() || get("fen").is_none() {
                    st.finish(true);
                }
                let mut warn = |w: &str| say(&out, &quoted_line("info warning", w));
                match read_pos(&st, &args, &mut warn) {
                    Ok(game) => {
                        st.game = game;
                        st.level = None;
                    }
                    Err(e) => say(&out, &error_line(&e)),
                }
            }
            "level" => {
                let mut l = st.level.clone().unwrap_or_default();
                match l.apply(&args) {
                    Ok(()) => st.level = Some(l),
                    Err(e) => say(&out, &error_line(&e)),
                }
            }
            "go" => {
                // Nothing but protocol lines, on stdout: Hub clients read stderr with stdout.
                if let Some(pieces) = egdb_build_start(st.variant) {
                    say(&out, &egdb_build_line(st.variant, pieces));
                }
                let mode = match go_mode(&args) {
                    Ok(m) => m,
                    Err(e) => {
                        say(&out, &error_line(&e));
                        continue;
                    }
                };
                // A search that would never end by itself is stopped (it prints its `done` line).
                let unbounded = st.running_unbounded();
                st.finish(unbounded);
                let think = st.think_limits();
                let analyze = Limits {
                    infinite: true,
                    ..Limits::default()
                };
                match mode {
                    "think" => st.start(think, Mode::Think),
                    "ponder" => st.start(analyze, Mode::Ponder(think)),
                    _ => st.start(analyze, Mode::Analyze),
                }
                st.level = None;
            }
            other => say(
                &out,
                &error_line(&format!("unknown command {}", quote(other))),
            ),
        }
    }
    // End of input: let a bounded search finish and print its move; stop an unbounded one (it would
    // never end) and print its move.
    let unbounded = st.running_unbounded();
    st.finish(unbounded);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_quoted_values() {
        let (cmd, args) = parse_line("pos pos=\"B:W21-32:B1-12\" moves=\"11-15 23-19\"").unwrap();
        assert_eq!(cmd, "pos");
        assert_eq!(args[0], ("pos".into(), "B:W21-32:B1-12".into()));
        assert_eq!(args[1], ("moves".into(), "11-15 23-19".into()));
        assert!(parse_line("pos moves=\"11-15").is_err());
    }

    #[test]
    fn hub_captures_match_as_a_set() {
        // Black 10 takes 14 and 22 or 15 and 23; Hub style lists the taken squares in any order.
        let pos = Position::from_fen(Variant::American, "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13")
            .unwrap();
        let m = find_move(&pos, "10x26x22x14").unwrap();
        assert_eq!(pos.move_text(&m), "10x17x26");
        let m = find_move(&pos, "10x26x15x23").unwrap();
        assert_eq!(pos.move_text(&m), "10x19x26");
        assert!(find_move(&pos, "10x26x15x22").is_err());
    }
}
