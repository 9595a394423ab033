//! The engine opponent, behind the [`MovePicker`] trait so the server does not depend on how moves
//! are chosen. The server calls it on a blocking thread (`tokio::task::spawn_blocking`), never on
//! the async runtime's workers. When an engine seat is to move, [`scheduler`] runs its search on
//! the bounded pool of workers and plays the move.

pub mod fair;
pub mod scheduler;

use crown_core::Game;
use std::sync::atomic::AtomicBool;

/// Chooses the engine's moves.
pub trait MovePicker: Send + Sync + 'static {
    /// The move to play in `game` (in Crown notation, as `Position::move_text` writes it) at casual
    /// `level` 1..=10, with `clock` = (time left, increment) in ms when the game is timed. Returns
    /// `None` if there is no move or `stop` was set. May block for as long as the search takes.
    fn pick(
        &self,
        game: &Game,
        level: u8,
        clock: Option<(u64, u64)>,
        stop: &AtomicBool,
    ) -> Option<String>;

    /// The endgame databases for `/health`: what is loaded and the background build's state
    /// (`crown_ai::tables::auto`), or `None` when the picker has none to report.
    fn egdb_status(&self) -> Option<serde_json::Value> {
        None
    }
}

/// The crown-ai engine as a [`MovePicker`]: a pool of [`crown_ai::Engine`]s (each with its own
/// transposition table), searching at the game's casual level within the clock.
pub struct CrownEngine {
    threads: usize,
    hash_mib: usize,
    pool: std::sync::Mutex<Vec<crown_ai::Engine>>,
    tables: Option<std::sync::Arc<dyn crown_ai::EndgameTables>>,
    /// Play from the embedded opening book (on unless [`CrownEngine::with_book`] turns it off).
    book: bool,
    /// The background build of the recommended databases ([`CrownEngine::with_auto_build`]).
    auto: Option<crown_ai::tables::auto::AutoBuild>,
}

impl CrownEngine {
    /// An engine pool whose searches use `threads` threads and `hash_mib` MiB of hash each.
    pub fn new(threads: usize, hash_mib: usize) -> CrownEngine {
        CrownEngine {
            threads,
            hash_mib,
            pool: std::sync::Mutex::new(Vec::new()),
            tables: None,
            book: true,
            auto: None,
        }
    }

    /// The same pool with the embedded opening book on (the default) or off (every move searched).
    #[must_use]
    pub fn with_book(mut self, on: bool) -> CrownEngine {
        self.book = on;
        self
    }

    /// The same pool whose engines share these endgame databases (used everywhere from level
    /// `crown_ai::TABLES_FROM_LEVEL` up; lower levels use them only to convert a database win).
    #[must_use]
    pub fn with_tables(
        mut self,
        tables: Option<std::sync::Arc<dyn crown_ai::EndgameTables>>,
    ) -> CrownEngine {
        self.tables = tables;
        self
    }

    /// The same pool with this background build of the recommended databases: its engines use
    /// the builder's tables (reloaded when a set is done), and the first move of each game kind
    /// asks for that game's set (logged when a build starts).
    #[must_use]
    pub fn with_auto_build(
        mut self,
        auto: Option<crown_ai::tables::auto::AutoBuild>,
    ) -> CrownEngine {
        if let Some(a) = &auto {
            self.tables = Some(a.tables());
        }
        self.auto = auto;
        self
    }
}

/// The `/health` report of the databases: `loaded` (one line) and `build` (null when there is no
/// background build): `state`, `variant`, `pieces`, `percent`, `dir`, `error`.
pub fn egdb_json(
    tables: Option<&std::sync::Arc<dyn crown_ai::EndgameTables>>,
    auto: Option<&crown_ai::tables::auto::AutoBuild>,
) -> serde_json::Value {
    let build = auto.map(|a| {
        let status = a.status();
        let error = match &status {
            crown_ai::tables::auto::Status::Failed { error, .. } => Some(error.clone()),
            _ => None,
        };
        serde_json::json!({
            "state": status.id(),
            "variant": status.variant().map(|v| v.id()),
            "pieces": a.pieces(),
            "percent": status.percent(),
            "line": status.line(a.pieces()),
            "dir": a.dir().display().to_string(),
            "error": error,
        })
    });
    serde_json::json!({
        "loaded": tables.map(|t| t.describe()),
        "build": build,
    })
}

impl MovePicker for CrownEngine {
    fn pick(
        &self,
        game: &Game,
        level: u8,
        clock: Option<(u64, u64)>,
        stop: &AtomicBool,
    ) -> Option<String> {
        if let Some(line) = self.auto.as_ref().and_then(|a| a.ensure(game.variant())) {
            tracing::info!("{line}");
        }
        // The one opponent policy (crown_ai::Opponent): level, book, databases, clock -> limits.
        let opponent = crown_ai::Opponent::new(level)
            .with_book(self.book)
            .with_tables(self.tables.clone());
        let pooled = self.pool.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut engine = pooled.unwrap_or_else(|| opponent.engine(self.hash_mib, self.threads));
        // Positions of another game would only pollute the table.
        engine.new_game();
        opponent.prepare(&mut engine);
        let clock = clock.map(|(remaining_ms, increment_ms)| crown_ai::Clock {
            remaining_ms,
            increment_ms,
        });
        // The engine session's one search path (crown_ai::session), on this blocking thread.
        let request = opponent.request(0, clock);
        let (_, result) = crown_ai::search_now(&mut engine, game, &request, stop, &mut |_| {});
        self.pool
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(engine);
        let mv = result.best_move?;
        Some(game.position().move_text(&mv))
    }

    fn egdb_status(&self) -> Option<serde_json::Value> {
        Some(egdb_json(self.tables.as_ref(), self.auto.as_ref()))
    }
}

/// The engine this build links: crown-ai, with the endgame databases `tables` (shared by every
/// engine of the pool) and the embedded opening book when `book`.
pub fn default_picker(
    threads: usize,
    hash_mib: usize,
    tables: Option<std::sync::Arc<dyn crown_ai::EndgameTables>>,
    book: bool,
) -> Option<std::sync::Arc<dyn MovePicker>> {
    Some(std::sync::Arc::new(
        CrownEngine::new(threads, hash_mib)
            .with_tables(tables)
            .with_book(book),
    ))
}

/// One line from the server to an engine worker ([`serve_worker`]): a search to start or one to
/// stop. JSON, one object per line.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum ToWorker {
    /// Search the game given by its variant, start FEN and the move texts played from it (the
    /// way the server's own records replay, `Live::from_record`).
    Search {
        id: u64,
        variant: String,
        fen: String,
        moves: Vec<String>,
        level: u8,
        /// (time left, increment) in ms, for a timed game.
        clock: Option<(u64, u64)>,
        /// How many database sets the server's background build finished: when it differs from
        /// the worker's last count, the worker reloads its databases first.
        tables: u64,
    },
    /// Stop search `id` (its answer comes at once, without a move).
    Stop { id: u64 },
}

/// One line from an engine worker: the answer to search `id` (`None`: no move, or stopped).
#[derive(Debug, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct FromWorker {
    id: u64,
    #[serde(rename = "move")]
    mv: Option<String>,
}

/// The game `line` describes, rebuilt as the server replays a record.
fn worker_game(variant: &str, fen: &str, moves: &[String]) -> Result<Game, String> {
    let variant: crown_core::Variant = variant.parse().map_err(|e| format!("{e}"))?;
    let start = crown_core::Position::from_fen(variant, fen).map_err(|e| format!("{e}"))?;
    let mut game = Game::from_position(start);
    for (ply, m) in moves.iter().enumerate() {
        game.play_text(m)
            .map_err(|e| format!("ply {} '{m}': {e}", ply + 1))?;
    }
    Ok(game)
}

/// The engine worker's loop (`crown-server --engine-worker`): reads `ToWorker` lines from
/// `input`, runs each search on a thread of its own with `engine` and writes its answer to
/// `output` as a line; `reload` is called before a search whose database count changed. Returns
/// when `input` ends (the server closed the pipe or died); searches still running are then
/// abandoned by the caller's exit. A line that cannot be read is answered, when it names a
/// search, with no move, and otherwise skipped (logged on stderr).
pub fn serve_worker(
    engine: std::sync::Arc<CrownEngine>,
    input: impl std::io::BufRead,
    output: impl std::io::Write + Send + 'static,
    reload: impl Fn(),
) {
    use std::collections::HashMap;
    use std::sync::{Arc, Mutex};
    fn answer(output: &Mutex<impl std::io::Write>, reply: &FromWorker) {
        let mut out = output.lock().unwrap_or_else(|e| e.into_inner());
        let line = serde_json::to_string(reply).unwrap_or_default();
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    }
    let output = Arc::new(Mutex::new(output));
    let stops: Arc<Mutex<HashMap<u64, Arc<AtomicBool>>>> = Arc::default();
    let mut tables_seen = 0;
    for line in input.lines() {
        let Ok(line) = line else { break };
        match serde_json::from_str::<ToWorker>(&line) {
            Ok(ToWorker::Stop { id }) => {
                if let Some(s) = stops.lock().unwrap_or_else(|e| e.into_inner()).get(&id) {
                    s.store(true, std::sync::atomic::Ordering::SeqCst);
                }
            }
            Ok(ToWorker::Search {
                id,
                variant,
                fen,
                moves,
                level,
                clock,
                tables,
            }) => {
                if tables != tables_seen {
                    tables_seen = tables;
                    reload();
                }
                let game = match worker_game(&variant, &fen, &moves) {
                    Ok(g) => g,
                    Err(e) => {
                        eprintln!("crown-server engine worker: search {id}: {e}");
                        answer(&output, &FromWorker { id, mv: None });
                        continue;
                    }
                };
                let stop = Arc::new(AtomicBool::new(false));
                stops
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .insert(id, stop.clone());
                let (engine, out, stops) = (engine.clone(), output.clone(), stops.clone());
                let spawned = std::thread::Builder::new()
                    .name("crown-engine".into())
                    .spawn(move || {
                        let mv = engine.pick(&game, level, clock, &stop);
                        stops.lock().unwrap_or_else(|e| e.into_inner()).remove(&id);
                        answer(&out, &FromWorker { id, mv });
                    });
                if let Err(e) = spawned {
                    eprintln!("crown-server engine worker: cannot start a search thread: {e}");
                    answer(&output, &FromWorker { id, mv: None });
                }
            }
            Err(e) => eprintln!("crown-server engine worker: unreadable line: {e}"),
        }
    }
}

/// Make this process an engine worker that yields the CPU to everything else on the machine
/// (Linux): a session of its own (`setsid`), so that it gets its own autogroup, whose nice value
/// is then set to [`WORKER_NICE`] (`/proc/self/autogroup`, which an unprivileged process may
/// raise), and the same nice value for the process itself (what counts when autogroup
/// scheduling is off). Each step that fails is skipped: the worker then runs at normal priority.
pub fn lower_worker_priority() {
    #[cfg(target_os = "linux")]
    {
        let _ = rustix::process::setsid();
        let _ = std::fs::write("/proc/self/autogroup", format!("{WORKER_NICE}\n"));
        let _ = rustix::process::setpriority_process(None, WORKER_NICE);
    }
}

/// The nice value of the engine worker's autogroup and process (see [`lower_worker_priority`]).
pub const WORKER_NICE: i32 = 19;

/// The engine in a separate worker process ([`serve_worker`], `crown-server --engine-worker`),
/// so that its searches are charged to another scheduling group than the server's request
/// handling (see [`lower_worker_priority`]). One worker process runs every search, each on its
/// own thread (the server's `--engine-workers` bound how many at once). A worker that dies is
/// started again at the next search, and a search it was running is asked again of the new one
/// (with the time already spent taken off the clock), at most [`WORKER_ATTEMPTS`] times.
pub struct WorkerPicker {
    program: std::path::PathBuf,
    args: Vec<std::ffi::OsString>,
    conn: std::sync::Mutex<Option<std::sync::Arc<WorkerConn>>>,
    next_id: std::sync::atomic::AtomicU64,
    starts: std::sync::atomic::AtomicU64,
    tables: Option<std::sync::Arc<dyn crown_ai::EndgameTables>>,
    auto: Option<crown_ai::tables::auto::AutoBuild>,
}

/// How many times a search is asked of a worker (a first time, then once after each restart)
/// before it is given up.
pub const WORKER_ATTEMPTS: usize = 3;

type Pending = std::collections::HashMap<u64, std::sync::mpsc::Sender<Option<String>>>;

/// A running worker: its process, its input, and the searches waiting for its answers.
struct WorkerConn {
    child: std::sync::Mutex<std::process::Child>,
    stdin: std::sync::Mutex<std::process::ChildStdin>,
    /// Searches waiting for an answer; `None` once the worker's output ended (it died).
    pending: std::sync::Arc<std::sync::Mutex<Option<Pending>>>,
}

impl WorkerConn {
    fn start(
        program: &std::path::Path,
        args: &[std::ffi::OsString],
    ) -> std::io::Result<WorkerConn> {
        use std::io::BufRead;
        let mut child = std::process::Command::new(program)
            .args(args)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::inherit())
            .spawn()?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(std::io::Error::other("the worker's pipes are missing"));
        };
        let pending = std::sync::Arc::new(std::sync::Mutex::new(Some(Pending::new())));
        let reader_pending = pending.clone();
        std::thread::Builder::new()
            .name("crown-engine-worker-reader".into())
            .spawn(move || {
                for line in std::io::BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    let Ok(reply) = serde_json::from_str::<FromWorker>(&line) else {
                        tracing::warn!(%line, "unreadable line from the engine worker");
                        continue;
                    };
                    let mut p = reader_pending.lock().unwrap_or_else(|e| e.into_inner());
                    if let Some(tx) = p.as_mut().and_then(|p| p.remove(&reply.id)) {
                        let _ = tx.send(reply.mv);
                    }
                }
                // The worker is gone: every search waiting on it hears so (its sender dropped).
                *reader_pending.lock().unwrap_or_else(|e| e.into_inner()) = None;
            })?;
        Ok(WorkerConn {
            child: std::sync::Mutex::new(child),
            stdin: std::sync::Mutex::new(stdin),
            pending,
        })
    }

    fn alive(&self) -> bool {
        self.pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .is_some()
    }

    /// Wait for the answer to search `id` (false if the worker is already gone).
    fn register(&self, id: u64, tx: std::sync::mpsc::Sender<Option<String>>) -> bool {
        match self
            .pending
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .as_mut()
        {
            Some(p) => {
                p.insert(id, tx);
                true
            }
            None => false,
        }
    }

    fn send(&self, line: &ToWorker) -> std::io::Result<()> {
        use std::io::Write;
        let text = serde_json::to_string(line).map_err(std::io::Error::other)?;
        let mut stdin = self.stdin.lock().unwrap_or_else(|e| e.into_inner());
        writeln!(stdin, "{text}")?;
        stdin.flush()
    }

    fn pid(&self) -> u32 {
        self.child.lock().unwrap_or_else(|e| e.into_inner()).id()
    }
}

impl Drop for WorkerConn {
    fn drop(&mut self) {
        let mut child = self.child.lock().unwrap_or_else(|e| e.into_inner());
        let _ = child.kill();
        let _ = child.wait();
    }
}

impl WorkerPicker {
    /// A picker whose worker is `program` run with `args` (e.g. this server binary with
    /// `--engine-worker` and its engine options), started at the first search.
    pub fn new(
        program: impl Into<std::path::PathBuf>,
        args: Vec<std::ffi::OsString>,
    ) -> WorkerPicker {
        WorkerPicker {
            program: program.into(),
            args,
            conn: std::sync::Mutex::new(None),
            next_id: std::sync::atomic::AtomicU64::new(1),
            starts: std::sync::atomic::AtomicU64::new(0),
            tables: None,
            auto: None,
        }
    }

    /// The same picker reporting these databases in `/health` (the worker loads its own).
    #[must_use]
    pub fn with_tables(
        mut self,
        tables: Option<std::sync::Arc<dyn crown_ai::EndgameTables>>,
    ) -> WorkerPicker {
        self.tables = tables;
        self
    }

    /// The same picker with this background build of the databases (run by the server): the
    /// first move of each game kind asks for that game's set, and the worker reloads its
    /// databases when a set is done.
    #[must_use]
    pub fn with_auto_build(
        mut self,
        auto: Option<crown_ai::tables::auto::AutoBuild>,
    ) -> WorkerPicker {
        if let Some(a) = &auto {
            self.tables = Some(a.tables());
        }
        self.auto = auto;
        self
    }

    /// The worker's process id, if one is running.
    pub fn worker_pid(&self) -> Option<u32> {
        let conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        conn.as_ref().filter(|c| c.alive()).map(|c| c.pid())
    }

    /// How many worker processes were started so far (1 + the restarts).
    pub fn worker_starts(&self) -> u64 {
        self.starts.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// The running worker, started (again) if there is none or it died.
    fn conn(&self) -> Option<std::sync::Arc<WorkerConn>> {
        let mut conn = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(c) = conn.as_ref().filter(|c| c.alive()) {
            return Some(c.clone());
        }
        // A dead worker is reaped when its last user drops it (WorkerConn::drop).
        *conn = None;
        match WorkerConn::start(&self.program, &self.args) {
            Ok(c) => {
                let n = self
                    .starts
                    .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                if n > 0 {
                    tracing::warn!(pid = c.pid(), "engine worker restarted");
                }
                let c = std::sync::Arc::new(c);
                *conn = Some(c.clone());
                Some(c)
            }
            Err(e) => {
                tracing::error!(error = %e, program = %self.program.display(), "cannot start the engine worker");
                None
            }
        }
    }
}

impl MovePicker for WorkerPicker {
    fn pick(
        &self,
        game: &Game,
        level: u8,
        clock: Option<(u64, u64)>,
        stop: &AtomicBool,
    ) -> Option<String> {
        use std::sync::atomic::Ordering;
        use std::sync::mpsc::RecvTimeoutError;
        if let Some(line) = self.auto.as_ref().and_then(|a| a.ensure(game.variant())) {
            tracing::info!("{line}");
        }
        let started = std::time::Instant::now();
        let moves: Vec<String> = game
            .history()
            .map(|(before, mv)| before.move_text(mv))
            .collect();
        let tables = self.auto.as_ref().map_or(0, |a| a.finished().len() as u64);
        for _ in 0..WORKER_ATTEMPTS {
            if stop.load(Ordering::SeqCst) {
                return None;
            }
            let conn = self.conn()?;
            let id = self.next_id.fetch_add(1, Ordering::SeqCst);
            let (tx, rx) = std::sync::mpsc::channel();
            if !conn.register(id, tx) {
                continue;
            }
            // After a restart the search starts again with the time already spent taken off.
            let spent = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
            let request = ToWorker::Search {
                id,
                variant: game.variant().id().to_string(),
                fen: game.start().to_fen(),
                moves: moves.clone(),
                level,
                clock: clock.map(|(left, inc)| (left.saturating_sub(spent), inc)),
                tables,
            };
            if conn.send(&request).is_err() {
                continue;
            }
            let mut stop_sent = false;
            loop {
                match rx.recv_timeout(std::time::Duration::from_millis(20)) {
                    Ok(mv) => return mv,
                    Err(RecvTimeoutError::Timeout) => {
                        if !stop_sent && stop.load(Ordering::SeqCst) {
                            stop_sent = true;
                            if conn.send(&ToWorker::Stop { id }).is_err() {
                                return None;
                            }
                        }
                    }
                    Err(RecvTimeoutError::Disconnected) => break,
                }
            }
            tracing::warn!("the engine worker ended during a search; asking a new one");
        }
        None
    }

    fn egdb_status(&self) -> Option<serde_json::Value> {
        Some(egdb_json(self.tables.as_ref(), self.auto.as_ref()))
    }
}
