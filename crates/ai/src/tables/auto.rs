//! Endgame databases without a manual step: the one policy of the background build that every
//! front end running the engine follows (`crown play`, `crown analyze`, `crown engine`, the TUI,
//! the server).
//!
//! - **When**: a front end that uses the default database directory (`$CROWN_EGDB_DIR` when it
//!   names an existing directory, else the per-user data directory, e.g.
//!   `~/.local/share/crown/egdb`, created when missing) calls [`AutoBuild::ensure`] with the game
//!   being played; when that directory lacks a class of the recommended set
//!   ([`RECOMMENDED_PIECES`] pieces) of that game, the set is built in the background.
//! - **Never** when turned off ([`Request::no_build`]: `--no-egdb-build`; [`BUILD_ENV`]`=0`), or
//!   when the front end was given a directory (`--egdb DIR`) or no databases (`--no-egdb`)
//!   explicitly, or when `$CROWN_EGDB_DIR` names a directory that does not exist (a typo is not
//!   a place to write gigabytes into); see [`decide`].
//! - **How**: one thread at the lowest priority (Linux: nice 19 for the builder's threads), with
//!   [`crown_egdb::build`], which resumes a killed build and holds the directory's
//!   [`crown_egdb::BuildLock`], so two processes never build the same files (the second waits,
//!   then keeps what the first built).
//! - **Meanwhile** the engine plays on with what the directory already held: the front end hands
//!   its engines [`AutoBuild::tables`], a [`LiveTables`] that the builder reloads when a game's set
//!   is done, so the next search uses the new databases without a restart.
//! - **What people see**: [`Status::line`] (the TUI's status line: progress, then "databases
//!   ready"), [`AutoBuild::ensure`]'s one announcement line (the CLI prints it on stderr, the
//!   server logs it) and the observer given to [`AutoBuild::start`] on every change of state.

use super::EndgameTables;
use crate::TableProbe;
use crown_core::{Position, Variant};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex, RwLock};
use std::time::{Duration, Instant};

/// The recommended set: every class with at most this many pieces (Impasse: checkers). American
/// builds in about 1.5 minutes on one core of a current machine (pool about 2, Impasse seconds).
pub const RECOMMENDED_PIECES: u32 = 5;

/// The environment variable of the background build: `0`, `false`, `no` or `off` (any case)
/// turn it off (tests and CI set `CROWN_EGDB_BUILD=0`); a number from 2 to [`MAX_ENV_PIECES`]
/// builds that many pieces instead of [`RECOMMENDED_PIECES`] (e.g. `6`, or `3` in tests that
/// wait for a build); anything else (`1`, `on`, empty) is the default, the recommended set.
pub const BUILD_ENV: &str = "CROWN_EGDB_BUILD";

/// The largest piece count [`BUILD_ENV`] may ask for (≤7 American is far beyond a background
/// job: hundreds of gigabytes of memory).
pub const MAX_ENV_PIECES: u32 = 6;

/// The piece count [`BUILD_ENV`]'s `value` asks for: `None` when it turns the build off.
pub fn env_pieces(value: Option<&OsStr>) -> Option<u32> {
    match value {
        None => Some(RECOMMENDED_PIECES),
        Some(v) if env_says_off(v) => None,
        Some(v) => match v.to_string_lossy().trim().parse::<u32>() {
            Ok(n) if (2..=MAX_ENV_PIECES).contains(&n) => Some(n),
            _ => Some(RECOMMENDED_PIECES),
        },
    }
}

/// What a front end was told about databases on its command line.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Request {
    /// A database directory was given explicitly (`--egdb DIR`).
    pub dir_given: bool,
    /// Databases are off (`--no-egdb`).
    pub no_egdb: bool,
    /// The background build is off (`--no-egdb-build`).
    pub no_build: bool,
}

/// Why there is no background build ([`decide`], [`AutoBuild::for_front_end`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Off {
    /// `--no-egdb-build`.
    Flag,
    /// [`BUILD_ENV`] says off.
    Env,
    /// `--egdb DIR` or `--no-egdb` was given.
    Explicit,
    /// `$CROWN_EGDB_DIR` names a directory that does not exist.
    EnvDirMissing,
    /// There is no per-user data directory (no home directory).
    NoDirectory,
    /// The build thread could not be started (the one-line reason).
    NoThread(String),
}

/// Whether `value` of [`BUILD_ENV`] turns the build off.
pub fn env_says_off(value: &OsStr) -> bool {
    let v = value.to_string_lossy();
    let v = v.trim();
    ["0", "false", "no", "off"]
        .iter()
        .any(|w| v.eq_ignore_ascii_case(w))
}

/// The policy: the directory to build into, or why not. `env_build` is the value of
/// [`BUILD_ENV`], `env_dir` that of `$CROWN_EGDB_DIR`, `user_dir` the per-user default directory
/// (as [`crown_egdb::Tablebase::default_dir`] without the variable). Pure, for tests; front ends
/// call [`decide_from_env`].
///
/// # Errors
/// [`Off`] saying why there is no build.
pub fn decide(
    request: Request,
    env_build: Option<&OsStr>,
    env_dir: Option<&OsStr>,
    user_dir: Option<PathBuf>,
) -> Result<PathBuf, Off> {
    if request.no_build {
        return Err(Off::Flag);
    }
    if env_build.is_some_and(env_says_off) {
        return Err(Off::Env);
    }
    if request.dir_given || request.no_egdb {
        return Err(Off::Explicit);
    }
    match env_dir.filter(|d| !d.is_empty()) {
        Some(d) if Path::new(d).is_dir() => Ok(PathBuf::from(d)),
        Some(_) => Err(Off::EnvDirMissing),
        None => user_dir.ok_or(Off::NoDirectory),
    }
}

/// [`decide`] with the process's environment and the per-user data directory.
///
/// # Errors
/// [`Off`] saying why there is no build.
pub fn decide_from_env(request: Request) -> Result<PathBuf, Off> {
    let user_dir = dirs_user_dir();
    decide(
        request,
        std::env::var_os(BUILD_ENV).as_deref(),
        std::env::var_os("CROWN_EGDB_DIR").as_deref(),
        user_dir,
    )
}

/// The per-user database directory without `$CROWN_EGDB_DIR`.
fn dirs_user_dir() -> Option<PathBuf> {
    // `default_dir` prefers the variable; `decide` handles it itself.
    match std::env::var_os("CROWN_EGDB_DIR").filter(|d| !d.is_empty()) {
        None => crown_egdb::Tablebase::default_dir(),
        Some(_) => None,
    }
}

/// Endgame databases that can be replaced while engines probe them: the front end gives its
/// engines one `Arc<LiveTables>` once, and [`LiveTables::set`] (the builder, when a set is done)
/// changes what every later probe sees. Empty, it holds nothing ([`EndgameTables::max_pieces`] 0).
#[derive(Default)]
pub struct LiveTables {
    inner: RwLock<Option<Arc<dyn EndgameTables>>>,
}

impl LiveTables {
    /// Holding `tables` (or nothing).
    pub fn new(tables: Option<Arc<dyn EndgameTables>>) -> LiveTables {
        LiveTables {
            inner: RwLock::new(tables),
        }
    }

    /// What it holds now.
    pub fn get(&self) -> Option<Arc<dyn EndgameTables>> {
        self.inner.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Hold `tables` from now on (searches already running keep the piece count they started
    /// with).
    pub fn set(&self, tables: Option<Arc<dyn EndgameTables>>) {
        *self.inner.write().unwrap_or_else(|e| e.into_inner()) = tables;
    }
}

impl EndgameTables for LiveTables {
    fn max_pieces(&self, variant: Variant) -> u32 {
        self.get().map_or(0, |t| t.max_pieces(variant))
    }

    fn probe(&self, pos: &Position) -> Option<TableProbe> {
        let inner = self.inner.read().unwrap_or_else(|e| e.into_inner());
        inner.as_ref()?.probe(pos)
    }

    fn describe(&self) -> String {
        self.get()
            .map_or_else(|| "no endgame databases".to_string(), |t| t.describe())
    }

    fn warnings(&self) -> Vec<String> {
        self.get().map_or_else(Vec::new, |t| t.warnings())
    }
}

/// The state of the background build, for people and for `/health`.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// Nothing asked for yet.
    Idle,
    /// Another builder (another process) holds the directory's lock; this one waits for it.
    Waiting {
        /// The game whose set is wanted.
        variant: Variant,
    },
    /// Building.
    Building {
        /// The game.
        variant: Variant,
        /// Positions solved so far.
        done: u64,
        /// Positions to solve.
        total: u64,
    },
    /// The set of `variant` is complete and loaded.
    Ready {
        /// The game.
        variant: Variant,
        /// Classes this builder solved (0: another builder or an earlier run had built them).
        built: usize,
        /// Wall time of the build, seconds.
        seconds: f64,
    },
    /// The build failed (e.g. a full disk); the engine plays on with what it has.
    Failed {
        /// The game.
        variant: Variant,
        /// One line naming the file and what is wrong.
        error: String,
    },
}

impl Status {
    /// `idle`, `waiting`, `building`, `ready` or `failed` (the word of `/health`).
    pub fn id(&self) -> &'static str {
        match self {
            Status::Idle => "idle",
            Status::Waiting { .. } => "waiting",
            Status::Building { .. } => "building",
            Status::Ready { .. } => "ready",
            Status::Failed { .. } => "failed",
        }
    }

    /// The game concerned, if any.
    pub fn variant(&self) -> Option<Variant> {
        match self {
            Status::Idle => None,
            Status::Waiting { variant }
            | Status::Building { variant, .. }
            | Status::Ready { variant, .. }
            | Status::Failed { variant, .. } => Some(*variant),
        }
    }

    /// Percent done while building (0–100), else `None`.
    pub fn percent(&self) -> Option<u32> {
        match self {
            Status::Building { done, total, .. } => {
                Some(((*done).min(*total) * 100).checked_div(*total).unwrap_or(0) as u32)
            }
            _ => None,
        }
    }

    /// One short line for a status bar, e.g. `building databases (american ≤5): 37%` or
    /// `databases ready (american ≤5)`; empty for [`Status::Idle`].
    pub fn line(&self, pieces: u32) -> String {
        match self {
            Status::Idle => String::new(),
            Status::Waiting { variant } => format!(
                "databases ({} ≤{pieces}): waiting for another build",
                variant.id()
            ),
            Status::Building { variant, .. } => format!(
                "building databases ({} ≤{pieces}): {}%",
                variant.id(),
                self.percent().unwrap_or(0)
            ),
            Status::Ready { variant, .. } => {
                format!("databases ready ({} ≤{pieces})", variant.id())
            }
            Status::Failed { variant, error } => format!(
                "databases ({} ≤{pieces}): build failed: {error}",
                variant.id()
            ),
        }
    }
}

/// A function told of every change of [`Status`] ([`AutoBuild::start`]).
pub type Observer = Box<dyn Fn(&Status) + Send + Sync>;

struct State {
    status: Status,
    /// Games asked for in this process (each is built at most once).
    asked: Vec<Variant>,
    /// Reports of finished builds, by game: classes built.
    built: Vec<(Variant, usize)>,
}

struct Shared {
    dir: PathBuf,
    pieces: u32,
    tables: Arc<LiveTables>,
    state: Mutex<State>,
    changed: Condvar,
    done: AtomicU64,
    total: AtomicU64,
    observer: Option<Observer>,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The observer hears of a state before anyone waiting for it wakes up.
    fn set(&self, status: Status) {
        if let Some(o) = &self.observer {
            o(&status);
        }
        let mut st = self.lock();
        if let Status::Ready { variant, built, .. } = &status {
            st.built.push((*variant, *built));
        }
        st.status = status;
        drop(st);
        self.changed.notify_all();
    }

    fn status(&self) -> Status {
        match self.lock().status.clone() {
            Status::Building { variant, .. } => Status::Building {
                variant,
                done: self.done.load(Ordering::Relaxed),
                total: self.total.load(Ordering::Relaxed),
            },
            s => s,
        }
    }

    fn work(&self, variant: Variant) {
        self.done.store(0, Ordering::Relaxed);
        self.total.store(0, Ordering::Relaxed);
        match crown_egdb::BuildLock::try_acquire(&self.dir) {
            Ok(Some(_free)) => self.set(Status::Building {
                variant,
                done: 0,
                total: 0,
            }),
            Ok(None) => self.set(Status::Waiting { variant }),
            Err(e) => {
                self.set(Status::Failed {
                    variant,
                    error: e.to_string(),
                });
                return;
            }
        }
        let opts = crown_egdb::BuildOptions {
            variant,
            pieces: self.pieces,
            dir: self.dir.clone(),
            threads: Some(1),
        };
        let tick = Tick(self);
        match crown_egdb::build(&opts, &tick) {
            Ok(report) => match super::load(Some(&self.dir)) {
                Ok(t) => {
                    self.tables.set(t);
                    self.set(Status::Ready {
                        variant,
                        built: report.built.len(),
                        seconds: report.seconds,
                    });
                }
                Err(error) => self.set(Status::Failed { variant, error }),
            },
            Err(e) => self.set(Status::Failed {
                variant,
                error: e.to_string(),
            }),
        }
    }
}

/// The builder's progress: counts for [`Status::Building`]; after a wait, the first call says the
/// build has started.
struct Tick<'a>(&'a Shared);

impl crown_egdb::Progress for Tick<'_> {
    fn begin(&self, positions: u64) {
        self.0.total.fetch_add(positions, Ordering::Relaxed);
        // After waiting for another builder's lock, the build starts now.
        let variant = match self.0.lock().status {
            Status::Waiting { variant } => Some(variant),
            _ => None,
        };
        if let Some(variant) = variant {
            self.0.set(Status::Building {
                variant,
                done: 0,
                total: positions,
            });
        }
    }

    fn advance(&self, positions: u64) {
        self.0.done.fetch_add(positions, Ordering::Relaxed);
    }
}

/// Lower the calling thread's priority as far as it goes (the threads it starts inherit it).
fn lower_priority() {
    #[cfg(target_os = "linux")]
    {
        // Linux keeps a nice value per thread: this lowers only the builder (and its rayon worker).
        let _ = rustix::process::setpriority_process(Some(rustix::thread::gettid()), 19);
    }
}

/// The background builder of one database directory (see the [module documentation](self)).
/// Cheap to clone; the build thread runs on when every handle is dropped, to the end of the sets
/// already asked for.
#[derive(Clone)]
pub struct AutoBuild {
    shared: Arc<Shared>,
    jobs: Sender<Variant>,
}

impl std::fmt::Debug for AutoBuild {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AutoBuild")
            .field("dir", &self.shared.dir)
            .field("pieces", &self.shared.pieces)
            .field("status", &self.status())
            .finish()
    }
}

impl AutoBuild {
    /// A builder of every class with at most `pieces` pieces ([`RECOMMENDED_PIECES`] for front
    /// ends; tests use 2 or 3) into `dir`, whose engines probe `tables` (what the directory held at
    /// the start; the builder replaces it with the directory's full contents after each build).
    /// `observer` is called on the build thread at every change of [`Status`] (not at every
    /// progress step). Nothing is built before [`AutoBuild::ensure`].
    ///
    /// # Errors
    /// One line when the build thread cannot be started.
    pub fn start(
        dir: PathBuf,
        pieces: u32,
        tables: Option<Arc<dyn EndgameTables>>,
        observer: Option<Observer>,
    ) -> Result<AutoBuild, String> {
        let shared = Arc::new(Shared {
            dir,
            pieces,
            tables: Arc::new(LiveTables::new(tables)),
            state: Mutex::new(State {
                status: Status::Idle,
                asked: Vec::new(),
                built: Vec::new(),
            }),
            changed: Condvar::new(),
            done: AtomicU64::new(0),
            total: AtomicU64::new(0),
            observer,
        });
        let (jobs, rx): (Sender<Variant>, Receiver<Variant>) = channel();
        let worker = Arc::clone(&shared);
        std::thread::Builder::new()
            .name("crown-egdb-build".into())
            .spawn(move || {
                lower_priority();
                while let Ok(variant) = rx.recv() {
                    worker.work(variant);
                }
            })
            .map_err(|e| format!("cannot start the endgame database build thread: {e}"))?;
        Ok(AutoBuild { shared, jobs })
    }

    /// [`decide_from_env`], then [`AutoBuild::start`] with [`RECOMMENDED_PIECES`] (or the count
    /// [`BUILD_ENV`] gives, [`env_pieces`]): the builder of a front end.
    ///
    /// # Errors
    /// [`Off`] saying why there is none (the policy, or the thread could not start).
    pub fn for_front_end(
        request: Request,
        tables: Option<Arc<dyn EndgameTables>>,
        observer: Option<Observer>,
    ) -> Result<AutoBuild, Off> {
        let dir = decide_from_env(request)?;
        let pieces = env_pieces(std::env::var_os(BUILD_ENV).as_deref()).ok_or(Off::Env)?;
        AutoBuild::start(dir, pieces, tables, observer).map_err(Off::NoThread)
    }

    /// The databases for the front end's engines: what the directory holds, reloaded after each
    /// build (a [`LiveTables`]).
    pub fn tables(&self) -> Arc<dyn EndgameTables> {
        self.shared.tables.clone()
    }

    /// The directory built into.
    pub fn dir(&self) -> &Path {
        &self.shared.dir
    }

    /// The piece count of the set built.
    pub fn pieces(&self) -> u32 {
        self.shared.pieces
    }

    /// Whether `dir` holds every class of `variant` with at most `pieces` pieces, undamaged.
    pub fn is_complete(dir: &Path, variant: Variant, pieces: u32) -> bool {
        crown_egdb::Tablebase::open(dir).is_ok_and(|tb| tb.max_pieces(variant) >= pieces)
    }

    /// Ask for the set of `variant` (the game about to be played): when the directory lacks it
    /// and it was not asked for before in this process, queue its build and return the one line
    /// for people that says so (the CLI prints it on stderr, the server logs it); else `None`.
    pub fn ensure(&self, variant: Variant) -> Option<String> {
        {
            let mut st = self.shared.lock();
            if st.asked.contains(&variant) {
                return None;
            }
            st.asked.push(variant);
        }
        if AutoBuild::is_complete(&self.shared.dir, variant, self.shared.pieces) {
            return None;
        }
        self.jobs.send(variant).ok()?;
        Some(format!(
            "building the ≤{}-piece {} endgame databases in {} in the background (low priority; \
             the engine uses them once built; --no-egdb-build or {BUILD_ENV}=0 turns this off)",
            self.shared.pieces,
            variant.id(),
            self.shared.dir.display()
        ))
    }

    /// The state now (with the progress of a build in course).
    pub fn status(&self) -> Status {
        self.shared.status()
    }

    /// Classes built by this builder for each finished game, in order of completion.
    pub fn finished(&self) -> Vec<(Variant, usize)> {
        self.shared.lock().built.clone()
    }

    /// Wait until `done` holds for the state (checked at every change of state, not at progress
    /// steps), at most `timeout`; the last state seen, and whether `done` held.
    pub fn wait_until(&self, done: impl Fn(&Status) -> bool, timeout: Duration) -> (Status, bool) {
        let end = Instant::now() + timeout;
        let mut st = self.shared.lock();
        loop {
            if done(&st.status) {
                return (st.status.clone(), true);
            }
            let now = Instant::now();
            if now >= end {
                return (st.status.clone(), false);
            }
            st = self
                .shared
                .changed
                .wait_timeout(st, end - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ffi::OsString;

    const WAIT: Duration = Duration::from_secs(120);

    fn ready(s: &Status) -> bool {
        matches!(s, Status::Ready { .. } | Status::Failed { .. })
    }

    #[test]
    fn the_policy_says_where_and_when() {
        let tmp = std::env::temp_dir();
        let user = Some(PathBuf::from("/home/me/.local/share/crown/egdb"));
        let on = Request::default();
        assert_eq!(
            decide(on, None, None, user.clone()),
            Ok(user.clone().unwrap())
        );
        let zero = OsString::from("0");
        assert_eq!(decide(on, Some(&zero), None, user.clone()), Err(Off::Env));
        for v in ["false", "OFF", " no "] {
            assert!(env_says_off(OsStr::new(v)), "{v}");
        }
        for v in ["1", "", "yes"] {
            assert!(!env_says_off(OsStr::new(v)), "{v}");
            assert_eq!(env_pieces(Some(OsStr::new(v))), Some(RECOMMENDED_PIECES));
        }
        assert_eq!(env_pieces(None), Some(RECOMMENDED_PIECES));
        assert_eq!(env_pieces(Some(OsStr::new("0"))), None);
        assert_eq!(env_pieces(Some(OsStr::new("3"))), Some(3));
        assert_eq!(env_pieces(Some(OsStr::new("6"))), Some(6));
        assert_eq!(env_pieces(Some(OsStr::new("9"))), Some(RECOMMENDED_PIECES));
        let flag = Request {
            no_build: true,
            ..on
        };
        assert_eq!(decide(flag, None, None, user.clone()), Err(Off::Flag));
        let given = Request {
            dir_given: true,
            ..on
        };
        assert_eq!(decide(given, None, None, user.clone()), Err(Off::Explicit));
        let none = Request {
            no_egdb: true,
            ..on
        };
        assert_eq!(decide(none, None, None, user.clone()), Err(Off::Explicit));
        assert_eq!(
            decide(on, None, Some(tmp.as_os_str()), user.clone()),
            Ok(tmp.clone())
        );
        let missing = tmp.join("crown-no-such-dir-for-this-test");
        assert_eq!(
            decide(on, None, Some(missing.as_os_str()), user.clone()),
            Err(Off::EnvDirMissing)
        );
        assert_eq!(decide(on, None, None, None), Err(Off::NoDirectory));
    }

    #[test]
    fn an_empty_directory_is_built_and_the_tables_reloaded() {
        let dir = tempfile::tempdir().unwrap();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        let auto = AutoBuild::start(
            dir.path().to_path_buf(),
            3,
            None,
            Some(Box::new(move |s: &Status| {
                log.lock().unwrap().push(s.id());
            })),
        )
        .unwrap();
        let tables = auto.tables();
        assert_eq!(tables.max_pieces(Variant::Impasse), 0);
        let line = auto.ensure(Variant::Impasse).expect("a build starts");
        assert!(line.contains("≤3-piece impasse"), "{line}");
        assert_eq!(auto.ensure(Variant::Impasse), None, "asked once only");
        let (status, ok) = auto.wait_until(ready, WAIT);
        assert!(ok, "{status:?}");
        assert!(
            matches!(status, Status::Ready { variant: Variant::Impasse, built, .. } if built > 0)
        );
        assert_eq!(status.line(3), "databases ready (impasse ≤3)");
        assert_eq!(
            tables.max_pieces(Variant::Impasse),
            3,
            "the engine's handle sees them"
        );
        assert!(AutoBuild::is_complete(dir.path(), Variant::Impasse, 3));
        assert_eq!(*seen.lock().unwrap(), ["building", "ready"]);
    }

    #[test]
    fn a_complete_directory_builds_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let opts = crown_egdb::BuildOptions {
            variant: Variant::American,
            pieces: 2,
            dir: dir.path().to_path_buf(),
            threads: Some(1),
        };
        crown_egdb::build(&opts, &()).unwrap();
        let auto = AutoBuild::start(dir.path().to_path_buf(), 2, None, None).unwrap();
        assert_eq!(auto.ensure(Variant::American), None);
        assert_eq!(auto.status(), Status::Idle);
        assert!(auto.finished().is_empty());
    }

    #[test]
    fn a_held_lock_makes_the_builder_wait_and_two_builders_build_once() {
        let dir = tempfile::tempdir().unwrap();
        let held = crown_egdb::BuildLock::acquire(dir.path()).unwrap();
        let a = AutoBuild::start(dir.path().to_path_buf(), 3, None, None).unwrap();
        let b = AutoBuild::start(dir.path().to_path_buf(), 3, None, None).unwrap();
        assert!(a.ensure(Variant::Pool).is_some());
        let (status, ok) = a.wait_until(|s| matches!(s, Status::Waiting { .. }), WAIT);
        assert!(ok, "{status:?}");
        assert_eq!(
            status.line(3),
            "databases (pool ≤3): waiting for another build"
        );
        assert!(b.ensure(Variant::Pool).is_some());
        let (status, ok) = b.wait_until(|s| matches!(s, Status::Waiting { .. }), WAIT);
        assert!(ok, "{status:?}");
        drop(held);
        assert!(a.wait_until(ready, WAIT).1);
        assert!(b.wait_until(ready, WAIT).1);
        let built: Vec<usize> = [&a, &b]
            .iter()
            .flat_map(|x| x.finished())
            .map(|(_, n)| n)
            .collect();
        assert_eq!(built.len(), 2);
        assert!(
            built.contains(&0) && built.iter().any(|&n| n > 0),
            "one builder built, the other kept its files: {built:?}"
        );
        assert_eq!(a.tables().max_pieces(Variant::Pool), 3);
        assert_eq!(b.tables().max_pieces(Variant::Pool), 3);
    }
}
