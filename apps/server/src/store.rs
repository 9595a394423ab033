//! Durable storage of games behind the [`Store`] trait, with SQLite ([`SqliteStore`]) as the embedded
//! default.
//!
//! A game is one row (variant, start FEN, status, seats, clocks, pending offers, declared result) plus
//! one row per move. Every change is written atomically by [`Store::save`]; the server
//! acknowledges a move only after `save` returned, so a `kill -9` loses no acknowledged move.
//!
//! [`SqliteStore`] writes through one writer thread that **group-commits**: the writes waiting when
//! it becomes free go into one transaction (each in its own savepoint, so one failing write does
//! not undo the others), and the single commit's fsync is shared. Every caller still returns only
//! after the commit that holds its write. Reads use a small pool of separate connections (WAL lets
//! them run while the writer writes).
//! Each row carries a `version` used for optimistic concurrency: a save based on a stale version
//! fails with [`StoreError::Conflict`] (this is what lets several server instances share one
//! database, see docs/scaling.md).

use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Why a storage operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database reported an error (I/O, corruption, locked, ...).
    #[error("database error: {0}")]
    Database(#[from] rusqlite::Error),
    /// A stored game's JSON column could not be read.
    #[error("stored game '{id}' is unreadable: {reason}")]
    Corrupt {
        /// The game id.
        id: String,
        /// What is wrong.
        reason: String,
    },
    /// The game was changed by someone else since it was loaded (its version moved on).
    #[error("game '{0}' was changed concurrently")]
    Conflict(String),
    /// The game does not exist.
    #[error("no game '{0}'")]
    NotFound(String),
    /// The transaction holding this write could not be committed (nothing of it was written).
    #[error("commit failed: {0}")]
    Commit(String),
    /// PostgreSQL reported an error (connection, SQL, ...).
    #[error("PostgreSQL error: {0}")]
    Postgres(String),
    /// The store's writer thread has stopped.
    #[error("the database writer has stopped")]
    Closed,
}

/// Who sits in a seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Seat {
    /// A person identified by a secret token; `token_sha256` is `None` while the seat is open.
    Human {
        /// SHA-256 (hex) of the seat's secret token, `None` until someone joins. Only the hash is
        /// stored, so a copy of the database does not reveal the tokens.
        token_sha256: Option<String>,
    },
    /// The server's engine at a casual level 1..=10.
    Engine {
        /// Playing level 1..=10.
        level: u8,
    },
}

/// A time control: `initial_ms` on each clock, `increment_ms` added after each move (Fischer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeControl {
    /// Starting time on each clock, in ms.
    pub initial_ms: u64,
    /// Time added to a player's clock after each of their moves, in ms.
    pub increment_ms: u64,
}

/// A result set by the players or the clock rather than by the board (the board's results are
/// recomputed by replaying the moves).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Declared {
    /// `color` (`black`/`white`) resigned.
    Resigned {
        /// Who resigned.
        color: Side,
    },
    /// `color` ran out of time.
    Timeout {
        /// Whose flag fell.
        color: Side,
    },
    /// Both players agreed to a draw.
    AgreedDraw,
    /// The game ended before anyone joined it: withdrawn by its creator (`expired: false`) or
    /// expired because nobody joined in time (`expired: true`). No result; status `finished`.
    Cancelled {
        /// Whether the server expired it (rather than the creator cancelling it).
        expired: bool,
    },
}

/// A colour as stored: `"black"` or `"white"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// Black.
    Black,
    /// White.
    White,
}

impl From<crown_core::Color> for Side {
    fn from(c: crown_core::Color) -> Self {
        match c {
            crown_core::Color::Black => Side::Black,
            crown_core::Color::White => Side::White,
        }
    }
}

impl From<Side> for crown_core::Color {
    fn from(c: Side) -> Self {
        match c {
            Side::Black => crown_core::Color::Black,
            Side::White => crown_core::Color::White,
        }
    }
}

/// One stored move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// The move in Crown notation as written by `Position::move_text` (full path when ambiguous),
    /// which `Position::parse_move` reads back.
    pub text: String,
    /// When it was played, ms since the Unix epoch.
    pub at_ms: u64,
}

/// Everything about a game except its moves, stored as JSON in the game's row.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameMeta {
    /// Black's seat.
    pub black: Seat,
    /// White's seat.
    pub white: Seat,
    /// The time control, `None` for untimed games.
    pub time_control: Option<TimeControl>,
    /// Remaining time in ms: `[black, white]`. For the side to move this is the time left when
    /// its turn started at `turn_started_ms`.
    pub clock_ms: [u64; 2],
    /// When the current turn started (ms since the Unix epoch); 0 while the clock is not running
    /// (open seat or game over).
    pub turn_started_ms: u64,
    /// Result declared by resignation, agreement or time.
    pub declared: Option<Declared>,
    /// The colour with a standing draw offer.
    pub draw_offer: Option<Side>,
    /// The colour that asked to take back its last move.
    pub takeback_request: Option<Side>,
    /// A public seek (listed while open) rather than a private, link-only game. Absent in games
    /// stored before this field existed: private.
    #[serde(default)]
    pub public: bool,
    /// The players' names as they gave them (at most 40 characters each; absent: unnamed).
    #[serde(default, skip_serializing_if = "PlayerNames::is_empty")]
    pub names: PlayerNames,
    /// The rematch offered after this game ended, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rematch: Option<Rematch>,
}

/// The names players gave for their seats (display only; never used to identify anyone).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerNames {
    /// Black's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub black: Option<String>,
    /// White's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub white: Option<String>,
}

impl PlayerNames {
    /// Whether neither seat has a name.
    pub fn is_empty(&self) -> bool {
        self.black.is_none() && self.white.is_none()
    }

    /// The name of `color`'s seat.
    pub fn get(&self, color: crown_core::Color) -> Option<&str> {
        match color {
            crown_core::Color::Black => self.black.as_deref(),
            crown_core::Color::White => self.white.as_deref(),
        }
    }

    /// Set the name of `color`'s seat.
    pub fn set(&mut self, color: crown_core::Color, name: Option<String>) {
        match color {
            crown_core::Color::Black => self.black = name,
            crown_core::Color::White => self.white = name,
        }
    }
}

/// A rematch of a finished game: the new game's id and who asked for it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rematch {
    /// Id of the new game (colours swapped).
    pub id: String,
    /// The colour (in the finished game) that asked for the rematch.
    pub by: Side,
}

/// A whole stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// Public id (also the link to join or watch).
    pub id: String,
    /// Variant id (`american`, `pool`, `impasse`).
    pub variant: String,
    /// Start position in PDN FEN.
    pub start_fen: String,
    /// `open` (a seat waits for a player), `ongoing` or `finished`.
    pub status: String,
    /// PDN result (`1-0`, `0-1`, `1/2-1/2`) once finished.
    pub result: Option<String>,
    /// Seats, clocks, offers.
    pub meta: GameMeta,
    /// The moves played.
    pub moves: Vec<MoveRecord>,
    /// Creation time, ms since the Unix epoch.
    pub created_ms: u64,
    /// Last change, ms since the Unix epoch.
    pub updated_ms: u64,
    /// Optimistic-concurrency version, incremented by each save.
    pub version: u64,
}

/// A row of the game list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameSummary {
    /// Game id.
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// `open`, `ongoing` or `finished`.
    pub status: String,
    /// PDN result once finished.
    pub result: Option<String>,
    /// Plies played.
    pub plies: u64,
    /// Creation time, ms since the Unix epoch.
    pub created_ms: u64,
    /// Last change, ms since the Unix epoch.
    pub updated_ms: u64,
}

/// Durable game storage. Implementations must make each call atomic and durable before returning.
pub trait Store: Send + Sync + 'static {
    /// Insert a new game (with its moves).
    ///
    /// # Errors
    /// [`StoreError::Database`] on failure (including a duplicate id).
    fn create(&self, rec: &GameRecord) -> Result<(), StoreError>;

    /// Write a changed game in one transaction: the row, moves with ply `>= keep_plies` replaced by
    /// `rec.moves[keep_plies..]`. `rec.version` must be the stored version; on success it is the
    /// new one.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the stored version differs, [`StoreError::Database`] on failure;
    /// nothing is written then.
    fn save(&self, rec: &mut GameRecord, keep_plies: usize) -> Result<(), StoreError>;

    /// Load a game with its moves; `Ok(None)` if there is none with this id.
    ///
    /// # Errors
    /// [`StoreError::Database`] or [`StoreError::Corrupt`].
    fn load(&self, id: &str) -> Result<Option<GameRecord>, StoreError>;

    /// The newest games (by last change), optionally only those with `status`, at most `limit`.
    /// Private games (`meta.public == false`) are left out while their seat is open: their link is
    /// the invitation.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    fn list(&self, status: Option<&str>, limit: usize) -> Result<Vec<GameSummary>, StoreError>;

    /// Ids of all games not finished.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    fn unfinished(&self) -> Result<Vec<String>, StoreError>;

    /// Record that the server is alive at `now_ms` (used to stop clocks during downtime).
    ///
    /// # Errors
    /// [`StoreError::Database`].
    fn heartbeat(&self, now_ms: u64) -> Result<(), StoreError>;

    /// The last heartbeat written, if any.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    fn last_heartbeat(&self) -> Result<Option<u64>, StoreError>;

    /// Every game not finished, with its moves, read as one consistent snapshot (at start-up).
    /// The default loads them one by one.
    ///
    /// # Errors
    /// [`StoreError::Database`] or [`StoreError::Corrupt`].
    fn load_unfinished(&self) -> Result<Vec<GameRecord>, StoreError> {
        let mut out = Vec::new();
        for id in self.unfinished()? {
            if let Some(rec) = self.load(&id)? {
                out.push(rec);
            }
        }
        Ok(out)
    }

    /// Whether several server instances may share this store (PostgreSQL): then the server
    /// checks versions before trusting its memory, listens to [`Store::changes`] and takes
    /// per-game leases before running clocks and the engine. `false` (the default) for a store
    /// owned by one process (SQLite).
    fn shared(&self) -> bool {
        false
    }

    /// The stored version of game `id`, `None` if there is none. The default loads the game.
    ///
    /// # Errors
    /// As [`Store::load`].
    fn version(&self, id: &str) -> Result<Option<u64>, StoreError> {
        Ok(self.load(id)?.map(|r| r.version))
    }

    /// The stream of committed changes made by any instance (game id and new version), taken once
    /// by the server at start-up; `None` for a store without cross-instance notifications (the
    /// default). A [`Change`] with an empty id means notifications may have been lost (the
    /// listener reconnected): every cached game must be checked.
    fn changes(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Change>> {
        None
    }

    /// While the change listener is connected and listening, its generation (at least 1; a new
    /// one after each reconnection); `None` while it is not, and for a store without
    /// notifications (the default). A copy of a game read or checked under generation `g` has
    /// seen every change since, as long as this still answers `Some(g)` and the notifications
    /// received have been applied (docs/scaling.md, "Version checks").
    fn listening(&self) -> Option<u64> {
        None
    }

    /// Take the lease of the new game `id` for instance `owner` until `until_ms` (ms since the
    /// epoch) unless another instance holds it; returns whether `owner` took it. The default (a
    /// store owned by one process) takes nothing.
    ///
    /// # Errors
    /// [`StoreError::Postgres`] and the like.
    fn claim_lease(&self, _id: &str, _owner: &str, _until_ms: u64) -> Result<bool, StoreError> {
        Ok(false)
    }

    /// One lease round for instance `owner` at `now_ms`: drop the leases of finished games, extend
    /// `owner`'s unexpired leases to `now_ms + ttl_ms`, take over every expired lease and every
    /// unfinished game created more than `ttl_ms` ago without one (a newer one is left to the
    /// instance that created it, see [`Store::claim_lease`]). Returns what `owner` holds now. The default (a store owned by
    /// one process) holds nothing.
    ///
    /// # Errors
    /// [`StoreError::Postgres`] and the like; no lease changed then.
    fn lease_round(&self, _owner: &str, _now_ms: u64, _ttl_ms: u64) -> Result<Leases, StoreError> {
        Ok(Leases::default())
    }

    /// Save several changed games whose moves are unchanged (`keep_plies` = all), in one
    /// transaction where the store can. The default saves them one by one.
    ///
    /// # Errors
    /// As [`Store::save`]; with the default, the games before the failing one stay saved.
    fn save_rows(&self, recs: &mut [GameRecord]) -> Result<(), StoreError> {
        for rec in recs {
            let keep = rec.moves.len();
            self.save(rec, keep)?;
        }
        Ok(())
    }

    /// Store chat message `msg` of game `game_id` and give it the next number of that game's
    /// chat (1, 2, ...; `msg.n` is ignored). Returns the number, or `None` for a store that keeps
    /// no chat (the default: the server then numbers and keeps the messages in memory only).
    /// A store shared by several instances announces each message on [`Store::chat_changes`].
    ///
    /// # Errors
    /// [`StoreError::Database`], [`StoreError::Postgres`] and the like; nothing is stored then.
    fn add_chat(&self, _game_id: &str, _msg: &ChatRecord) -> Result<Option<u64>, StoreError> {
        Ok(None)
    }

    /// The chat of game `game_id`: the last `limit` messages numbered above `after`, oldest
    /// first (none from a store that keeps no chat, the default).
    ///
    /// # Errors
    /// [`StoreError::Database`], [`StoreError::Postgres`] and the like.
    fn load_chat(
        &self,
        _game_id: &str,
        _after: u64,
        _limit: usize,
    ) -> Result<Vec<ChatRecord>, StoreError> {
        Ok(Vec::new())
    }

    /// The stream of chat messages stored by any instance (game id and the message's number in
    /// [`Change::version`]), taken once by the server at start-up; `None` for a store without
    /// cross-instance notifications (the default). An empty id: notifications may have been lost.
    fn chat_changes(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Change>> {
        None
    }
}

/// One stored chat message of a game (docs/api.md, chat).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatRecord {
    /// Number of the message in its game (1, 2, ...), given by [`Store::add_chat`].
    pub n: u64,
    /// The writer's seat.
    pub color: Side,
    /// The writer's name when the seat had one.
    pub name: Option<String>,
    /// The text, plain (1..=200 characters, no control characters).
    pub text: String,
    /// When it was sent, ms since the Unix epoch.
    pub at_ms: u64,
}

impl Side {
    /// `"black"` or `"white"`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Black => "black",
            Side::White => "white",
        }
    }

    /// The colour named `s` (`"black"`/`"white"`), `None` otherwise.
    pub fn parse(s: &str) -> Option<Side> {
        match s {
            "black" => Some(Side::Black),
            "white" => Some(Side::White),
            _ => None,
        }
    }
}

/// A committed change announced to every instance sharing the store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The game id; empty: anything may have changed (notifications were lost).
    pub id: String,
    /// The game's version after the change.
    pub version: u64,
    /// What the change wrote, when the notification could carry it: a copy of the game at
    /// `version - 1` becomes the game at `version` by [`ChangeState::apply_to`] without reading
    /// the store. `None`: reload the game (the state did not fit in a notification).
    pub state: Option<Box<ChangeState>>,
}

/// The columns and moves one [`Store::save`] wrote: enough to bring a copy of the game at the
/// previous version up to date.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangeState {
    /// Moves with a ply below this were kept; the others were replaced by `moves`.
    pub keep_plies: usize,
    /// The moves from ply `keep_plies` on.
    pub moves: Vec<MoveRecord>,
    /// The new status (`open`, `ongoing`, `finished`).
    pub status: String,
    /// The new PDN result, if any.
    pub result: Option<String>,
    /// The new seats, clocks and offers.
    pub meta: GameMeta,
    /// When the change was made, ms since the Unix epoch.
    pub updated_ms: u64,
}

impl ChangeState {
    /// What a save of `rec` from ply `keep_plies` on writes.
    pub fn of(rec: &GameRecord, keep_plies: usize) -> ChangeState {
        ChangeState {
            keep_plies,
            moves: rec.moves.get(keep_plies..).unwrap_or_default().to_vec(),
            status: rec.status.clone(),
            result: rec.result.clone(),
            meta: rec.meta.clone(),
            updated_ms: rec.updated_ms,
        }
    }

    /// `rec` (the game at `version - 1`) with this change applied, at `version`; `None` if `rec`
    /// has fewer than `keep_plies` moves (it is not the game this change was made to).
    pub fn apply_to(&self, rec: &GameRecord, version: u64) -> Option<GameRecord> {
        let mut moves = rec.moves.get(..self.keep_plies)?.to_vec();
        moves.extend(self.moves.iter().cloned());
        Some(GameRecord {
            id: rec.id.clone(),
            variant: rec.variant.clone(),
            start_fen: rec.start_fen.clone(),
            status: self.status.clone(),
            result: self.result.clone(),
            meta: self.meta.clone(),
            moves,
            created_ms: rec.created_ms,
            updated_ms: self.updated_ms,
            version,
        })
    }
}

/// The per-game leases an instance holds after [`Store::lease_round`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Leases {
    /// Games whose lease the instance already held and extended.
    pub renewed: Vec<String>,
    /// Games taken over from an expired lease, with the instant (ms since the epoch) that lease
    /// expired: the time since then is nobody's clock time (see docs/scaling.md).
    pub taken_over: Vec<(String, u64)>,
    /// Unfinished games that had no lease at all (e.g. created before leases existed), now held.
    pub new: Vec<String>,
}

/// How hard SQLite syncs a commit to disk.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Durability {
    /// `synchronous=FULL`: each commit is fsynced; survives power loss.
    Full,
    /// `synchronous=NORMAL` (WAL): survives a process crash (`kill -9`), may lose the last commits
    /// on power loss; faster.
    Normal,
}

/// A write run by the writer thread inside the current batch's transaction.
type WriteOp = Box<dyn FnOnce(&Connection) -> Result<(), StoreError> + Send>;

/// A read run on the writer's connection (in-memory databases, which other connections cannot see).
type ReadOp = Box<dyn FnOnce(&Connection) + Send>;

enum Job {
    Write(WriteOp, std::sync::mpsc::SyncSender<Result<(), StoreError>>),
    Read(ReadOp),
}

/// Most writes committed in one transaction.
const MAX_BATCH: usize = 512;

/// Reader connections kept open for reuse.
const READ_POOL: usize = 8;

/// SQLite storage in WAL mode: one writer thread group-committing the writes that queue up while
/// it is busy, and a pool of reader connections.
pub struct SqliteStore {
    jobs: std::sync::mpsc::Sender<Job>,
    /// Where reader connections are opened; `None` for an in-memory database (reads then go to
    /// the writer's connection).
    path: Option<std::path::PathBuf>,
    readers: Mutex<Vec<Connection>>,
    stats: Arc<WriterStats>,
}

/// Counters of the writer thread.
#[derive(Debug, Default)]
pub struct WriterStats {
    /// Transactions committed.
    pub commits: AtomicU64,
    /// Writes committed.
    pub writes: AtomicU64,
    /// Writes waiting for the writer.
    pub queued: AtomicU64,
    /// Writes in the transaction being written now.
    pub in_batch: AtomicU64,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    meta TEXT NOT NULL,
    plies INTEGER NOT NULL,
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL,
    version INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS games_status_updated ON games(status, updated_ms);
CREATE INDEX IF NOT EXISTS games_updated ON games(updated_ms);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL,
    ply INTEGER NOT NULL,
    text TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS server_meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS chat (
    game_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    color TEXT NOT NULL,
    name TEXT,
    text TEXT NOT NULL,
    at_ms INTEGER NOT NULL,
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID;
";

impl SqliteStore {
    /// Open (creating if needed) the database file at `path` in WAL mode.
    ///
    /// # Errors
    /// [`StoreError::Database`] if the file cannot be opened or the schema created.
    pub fn open(path: &Path, durability: Durability) -> Result<SqliteStore, StoreError> {
        let conn = Connection::open(path)?;
        Self::init(conn, durability, Some(path.to_path_buf()))
    }

    /// A private in-memory database (tests).
    ///
    /// # Errors
    /// [`StoreError::Database`] if the schema cannot be created.
    pub fn open_in_memory() -> Result<SqliteStore, StoreError> {
        Self::init(Connection::open_in_memory()?, Durability::Normal, None)
    }

    fn init(
        conn: Connection,
        durability: Durability,
        path: Option<std::path::PathBuf>,
    ) -> Result<SqliteStore, StoreError> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        let sync = match durability {
            Durability::Full => "FULL",
            Durability::Normal => "NORMAL",
        };
        conn.pragma_update(None, "synchronous", sync)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(SCHEMA)?;
        let (tx, rx) = std::sync::mpsc::channel::<Job>();
        let stats = Arc::new(WriterStats::default());
        let st = stats.clone();
        std::thread::Builder::new()
            .name("crown-db-writer".into())
            .spawn(move || writer_loop(conn, rx, st))
            .map_err(|e| StoreError::Commit(format!("cannot start the writer thread: {e}")))?;
        Ok(SqliteStore {
            jobs: tx,
            path,
            readers: Mutex::new(Vec::new()),
            stats,
        })
    }

    /// The writer thread's counters (transactions, writes, queue length).
    pub fn stats(&self) -> &WriterStats {
        &self.stats
    }

    /// Run `op` in the writer's next transaction and wait for that transaction's commit.
    fn write(
        &self,
        op: impl FnOnce(&Connection) -> Result<(), StoreError> + Send + 'static,
    ) -> Result<(), StoreError> {
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        self.stats.queued.fetch_add(1, Ordering::SeqCst);
        if self.jobs.send(Job::Write(Box::new(op), tx)).is_err() {
            self.stats.queued.fetch_sub(1, Ordering::SeqCst);
            return Err(StoreError::Closed);
        }
        rx.recv().unwrap_or(Err(StoreError::Closed))
    }

    /// Run `op` on a reader connection (or, in memory, on the writer's).
    fn read<T: Send + 'static>(
        &self,
        op: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, StoreError> {
        let Some(path) = &self.path else {
            let (tx, rx) = std::sync::mpsc::sync_channel(1);
            let job: ReadOp = Box::new(move |c| {
                let _ = tx.send(op(c));
            });
            self.jobs
                .send(Job::Read(job))
                .map_err(|_| StoreError::Closed)?;
            return rx.recv().unwrap_or(Err(StoreError::Closed));
        };
        let pooled = self.readers.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let conn = match pooled {
            Some(c) => c,
            None => {
                let c = Connection::open_with_flags(
                    path,
                    rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY
                        | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
                )?;
                c.busy_timeout(std::time::Duration::from_secs(5))?;
                c
            }
        };
        let r = op(&conn);
        let mut pool = self.readers.lock().unwrap_or_else(|e| e.into_inner());
        if pool.len() < READ_POOL {
            pool.push(conn);
        }
        r
    }
}

/// The writer thread: take one job, then every job already waiting (up to [`MAX_BATCH`]), run the
/// writes in one transaction (a savepoint each), commit once, then answer every writer.
fn writer_loop(mut conn: Connection, rx: std::sync::mpsc::Receiver<Job>, stats: Arc<WriterStats>) {
    while let Ok(first) = rx.recv() {
        let mut writes = Vec::new();
        let mut next = Some(first);
        while let Some(job) = next.take() {
            match job {
                Job::Read(op) => op(&conn),
                Job::Write(op, reply) => writes.push((op, reply)),
            }
            if writes.len() < MAX_BATCH {
                next = rx.try_recv().ok();
            }
        }
        if writes.is_empty() {
            continue;
        }
        stats.in_batch.store(writes.len() as u64, Ordering::SeqCst);
        stats
            .queued
            .fetch_sub(writes.len() as u64, Ordering::SeqCst);
        let mut results = Vec::with_capacity(writes.len());
        let mut replies = Vec::with_capacity(writes.len());
        let outcome = (|| -> Result<(), rusqlite::Error> {
            let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            for (op, reply) in writes.drain(..) {
                tx.execute_batch("SAVEPOINT w")?;
                let r = op(&tx);
                if r.is_err() {
                    tx.execute_batch("ROLLBACK TO w")?;
                }
                tx.execute_batch("RELEASE w")?;
                results.push(r);
                replies.push(reply);
            }
            tx.commit()
        })();
        stats.in_batch.store(0, Ordering::SeqCst);
        match outcome {
            Ok(()) => {
                stats.commits.fetch_add(1, Ordering::SeqCst);
                stats.writes.fetch_add(
                    results.iter().filter(|r| r.is_ok()).count() as u64,
                    Ordering::SeqCst,
                );
                for (r, reply) in results.into_iter().zip(replies) {
                    let _ = reply.send(r);
                }
            }
            Err(e) => {
                let msg = e.to_string();
                // Writers whose op never ran (the transaction failed before them) are answered
                // too: `writes` holds them.
                for reply in replies
                    .into_iter()
                    .chain(writes.into_iter().map(|(_, r)| r))
                {
                    let _ = reply.send(Err(StoreError::Commit(msg.clone())));
                }
            }
        }
    }
}

fn meta_json(rec: &GameRecord) -> String {
    serde_json::to_string(&rec.meta).unwrap_or_else(|_| "{}".into())
}

fn insert_moves(tx: &Connection, rec: &GameRecord, from: usize) -> Result<(), StoreError> {
    let mut stmt =
        tx.prepare_cached("INSERT INTO moves (game_id, ply, text, at_ms) VALUES (?1, ?2, ?3, ?4)")?;
    for (ply, m) in rec.moves.iter().enumerate().skip(from) {
        stmt.execute(params![rec.id, ply as i64, m.text, m.at_ms as i64])?;
    }
    Ok(())
}

/// The columns of a game row written by a save: everything but the moves.
struct RowUpdate {
    id: String,
    status: String,
    result: Option<String>,
    meta: String,
    plies: i64,
    updated_ms: i64,
    version: i64,
}

impl RowUpdate {
    fn of(rec: &GameRecord) -> RowUpdate {
        RowUpdate {
            id: rec.id.clone(),
            status: rec.status.clone(),
            result: rec.result.clone(),
            meta: meta_json(rec),
            plies: rec.moves.len() as i64,
            updated_ms: rec.updated_ms as i64,
            version: rec.version as i64,
        }
    }

    fn apply(&self, c: &Connection) -> Result<(), StoreError> {
        let changed = c.execute(
            "UPDATE games SET status = ?2, result = ?3, meta = ?4, plies = ?5, updated_ms = ?6,
                 version = version + 1
             WHERE id = ?1 AND version = ?7",
            params![
                self.id,
                self.status,
                self.result,
                self.meta,
                self.plies,
                self.updated_ms,
                self.version
            ],
        )?;
        if changed != 1 {
            return Err(StoreError::Conflict(self.id.clone()));
        }
        Ok(())
    }
}

fn load_with(conn: &Connection, id: &str) -> Result<Option<GameRecord>, StoreError> {
    let row = conn
        .query_row(
            "SELECT variant, start_fen, status, result, meta, created_ms, updated_ms, version
             FROM games WHERE id = ?1",
            params![id],
            |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, Option<String>>(3)?,
                    r.get::<_, String>(4)?,
                    r.get::<_, i64>(5)?,
                    r.get::<_, i64>(6)?,
                    r.get::<_, i64>(7)?,
                ))
            },
        )
        .optional()?;
    let Some((variant, start_fen, status, result, meta, created, updated, version)) = row else {
        return Ok(None);
    };
    let meta: GameMeta = serde_json::from_str(&meta).map_err(|e| StoreError::Corrupt {
        id: id.to_string(),
        reason: e.to_string(),
    })?;
    let mut stmt =
        conn.prepare_cached("SELECT text, at_ms FROM moves WHERE game_id = ?1 ORDER BY ply")?;
    let moves = stmt
        .query_map(params![id], |r| {
            Ok(MoveRecord {
                text: r.get(0)?,
                at_ms: r.get::<_, i64>(1)? as u64,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Some(GameRecord {
        id: id.to_string(),
        variant,
        start_fen,
        status,
        result,
        meta,
        moves,
        created_ms: created as u64,
        updated_ms: updated as u64,
        version: version as u64,
    }))
}

fn load_unfinished_with(conn: &Connection) -> Result<Vec<GameRecord>, StoreError> {
    // One read transaction: a consistent snapshot, and one pass over each table.
    conn.execute_batch("BEGIN")?;
    let r = (|| {
        let mut out: Vec<GameRecord> = Vec::new();
        let mut index = std::collections::HashMap::new();
        {
            let mut stmt = conn.prepare(
                "SELECT id, variant, start_fen, status, result, meta, created_ms, updated_ms, version
                 FROM games WHERE status != 'finished'",
            )?;
            let mut rows = stmt.query([])?;
            while let Some(r) = rows.next()? {
                let id: String = r.get(0)?;
                let meta: String = r.get(5)?;
                let meta: GameMeta =
                    serde_json::from_str(&meta).map_err(|e| StoreError::Corrupt {
                        id: id.clone(),
                        reason: e.to_string(),
                    })?;
                index.insert(id.clone(), out.len());
                out.push(GameRecord {
                    id,
                    variant: r.get(1)?,
                    start_fen: r.get(2)?,
                    status: r.get(3)?,
                    result: r.get(4)?,
                    meta,
                    moves: Vec::new(),
                    created_ms: r.get::<_, i64>(6)? as u64,
                    updated_ms: r.get::<_, i64>(7)? as u64,
                    version: r.get::<_, i64>(8)? as u64,
                });
            }
        }
        let mut stmt = conn.prepare(
            "SELECT m.game_id, m.text, m.at_ms FROM moves m JOIN games g ON g.id = m.game_id
             WHERE g.status != 'finished' ORDER BY m.game_id, m.ply",
        )?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let id: String = r.get(0)?;
            if let Some(&i) = index.get(&id) {
                out[i].moves.push(MoveRecord {
                    text: r.get(1)?,
                    at_ms: r.get::<_, i64>(2)? as u64,
                });
            }
        }
        Ok(out)
    })();
    let _ = conn.execute_batch("COMMIT");
    r
}

impl Store for SqliteStore {
    fn create(&self, rec: &GameRecord) -> Result<(), StoreError> {
        let rec = rec.clone();
        self.write(move |c| {
            c.execute(
                "INSERT INTO games (id, variant, start_fen, status, result, meta, plies, created_ms, updated_ms, version)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                params![
                    rec.id,
                    rec.variant,
                    rec.start_fen,
                    rec.status,
                    rec.result,
                    meta_json(&rec),
                    rec.moves.len() as i64,
                    rec.created_ms as i64,
                    rec.updated_ms as i64,
                    rec.version as i64
                ],
            )?;
            insert_moves(c, &rec, 0)
        })
    }

    fn save(&self, rec: &mut GameRecord, keep_plies: usize) -> Result<(), StoreError> {
        let row = RowUpdate::of(rec);
        let new_moves: Vec<(i64, String, i64)> = rec
            .moves
            .iter()
            .enumerate()
            .skip(keep_plies)
            .map(|(ply, m)| (ply as i64, m.text.clone(), m.at_ms as i64))
            .collect();
        self.write(move |c| {
            row.apply(c)?;
            c.execute(
                "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
                params![row.id, keep_plies as i64],
            )?;
            let mut stmt = c.prepare_cached(
                "INSERT INTO moves (game_id, ply, text, at_ms) VALUES (?1, ?2, ?3, ?4)",
            )?;
            for (ply, text, at) in &new_moves {
                stmt.execute(params![row.id, ply, text, at])?;
            }
            Ok(())
        })?;
        rec.version += 1;
        Ok(())
    }

    fn save_rows(&self, recs: &mut [GameRecord]) -> Result<(), StoreError> {
        let rows: Vec<RowUpdate> = recs.iter().map(RowUpdate::of).collect();
        self.write(move |c| rows.iter().try_for_each(|r| r.apply(c)))?;
        for rec in recs {
            rec.version += 1;
        }
        Ok(())
    }

    fn load(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        let id = id.to_string();
        self.read(move |c| load_with(c, &id))
    }

    fn load_unfinished(&self) -> Result<Vec<GameRecord>, StoreError> {
        self.read(load_unfinished_with)
    }

    fn list(&self, status: Option<&str>, limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        let status = status.map(str::to_string);
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id, variant, status, result, plies, created_ms, updated_ms FROM games
                 WHERE (?1 IS NULL OR status = ?1)
                   AND (status != 'open' OR json_extract(meta, '$.public') = 1)
                 ORDER BY updated_ms DESC, id LIMIT ?2",
            )?;
            let rows = stmt
                .query_map(params![status, limit as i64], |r| {
                    Ok(GameSummary {
                        id: r.get(0)?,
                        variant: r.get(1)?,
                        status: r.get(2)?,
                        result: r.get(3)?,
                        plies: r.get::<_, i64>(4)? as u64,
                        created_ms: r.get::<_, i64>(5)? as u64,
                        updated_ms: r.get::<_, i64>(6)? as u64,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
    }

    fn add_chat(&self, game_id: &str, msg: &ChatRecord) -> Result<Option<u64>, StoreError> {
        let (id, msg) = (game_id.to_string(), msg.clone());
        let n = Arc::new(AtomicU64::new(0));
        let n2 = n.clone();
        // One writer thread: the next number cannot be taken twice.
        self.write(move |c| {
            let next: i64 = c.query_row(
                "SELECT COALESCE(MAX(n), 0) + 1 FROM chat WHERE game_id = ?1",
                params![id],
                |r| r.get(0),
            )?;
            c.execute(
                "INSERT INTO chat (game_id, n, color, name, text, at_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![id, next, msg.color.name(), msg.name, msg.text, msg.at_ms as i64],
            )?;
            n2.store(next as u64, Ordering::SeqCst);
            Ok(())
        })?;
        Ok(Some(n.load(Ordering::SeqCst)))
    }

    fn load_chat(
        &self,
        game_id: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<ChatRecord>, StoreError> {
        let id = game_id.to_string();
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT n, color, name, text, at_ms FROM chat WHERE game_id = ?1 AND n > ?2
                 ORDER BY n DESC LIMIT ?3",
            )?;
            let mut out = stmt
                .query_map(params![id, after as i64, limit as i64], |r| {
                    Ok((
                        r.get::<_, i64>(0)?,
                        r.get::<_, String>(1)?,
                        r.get::<_, Option<String>>(2)?,
                        r.get::<_, String>(3)?,
                        r.get::<_, i64>(4)?,
                    ))
                })?
                .collect::<Result<Vec<_>, _>>()?
                .into_iter()
                .map(|(n, color, name, text, at)| {
                    Ok(ChatRecord {
                        n: n as u64,
                        color: Side::parse(&color).ok_or_else(|| StoreError::Corrupt {
                            id: id.clone(),
                            reason: format!("chat message {n} has the colour '{color}'"),
                        })?,
                        name,
                        text,
                        at_ms: at as u64,
                    })
                })
                .collect::<Result<Vec<_>, StoreError>>()?;
            out.reverse();
            Ok(out)
        })
    }

    fn unfinished(&self) -> Result<Vec<String>, StoreError> {
        self.read(|conn| {
            let mut stmt =
                conn.prepare_cached("SELECT id FROM games WHERE status != 'finished'")?;
            let ids = stmt
                .query_map([], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()?;
            Ok(ids)
        })
    }

    fn heartbeat(&self, now_ms: u64) -> Result<(), StoreError> {
        self.write(move |c| {
            c.execute(
                "INSERT INTO server_meta (key, value) VALUES ('heartbeat_ms', ?1)
                 ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                params![now_ms as i64],
            )?;
            Ok(())
        })
    }

    fn last_heartbeat(&self) -> Result<Option<u64>, StoreError> {
        self.read(|c| {
            Ok(c.query_row(
                "SELECT value FROM server_meta WHERE key = 'heartbeat_ms'",
                [],
                |r| r.get::<_, i64>(0),
            )
            .optional()?
            .map(|v| v as u64))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> GameRecord {
        GameRecord {
            id: "g1".into(),
            variant: "american".into(),
            start_fen: "B:W21-32:B1-12".into(),
            status: "ongoing".into(),
            result: None,
            meta: GameMeta {
                black: Seat::Human {
                    token_sha256: Some("a".into()),
                },
                white: Seat::Engine { level: 3 },
                time_control: Some(TimeControl {
                    initial_ms: 60_000,
                    increment_ms: 1_000,
                }),
                clock_ms: [60_000, 60_000],
                turn_started_ms: 5,
                declared: None,
                draw_offer: None,
                takeback_request: None,
                public: false,
                names: PlayerNames::default(),
                rematch: None,
            },
            moves: vec![],
            created_ms: 1,
            updated_ms: 1,
            version: 0,
        }
    }

    #[test]
    fn save_replaces_moves_from_keep_and_bumps_version() {
        let store = SqliteStore::open_in_memory().unwrap();
        let mut rec = record();
        store.create(&rec).unwrap();
        rec.moves.push(MoveRecord {
            text: "11-15".into(),
            at_ms: 2,
        });
        rec.moves.push(MoveRecord {
            text: "23-19".into(),
            at_ms: 3,
        });
        store.save(&mut rec, 0).unwrap();
        assert_eq!(rec.version, 1);
        // Take back one move.
        rec.moves.pop();
        store.save(&mut rec, 1).unwrap();
        let back = store.load("g1").unwrap().unwrap();
        assert_eq!(back, rec);
        assert_eq!(back.moves.len(), 1);
    }

    #[test]
    fn stale_version_is_a_conflict_and_writes_nothing() {
        let store = SqliteStore::open_in_memory().unwrap();
        let mut rec = record();
        store.create(&rec).unwrap();
        let mut stale = rec.clone();
        store.save(&mut rec, 0).unwrap();
        stale.status = "finished".into();
        assert!(matches!(
            store.save(&mut stale, 0),
            Err(StoreError::Conflict(_))
        ));
        assert_eq!(store.load("g1").unwrap().unwrap().status, "ongoing");
    }

    #[test]
    fn list_filters_by_status_and_heartbeat_round_trips() {
        let store = SqliteStore::open_in_memory().unwrap();
        let mut rec = record();
        store.create(&rec).unwrap();
        rec.id = "g2".into();
        rec.status = "finished".into();
        store.create(&rec).unwrap();
        assert_eq!(store.list(None, 10).unwrap().len(), 2);
        let fin = store.list(Some("finished"), 10).unwrap();
        assert_eq!(fin.len(), 1);
        assert_eq!(fin[0].id, "g2");
        assert_eq!(store.unfinished().unwrap(), vec!["g1".to_string()]);
        assert_eq!(store.last_heartbeat().unwrap(), None);
        store.heartbeat(42).unwrap();
        store.heartbeat(43).unwrap();
        assert_eq!(store.last_heartbeat().unwrap(), Some(43));
    }

    /// A second connection that holds the database's write lock until dropped (rolled back).
    fn lock_writes(path: &Path) -> Connection {
        let c = Connection::open(path).unwrap();
        c.execute_batch("BEGIN IMMEDIATE").unwrap();
        c
    }

    fn wait_until(what: &str, f: impl Fn() -> bool) {
        for _ in 0..2000 {
            if f() {
                return;
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        panic!("timed out waiting until {what}");
    }

    #[test]
    fn reads_do_not_wait_behind_a_write() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let store = Arc::new(SqliteStore::open(&path, Durability::Full).unwrap());
        let mut rec = record();
        store.create(&rec).unwrap();
        let lock = lock_writes(&path);
        let done = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (s2, d2) = (store.clone(), done.clone());
        let writer = std::thread::spawn(move || {
            rec.status = "finished".into();
            let r = s2.save(&mut rec, 0);
            d2.store(true, Ordering::SeqCst);
            r
        });
        wait_until("the save is with the writer", || {
            store.stats().in_batch.load(Ordering::SeqCst) == 1
        });
        // The write waits for the lock; a read answers meanwhile, from the last commit.
        let listed = store.list(None, 10).unwrap();
        assert!(
            !done.load(Ordering::SeqCst),
            "the read waited for the write"
        );
        assert_eq!(listed[0].status, "ongoing");
        drop(lock);
        writer.join().unwrap().unwrap();
        assert_eq!(store.load("g1").unwrap().unwrap().status, "finished");
    }

    #[test]
    fn writes_waiting_together_share_one_commit() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.db");
        let store = Arc::new(SqliteStore::open(&path, Durability::Full).unwrap());
        let n = 20;
        for i in 0..n {
            let mut rec = record();
            rec.id = format!("g{i}");
            store.create(&rec).unwrap();
        }
        let commits_before = store.stats().commits.load(Ordering::SeqCst);
        // Hold the lock so that the first write blocks the writer and the rest queue up.
        let lock = lock_writes(&path);
        let mut threads = Vec::new();
        for i in 0..n {
            let s2 = store.clone();
            threads.push(std::thread::spawn(move || {
                let mut rec = s2.load(&format!("g{i}")).unwrap().unwrap();
                rec.moves.push(MoveRecord {
                    text: "11-15".into(),
                    at_ms: 7,
                });
                // One stale write among them fails alone.
                if i == 3 {
                    rec.version += 5;
                }
                s2.save(&mut rec, 0)
            }));
        }
        let st = store.stats();
        wait_until("all writes are queued or with the writer", || {
            st.queued.load(Ordering::SeqCst) + st.in_batch.load(Ordering::SeqCst) == n as u64
        });
        drop(lock);
        for (i, t) in threads.into_iter().enumerate() {
            let r = t.join().unwrap();
            if i == 3 {
                assert!(matches!(r, Err(StoreError::Conflict(_))), "{r:?}");
            } else {
                r.unwrap();
            }
        }
        // Those the writer had taken when it met the lock, then all the others: at most two
        // transactions for twenty writes.
        let commits = store.stats().commits.load(Ordering::SeqCst) - commits_before;
        assert!((1..=2).contains(&commits), "{commits} commits");
        // Everything acknowledged is on disk, as a fresh connection sees it.
        let other = SqliteStore::open(&path, Durability::Full).unwrap();
        for i in 0..n {
            let rec = other.load(&format!("g{i}")).unwrap().unwrap();
            assert_eq!(rec.moves.len(), usize::from(i != 3), "game {i}");
        }
    }

    #[test]
    fn unfinished_games_load_in_one_snapshot_with_their_moves() {
        let store = SqliteStore::open_in_memory().unwrap();
        let mut a = record();
        a.moves = vec![
            MoveRecord {
                text: "11-15".into(),
                at_ms: 2,
            },
            MoveRecord {
                text: "23-19".into(),
                at_ms: 3,
            },
        ];
        store.create(&a).unwrap();
        let mut b = record();
        b.id = "g2".into();
        b.status = "finished".into();
        store.create(&b).unwrap();
        assert_eq!(store.load_unfinished().unwrap(), vec![a.clone()]);
        let mut recs = vec![a];
        recs[0].meta.turn_started_ms = 99;
        store.save_rows(&mut recs).unwrap();
        assert_eq!(store.load("g1").unwrap().unwrap(), recs[0]);
    }

    #[test]
    fn chat_is_numbered_per_game_and_read_back_in_order() {
        let store = SqliteStore::open_in_memory().unwrap();
        let msg = |color, text: &str| ChatRecord {
            n: 0,
            color,
            name: None,
            text: text.into(),
            at_ms: 7,
        };
        for i in 0..5 {
            let n = store
                .add_chat("g1", &msg(Side::Black, &format!("m{i}")))
                .unwrap();
            assert_eq!(n, Some(i + 1));
        }
        assert_eq!(
            store.add_chat("g2", &msg(Side::White, "other")).unwrap(),
            Some(1)
        );
        let texts = |v: Vec<ChatRecord>| v.into_iter().map(|m| m.text).collect::<Vec<_>>();
        assert_eq!(
            texts(store.load_chat("g1", 0, 100).unwrap()),
            ["m0", "m1", "m2", "m3", "m4"]
        );
        // The last `limit` above `after`, oldest first.
        assert_eq!(texts(store.load_chat("g1", 0, 2).unwrap()), ["m3", "m4"]);
        assert_eq!(texts(store.load_chat("g1", 3, 100).unwrap()), ["m3", "m4"]);
        let other = store.load_chat("g2", 0, 100).unwrap();
        assert_eq!(other[0].color, Side::White);
        assert!(store.load_chat("nope", 0, 100).unwrap().is_empty());
    }
}
