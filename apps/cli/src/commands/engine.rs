//! `crown engine`: a line protocol over stdin/stdout modelled on Scan's Hub protocol
//! (docs/protocol.md).

use crate::common::line_text;
use crate::common::{egdb_description, EgdbArgs, MAX_THREADS};
use crate::CliError;
use clap::Args;
use crown_ai::{Clock, EndgameTables, Engine, EngineOptions, Limits, SearchInfo, MAX_HASH_MIB};
use crown_arena::protocol::parse_line;
use crown_core::{Game, ImpasseSetup, Move, Position, Variant};
use crown_notation::{
    decode_line, one_line, quote, read_fen, read_game_move, read_move, FenPolicy,
};
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// Where the engine writes its protocol lines: shared by the command loop and the search thread.
pub type SharedOut = Arc<Mutex<Box<dyn Write + Send>>>;

/// Write one line to `out` and flush it. A closed output is ignored: the loop ends at end of input.
fn say(out: &SharedOut, line: &str) {
    let mut o = out.lock().unwrap_or_else(|p| p.into_inner());
    let _ = writeln!(o, "{line}");
    let _ = o.flush();
}

/// A reply line `{head}="{value}"` of at most [`crown_notation::MAX_ERROR_CHARS`] characters in
/// all: the value made one printable line (control characters escaped), its double quotes written
/// as single ones so that it stays one value, cut with `…` when too long.
fn quoted_line(head: &str, value: &str) -> String {
    let room = crown_notation::MAX_ERROR_CHARS - head.chars().count() - 3;
    let mut v = one_line(&value.replace('"', "'"));
    if v.chars().count() > room {
        v = v.chars().take(room - 1).collect();
        v.push('…');
    }
    format!("{head}=\"{v}\"")
}

/// An `error message="…"` line (docs/protocol.md) of at most 200 characters, printable.
fn error_line(message: &str) -> String {
    quoted_line("error message", message)
}

/// Arguments of `crown engine` (the endgame databases; everything else is set over the protocol).
#[derive(Args, Debug)]
pub struct EngineArgs {
    #[command(flatten)]
    egdb: EgdbArgs,
}

/// The command words of the protocol (docs/protocol.md).
const COMMANDS: [&str; 10] = [
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
pub fn find_move(pos: &Position, text: &str) -> Result<Move, String> {
    read_move(pos, text).map_err(|e| e.to_string())
}

fn hub_move(pos: &Position, m: &Move) -> String {
    pos.move_text(m)
}

struct State {
    out: SharedOut,
    variant: Variant,
    setup: ImpasseSetup,
    game: Game,
    limits: Limits,
    hash: usize,
    threads: usize,
    level: Option<u8>,
    /// Whether the engine plays from the embedded opening book (`set-param name=book`).
    book: bool,
    /// The endgame databases, shared by every engine this session makes.
    tables: Option<Arc<dyn EndgameTables>>,
    engine: Option<Engine>,
    search: Option<JoinHandle<Engine>>,
    /// The running search has no limit of its own (`go analyze`, `level infinite`, or no limit set):
    /// only the stop flag ends it.
    unbounded: bool,
    stop: Arc<AtomicBool>,
}

impl State {
    /// Wait for a running search (stopping it first when `stop`) and take the engine back.
    fn finish(&mut self, stop: bool) {
        if let Some(h) = self.search.take() {
            if stop {
                self.stop.store(true, Ordering::Relaxed);
            }
            match h.join() {
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
            level: self.level,
        });
        e.set_tables(self.tables.clone());
        e.set_book(self.book);
        e
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
pub fn run(args: &EngineArgs) -> Result<ExitCode, CliError> {
    let out: SharedOut = Arc::new(Mutex::new(Box::new(std::io::stdout())));
    session(std::io::stdin().lock(), out, args.egdb.load())
        .map_err(|e| CliError(format!("reading stdin: {e}")))?;
    Ok(ExitCode::SUCCESS)
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
        limits: Limits::movetime(1000),
        hash: 64,
        threads: 1,
        level: None,
        book: false,
        tables,
        engine: None,
        search: None,
        unbounded: false,
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
        let get = |k: &str| args.iter().find(|(a, _)| a == k).map(|(_, v)| v.as_str());
        match cmd.as_str() {
            "" => {}
            "hub" => {
                say(
                    &out,
                    &format!(
                        "id name=Crown version={} author=\"Crown developers\"",
                        env!("CARGO_PKG_VERSION")
                    ),
                );
                say(
                    &out,
                    &format!(
                        "param name=variant value={} type=enum values=\"american pool impasse\"",
                        st.variant.id()
                    ),
                );
                say(
                    &out,
                    "param name=setup value=seed type=enum values=\"seed steere\"",
                );
                say(
                    &out,
                    &format!(
                        "param name=hash value={} type=int min=1 max={MAX_HASH_MIB}",
                        st.hash
                    ),
                );
                say(
                    &out,
                    &format!(
                        "param name=threads value={} type=int min=1 max={MAX_THREADS}",
                        st.threads
                    ),
                );
                say(&out, "param name=level value=0 type=int min=0 max=10");
                say(
                    &out,
                    &format!(
                        "param name=book value={} type=enum values=\"on off\"",
                        if st.book { "on" } else { "off" }
                    ),
                );
                say(
                    &out,
                    &(quoted_line(
                        "param name=egdb value",
                        &egdb_description(st.tables.as_ref()),
                    ) + " type=string"),
                );
                say(&out, "wait");
            }
            "init" => say(&out, "ready"),
            "ping" => say(&out, "pong"),
            "quit" => {
                st.finish(true);
                return Ok(());
            }
            "stop" => st.finish(true),
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
                let num = value.parse::<usize>();
                match (name, num) {
                    ("variant", _) => match value.parse::<Variant>() {
                        Ok(v) => {
                            st.variant = v;
                            st.game = start_game(v, st.setup);
                        }
                        Err(e) => say(&out, &error_line(&e.to_string())),
                    },
                    ("setup", _) => match value.parse::<ImpasseSetup>() {
                        Ok(s) => {
                            st.setup = s;
                            st.game = start_game(st.variant, s);
                        }
                        Err(e) => say(&out, &error_line(&e.to_string())),
                    },
                    ("hash", Ok(n)) if (1..=MAX_HASH_MIB).contains(&n) => {
                        st.hash = n;
                        // Free the old table before allocating the new one.
                        st.engine = None;
                        let engine = st.new_engine();
                        let got = engine.hash_mib();
                        if got < n {
                            say(
                                &out,
                                &error_line(&format!(
                                    "hash {n} MiB: not enough memory; using {got} MiB"
                                )),
                            );
                            st.hash = got.max(1);
                        }
                        st.engine = Some(engine);
                    }
                    ("hash", _) => say(
                        &out,
                        &error_line(&format!(
                            "bad parameter hash={value}: expected 1 to {MAX_HASH_MIB} (MiB)"
                        )),
                    ),
                    ("threads", Ok(n)) if (1..=MAX_THREADS).contains(&n) => {
                        st.threads = n;
                        if let Some(e) = st.engine.as_mut() {
                            e.set_threads(n);
                        }
                    }
                    ("level", Ok(n)) if n <= 10 => {
                        st.level = if n == 0 { None } else { Some(n as u8) };
                        if let Some(e) = st.engine.as_mut() {
                            e.set_level(st.level);
                        }
                        if n > 0 {
                            st.limits = Limits::level(n as u8);
                        }
                    }
                    ("book", _) if value == "on" || value == "off" => {
                        st.book = value == "on";
                        if let Some(e) = st.engine.as_mut() {
                            e.set_book(st.book);
                        }
                    }
                    ("egdb", _) => {
                        let loaded = match value {
                            "none" => Ok(None),
                            "default" => crown_ai::tables::load(None),
                            dir => crown_ai::tables::load(Some(std::path::Path::new(dir))),
                        };
                        match loaded {
                            Ok(t) => {
                                st.tables = t;
                                if let Some(e) = st.engine.as_mut() {
                                    e.set_tables(st.tables.clone());
                                }
                            }
                            Err(e) => say(&out, &error_line(&e.to_string())),
                        }
                    }
                    _ => say(
                        &out,
                        &error_line(&format!(
                            "bad parameter {}",
                            quote(&format!("{name}={value}"))
                        )),
                    ),
                }
            }
            "pos" => {
                if get("pos").is_some() && get("fen").is_some() {
                    say(&out, &error_line("pos: give pos= or fen=, not both"));
                    continue;
                }
                st.finish(true);
                let start = if let Some(fen) = get("pos").or(get("fen")) {
                    match read_fen(st.variant, fen, FenPolicy::Lenient) {
                        Ok(r) => {
                            for w in &r.warnings {
                                say(&out, &quoted_line("info warning", w));
                            }
                            Game::from_position(r.position)
                        }
                        Err(e) => {
                            say(&out, &error_line(&format!("pos: {e}")));
                            continue;
                        }
                    }
                } else {
                    start_game(st.variant, st.setup)
                };
                let mut game = start;
                let mut ok = true;
                for (i, text) in get("moves").unwrap_or("").split_whitespace().enumerate() {
                    match read_game_move(&game, text)
                        .map_err(|e| e.to_string())
                        .and_then(|m| game.play(&m).map_err(|e| e.to_string()))
                    {
                        Ok(()) => {}
                        Err(e) => {
                            say(&out, &error_line(&format!("pos: move {}: {e}", i + 1)));
                            ok = false;
                            break;
                        }
                    }
                }
                if ok {
                    st.game = game;
                }
            }
            "level" => {
                if args.is_empty() {
                    say(
                        &out,
                        &error_line(
                            "level: give a limit: depth=PLIES, nodes=N, move-time=MS, time=MS inc=MS or infinite",
                        ),
                    );
                    continue;
                }
                let mut l = Limits::default();
                let mut bad = None;
                for (k, v) in &args {
                    let n = v.parse::<u64>();
                    match (k.as_str(), n) {
                        ("depth", Ok(n)) if (1..=crown_ai::MAX_PLY as u64).contains(&n) => {
                            l.depth = Some(n as u32)
                        }
                        ("nodes", Ok(n)) if n >= 1 => l.nodes = Some(n),
                        ("move-time", Ok(n)) if n >= 1 => l.movetime_ms = Some(n),
                        ("time", Ok(n)) => {
                            l.clock.get_or_insert(Clock::default()).remaining_ms = n;
                        }
                        ("inc", Ok(n)) => {
                            l.clock.get_or_insert(Clock::default()).increment_ms = n;
                        }
                        ("infinite", _) => l.infinite = true,
                        _ => bad = Some(format!("{k}={v}")),
                    }
                }
                match bad {
                    Some(b) => say(
                        &out,
                        &error_line(&format!("level: bad limit {}", quote(&b))),
                    ),
                    None => st.limits = l,
                }
            }
            "go" => {
                let analyze = match args.as_slice() {
                    [(mode, v)] if v.is_empty() && mode == "think" => false,
                    [(mode, v)] if v.is_empty() && (mode == "analyze" || mode == "ponder") => true,
                    [] => {
                        say(
                            &out,
                            &error_line("go: expected go think, go analyze or go ponder"),
                        );
                        continue;
                    }
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
                        say(
                            &out,
                            &error_line(&format!(
                                "go {}: expected go think, go analyze or go ponder",
                                quote(&given)
                            )),
                        );
                        continue;
                    }
                };
                // A search that would never end by itself is stopped (it prints its `done` line).
                st.finish(st.unbounded);
                let mut limits = st.limits.clone();
                if analyze {
                    limits = Limits {
                        infinite: true,
                        ..Limits::default()
                    };
                }
                let Some(mut engine) = st.engine.take() else {
                    say(&out, &error_line("engine unavailable"));
                    continue;
                };
                st.unbounded = limits.infinite
                    || (limits.depth.is_none()
                        && limits.nodes.is_none()
                        && limits.movetime_ms.is_none()
                        && limits.clock.is_none());
                st.stop.store(false, Ordering::Relaxed);
                let stop = Arc::clone(&st.stop);
                let game = st.game.clone();
                let out = Arc::clone(&out);
                st.search = Some(std::thread::spawn(move || {
                    let root = *game.position();
                    let mut on_info = |i: &SearchInfo| {
                        say(&out, &format!(
                            "info depth={} seldepth={} score=\"{}\" nodes={} nps={} time={} pv=\"{}\"",
                            i.depth,
                            i.seldepth,
                            i.score,
                            i.nodes,
                            i.nps,
                            i.time_ms,
                            line_text(&root, &i.pv).join(" ")
                        ));
                    };
                    let r = engine.search(&game, &limits, &stop, &mut on_info);
                    match r.best_move {
                        Some(m) => {
                            let ponder =
                                r.pv.get(1)
                                    .filter(|p| root.after(&m).is_legal(p))
                                    .map(|p| format!(" ponder={}", hub_move(&root.after(&m), p)))
                                    .unwrap_or_default();
                            say(
                                &out,
                                &format!(
                                    "done move={}{ponder} score=\"{}\"",
                                    hub_move(&root, &m),
                                    r.score
                                ),
                            );
                        }
                        None => say(&out, &format!("done move=none score=\"{}\"", r.score)),
                    }
                    engine
                }));
            }
            other => say(
                &out,
                &error_line(&format!("unknown command {}", quote(other))),
            ),
        }
    }
    // End of input: let a bounded search finish and print its move; stop an unbounded one (it would
    // never end) and print its move.
    st.finish(st.unbounded);
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
