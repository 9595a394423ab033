//! An engine in another process, driven over Crown's engine protocol (`docs/protocol.md`): e.g. an
//! older `crown` binary playing a SPRT against the in-process engine.
//!
//! Two dialects are spoken, told apart by the engine's `id` line: the Hub protocol version 2
//! (`id … protocol=2`, Crown since issue 24: times in seconds, Hub move text) and the earlier
//! Crown dialect (no `protocol` key: times in milliseconds, `done move=none` for no move), so that
//! a binary built before the change still plays.

use crate::protocol::parse_line;
use crate::{ArenaError, Player, Reply};
use crown_ai::Limits;
use crown_core::{Game, Variant};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long an external engine may take to answer the `hub` … `wait` and `init` … `ready`
/// handshake.
pub const HANDSHAKE_DEADLINE: Duration = Duration::from_secs(60);

/// How long an external engine may take to answer `go think` under `limits` before it is killed
/// and the move fails: 10 s plus 5 times its time budget (the move time or, with a game clock, the
/// time left plus the increment, whichever is smaller); with a node budget and no time, 10 s plus
/// 1 ms per node (a search of at least 1000 nodes per second); with a depth alone, 10 minutes.
pub fn answer_deadline(limits: &Limits) -> Duration {
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

/// The endgame databases an external engine must use: the `set-param name=egdb` value that gives
/// it them (`none`, `default` or a directory) and the description its `hub` reply then shows
/// (`none`, or e.g. `american ≤4 pieces`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EgdbWanted {
    /// The `set-param name=egdb value=…` value.
    pub value: String,
    /// The description of those databases in the engine's `hub` reply.
    pub description: String,
}

impl EgdbWanted {
    /// No databases (`none`).
    pub fn none() -> EgdbWanted {
        EgdbWanted {
            value: "none".into(),
            description: "none".into(),
        }
    }
}

/// The options an external engine is given after its handshake.
#[derive(Clone, Debug)]
pub struct ExternalOptions {
    /// The game it plays.
    pub variant: Variant,
    /// Hash table size in MiB.
    pub hash_mib: usize,
    /// Search threads.
    pub threads: usize,
    /// Casual level 1–10; `None` sends level 0 (full strength).
    pub level: Option<u8>,
    /// Play from the opening book (`set-param name=book value=on`; off is not sent).
    pub book: bool,
    /// The endgame databases it must use.
    pub egdb: EgdbWanted,
}

/// The protocol dialect of an external engine, from its `id` line.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Hub protocol version 2 (`id … protocol=2`): `level` times in seconds, Hub move text.
    Hub2,
    /// Crown's dialect before Hub 2 (no `protocol` key): `level` times in milliseconds.
    Legacy,
}

impl Dialect {
    /// The dialect an `id` line announces: [`Dialect::Legacy`] only for a Crown binary
    /// (`name=Crown`) built before Hub 2, which has no `protocol=2` (or later) in its `id`;
    /// every other engine is spoken to in [`Dialect::Hub2`], the Hub protocol as Scan 3.1
    /// defines it, whose `id` line carries no `protocol` key at all.
    pub fn of_id(args: &[(String, String)]) -> Dialect {
        let version = args
            .iter()
            .find(|(k, _)| k == "protocol")
            .and_then(|(_, v)| v.parse::<u32>().ok());
        let crown = args.iter().any(|(k, v)| k == "name" && v == "Crown");
        if crown && version.is_none_or(|v| v < 2) {
            Dialect::Legacy
        } else {
            Dialect::Hub2
        }
    }

    /// `ms` as this dialect writes a time: seconds with three decimals (`1.500`), or whole
    /// milliseconds.
    pub fn time(self, ms: u64) -> String {
        match self {
            Dialect::Hub2 => format!("{}.{:03}", ms / 1000, ms % 1000),
            Dialect::Legacy => ms.to_string(),
        }
    }

    /// The `level` line of `limits`: `depth`, `nodes`, `move-time`, and the clock as `time` and
    /// `inc` (Hub 2's `time` excludes the increment of this move, which the engine adds first).
    pub fn level_line(self, limits: &Limits) -> String {
        let mut level = String::from("level");
        if let Some(d) = limits.depth {
            level.push_str(&format!(" depth={d}"));
        }
        if let Some(n) = limits.nodes {
            level.push_str(&format!(" nodes={n}"));
        }
        if let Some(ms) = limits.movetime_ms {
            level.push_str(&format!(" move-time={}", self.time(ms)));
        }
        if let Some(c) = limits.clock {
            let time = match self {
                Dialect::Hub2 => c.remaining_ms.saturating_sub(c.increment_ms),
                Dialect::Legacy => c.remaining_ms,
            };
            level.push_str(&format!(
                " time={} inc={}",
                self.time(time),
                self.time(c.increment_ms)
            ));
        }
        level
    }
}

/// An engine binary run as `PATH engine`, speaking Crown's engine protocol on its stdin and
/// stdout. Dropping it asks the engine to quit (and kills it after 5 s).
pub struct ExternalEngine {
    /// How errors name it, e.g. `engine B /usr/bin/crown`.
    label: String,
    child: Child,
    /// The engine's input; closed (`None`) once the engine is told to quit.
    stdin: Option<ChildStdin>,
    /// The engine's output lines, read by a thread so that a silent engine cannot block the match.
    lines: mpsc::Receiver<std::io::Result<String>>,
    /// The engine was killed (it did not answer in time): do not wait for it to quit.
    killed: bool,
    /// A note for the user from the start (e.g. an older binary without an `egdb` parameter).
    warning: Option<String>,
    /// The dialect its `id` line announced.
    dialect: Dialect,
    /// The variants its `param name=variant … values="…"` line offered (empty: it named none).
    variants: Vec<String>,
}

impl ExternalEngine {
    /// Start `path engine` (errors name it `name path`, e.g. `engine B ./crown`), identify it
    /// (`hub` … `wait`, `init` … `ready`) and set its options: variant, hash, threads and level
    /// always; `book=on` when asked; the endgame databases when the ones it reports in its `hub`
    /// reply are not `options.egdb`'s. A binary that has no `egdb` parameter while `options.egdb`
    /// names a directory starts with a [`ExternalEngine::take_warning`]. On Unix the engine gets a
    /// process group of its own, so that a Ctrl-C at the terminal reaches the match (which lets the
    /// games in progress finish) but not the engine, which must still answer for them.
    ///
    /// # Errors
    /// [`ArenaError::Engine`]: the binary does not start, or fails the handshake (an `error`
    /// line, exit, or no answer within [`HANDSHAKE_DEADLINE`]).
    pub fn start(
        path: &Path,
        name: &str,
        options: &ExternalOptions,
    ) -> Result<ExternalEngine, ArenaError> {
        ExternalEngine::start_command(path, &["engine".to_string()], name, options)
    }

    /// [`ExternalEngine::start`] for any Hub engine: `program` run with `args` (e.g. `crown` and
    /// `engine`, or a third party's engine and its own arguments).
    ///
    /// # Errors
    /// As [`ExternalEngine::start`].
    pub fn start_command(
        program: &Path,
        args: &[String],
        name: &str,
        options: &ExternalOptions,
    ) -> Result<ExternalEngine, ArenaError> {
        let label = format!("{name} {}", program.display());
        let mut command = Command::new(program);
        command
            .args(args)
            // A match engine never builds databases in the background (it would skew its timing).
            .env("CROWN_EGDB_BUILD", "0")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .map_err(|e| ArenaError::Engine(format!("{label}: cannot start: {e}")))?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            return Err(ArenaError::Engine(format!("{label}: no pipes")));
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
        let mut e = ExternalEngine {
            label,
            child,
            stdin: Some(stdin),
            lines,
            killed: false,
            warning: None,
            dialect: Dialect::Legacy,
            variants: Vec::new(),
        };
        e.send("hub")?;
        let mut reported_egdb = None;
        let deadline = (Instant::now() + HANDSHAKE_DEADLINE, HANDSHAKE_DEADLINE);
        loop {
            let line = e.read_line("wait", deadline)?;
            if line.split_whitespace().next() == Some("wait") {
                break;
            }
            if let Ok((cmd, args)) = parse_line(&line) {
                let get = |k: &str| args.iter().find(|(a, _)| a == k).map(|(_, v)| v.clone());
                if cmd == "id" {
                    e.dialect = Dialect::of_id(&args);
                }
                if cmd == "param" && get("name").as_deref() == Some("egdb") {
                    reported_egdb = Some(get("value").unwrap_or_default());
                }
                if cmd == "param" && get("name").as_deref() == Some("variant") {
                    e.variants = get("values")
                        .unwrap_or_default()
                        .split_whitespace()
                        .map(str::to_string)
                        .collect();
                }
            }
        }
        e.send("init")?;
        e.read_until("ready", HANDSHAKE_DEADLINE)?;
        let o = options;
        e.send(&format!("set-param name=variant value={}", o.variant.id()))?;
        e.send(&format!("set-param name=hash value={}", o.hash_mib))?;
        e.send(&format!("set-param name=threads value={}", o.threads))?;
        e.send(&format!(
            "set-param name=level value={}",
            o.level.unwrap_or(0)
        ))?;
        if o.book {
            e.send(match e.dialect {
                Dialect::Hub2 => "set-param name=book value=true",
                Dialect::Legacy => "set-param name=book value=on",
            })?;
        }
        let egdb = &o.egdb;
        match reported_egdb {
            Some(d) if d != egdb.description => e.send(&format!(
                "set-param name=egdb value=\"{}\"",
                egdb.value.replace('"', "'")
            ))?,
            Some(_) => {}
            None if egdb.value != "none" && egdb.value != "default" => {
                e.warning = Some(format!(
                    "{} has no egdb parameter (an older binary?): it cannot be given the endgame databases in {}",
                    e.label, egdb.value
                ))
            }
            None => {}
        }
        Ok(e)
    }

    /// The protocol dialect the engine announced in its `id` line.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The variants the engine offered in its `hub` reply (`param name=variant … values="…"`);
    /// empty when it named none.
    pub fn variants(&self) -> &[String] {
        &self.variants
    }

    /// The warning of [`ExternalEngine::start`], once.
    pub fn take_warning(&mut self) -> Option<String> {
        self.warning.take()
    }

    fn err(&self, what: &str) -> ArenaError {
        ArenaError::Engine(format!("{}: {what}", self.label))
    }

    fn send(&mut self, line: &str) -> Result<(), ArenaError> {
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
    ) -> Result<String, ArenaError> {
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
    fn read_until(&mut self, word: &str, allowed: Duration) -> Result<String, ArenaError> {
        let deadline = (Instant::now() + allowed, allowed);
        loop {
            let line = self.read_line(word, deadline)?;
            if line.split_whitespace().next() == Some(word) {
                return Ok(line);
            }
        }
    }

    /// [`Player::go`] with the time the engine has to answer (`deadline`) instead of
    /// [`answer_deadline`].
    ///
    /// # Errors
    /// As [`Player::go`].
    pub fn go_within(
        &mut self,
        game: &Game,
        limits: &Limits,
        deadline: Duration,
    ) -> Result<Reply, ArenaError> {
        let mut moves = Vec::new();
        for (pos, mv) in game.history() {
            moves.push(match self.dialect {
                Dialect::Hub2 => crown_notation::hub_move(pos, mv),
                Dialect::Legacy => pos.move_text(mv),
            });
        }
        // Hub 2 names the position by a Hub position string; the earlier dialect by a FEN.
        let start = match self.dialect {
            Dialect::Hub2 => crown_notation::hub_position(game.start()),
            Dialect::Legacy => game.start().to_fen(),
        };
        self.send(&format!(
            "pos pos=\"{start}\" moves=\"{}\"",
            moves.join(" ")
        ))?;
        self.send(&self.dialect.level_line(limits))?;
        self.send("go think")?;
        let done = self.read_until("done", deadline)?;
        let (_, args) = parse_line(&done).map_err(|e| self.err(&e))?;
        let text = match args.iter().find(|(k, _)| k == "move") {
            Some((_, t)) => t.as_str(),
            // Hub 2: a bare `done` when the game is over.
            None if self.dialect == Dialect::Hub2 => "none",
            None => return Err(self.err(&format!("'{done}' has no move"))),
        };
        let best_move = if text == "none" {
            None
        } else {
            Some(
                crown_notation::read_move(game.position(), text)
                    .map_err(|e| self.err(&format!("move '{text}': {e}")))?,
            )
        };
        Ok(Reply {
            best_move,
            score: None,
        })
    }
}

impl Player for ExternalEngine {
    /// Send `new-game`.
    fn new_game(&mut self) -> Result<(), ArenaError> {
        self.send("new-game")
    }

    /// Send the game (`pos` with its start FEN and moves), the limits (`level`, in the engine's
    /// [`Dialect`]) and `go think`, and read the `done move=…` reply within [`answer_deadline`];
    /// `move=none` (or, in Hub 2, a bare `done`) is no move.
    ///
    /// # Errors
    /// [`ArenaError::Engine`]: an `error` line, the engine exited, no `done` in time (the engine
    /// is then killed), or a reply without a legal move.
    fn go(&mut self, game: &Game, limits: &Limits) -> Result<Reply, ArenaError> {
        self.go_within(game, limits, answer_deadline(limits))
    }
}

impl Drop for ExternalEngine {
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

/// Shows the label (name and path) of the engine.
impl std::fmt::Debug for ExternalEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExternalEngine")
            .field("label", &self.label)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crown_ai::Clock;

    /// The time an external engine has to answer: 10 s plus five times its time budget, else 1 ms
    /// a node, else 10 minutes.
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

    /// The `level` line in each dialect: Hub 2 in seconds with `time` less this move's increment,
    /// the earlier dialect in milliseconds with the clock as it is.
    #[test]
    fn level_lines_per_dialect() {
        let l = Limits {
            depth: Some(9),
            movetime_ms: Some(1500),
            clock: Some(Clock {
                remaining_ms: 30_000,
                increment_ms: 2_000,
            }),
            ..Limits::default()
        };
        assert_eq!(
            Dialect::Hub2.level_line(&l),
            "level depth=9 move-time=1.500 time=28.000 inc=2.000"
        );
        assert_eq!(
            Dialect::Legacy.level_line(&l),
            "level depth=9 move-time=1500 time=30000 inc=2000"
        );
        let id = |line: &str| Dialect::of_id(&crate::protocol::parse_line(line).unwrap().1);
        assert_eq!(id("id name=Crown version=0.1.0 protocol=2"), Dialect::Hub2);
        assert_eq!(
            id("id name=Crown version=0.1.0 author=\"Crown developers\""),
            Dialect::Legacy
        );
        // Scan 3.1's `id` has no `protocol` key: it speaks Hub 2 all the same (seconds).
        assert_eq!(
            id("id name=Scan version=3.1 author=\"Fabien Letouzey\" country=France"),
            Dialect::Hub2
        );
    }

    /// A scripted engine that records every line it is sent in `log` and answers `go` with `done`
    /// (`id` is its first reply line, `done` its answer to `go`).
    #[cfg(unix)]
    fn scripted_engine(dir: &Path, id: &str, done: &str) -> std::path::PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = dir.join("engine.sh");
        let log = dir.join("log");
        std::fs::write(
            &path,
            format!(
                "#!/bin/sh\nwhile read -r line; do\n  echo \"$line\" >> '{}'\n  case \"$line\" in\n    hub) echo '{id}'; echo 'param name=egdb value=none type=string'; echo wait;;\n    init) echo ready;;\n    go*) echo 'info depth=1'; echo '{done}';;\n    quit) exit 0;;\n  esac\ndone\n",
                log.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    /// A binary of the earlier dialect (as built from commit 6765126: no `protocol` in `id`,
    /// milliseconds, Crown move text, `score="…"` in `done`) still plays; so does a Hub 2 one.
    #[cfg(unix)]
    #[test]
    fn both_dialects_play() {
        let options = ExternalOptions {
            variant: Variant::American,
            hash_mib: 16,
            threads: 1,
            level: None,
            book: true,
            egdb: EgdbWanted::none(),
        };
        let mut game = Game::new(Variant::American);
        for m in ["11-15", "24-20", "15-19", "23x16"] {
            game.play_text(m).unwrap();
        }
        let limits = Limits::movetime(250);
        // The start as a FEN (the earlier dialect) and as the Hub position string (Hub 2: the
        // first player is W, the board turned; docs/protocol.md).
        let fen = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
        let hub = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";
        for (id, done, dialect, level, start, moves, book) in [
            (
                "id name=Crown version=0.1.0 author=\"Crown developers\"",
                "done move=12x19 ponder=27-23 score=\"+0.01\"",
                Dialect::Legacy,
                "level move-time=250",
                fen,
                "11-15 24-20 15-19 23x16",
                "set-param name=book value=on",
            ),
            (
                "id name=Crown version=0.2.0 author=\"Crown developers\" protocol=2",
                "done move=12x19x16 ponder=27-23",
                Dialect::Hub2,
                "level move-time=0.250",
                hub,
                "11-15 24-20 15-19 23x16x19",
                "set-param name=book value=true",
            ),
            (
                "id name=Scan version=3.1 author=\"Fabien Letouzey\" country=France",
                "done move=12x19x16 ponder=27-23",
                Dialect::Hub2,
                "level move-time=0.250",
                hub,
                "11-15 24-20 15-19 23x16x19",
                "set-param name=book value=true",
            ),
        ] {
            let dir = tempfile::tempdir().unwrap();
            let path = scripted_engine(dir.path(), id, done);
            let mut b = ExternalEngine::start(&path, "engine B", &options).unwrap();
            assert_eq!(b.dialect(), dialect);
            let r = b.go(&game, &limits).unwrap();
            let m = r.best_move.unwrap();
            assert_eq!(game.position().move_text(&m), "12x19");
            drop(b);
            let log = std::fs::read_to_string(dir.path().join("log")).unwrap();
            assert!(log.lines().any(|l| l == level), "{log}");
            assert!(log.lines().any(|l| l == book), "{log}");
            let pos = format!("pos pos=\"{start}\" moves=\"{moves}\"");
            assert!(log.lines().any(|l| l == pos), "{log}");
        }
    }

    /// An engine that never answers `go` is stopped at the deadline with an error naming the
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
        let options = ExternalOptions {
            variant: Variant::American,
            hash_mib: 16,
            threads: 1,
            level: None,
            book: false,
            egdb: EgdbWanted::none(),
        };
        let limits = Limits::movetime(10);
        let mut b = ExternalEngine::start(&path, "engine B", &options).unwrap();
        let game = Game::new(Variant::American);
        let e = b
            .go_within(&game, &limits, Duration::from_millis(100))
            .unwrap_err()
            .to_string();
        assert!(e.contains(": no 'done' within 0.1 s: "), "{e}");
        assert!(e.ends_with("the engine was stopped"), "{e}");
        assert!(b.child.try_wait().unwrap().is_some());
    }
}
