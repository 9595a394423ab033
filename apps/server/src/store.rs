//! Durable storage of games behind the [`Store`] trait, with SQLite ([`SqliteStore`]) as the embedded
//! default.
//!
//! A game is one row (variant, start FEN, status, seats, clocks, pending offers, declared result) plus
//! one row per move. Every change is written in one transaction by [`Store::save`]; the server
//! acknowledges a move only after `save` returned, so a `kill -9` loses no acknowledged move.
//! Each row carries a `version` used for optimistic concurrency: a save based on a stale version
//! fails with [`StoreError::Conflict`] (this is what lets several server instances share one
//! database, see docs/scaling.md).

use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Mutex;

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

/// SQLite storage in WAL mode, one connection behind a mutex.
pub struct SqliteStore {
    conn: Mutex<Connection>,
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
";

impl SqliteStore {
    /// Open (creating if needed) the database file at `path` in WAL mode.
    ///
    /// # Errors
    /// [`StoreError::Database`] if the file cannot be opened or the schema created.
    pub fn open(path: &Path, durability: Durability) -> Result<SqliteStore, StoreError> {
        let conn = Connection::open(path)?;
        Self::init(conn, durability)
    }

    /// A private in-memory database (tests).
    ///
    /// # Errors
    /// [`StoreError::Database`] if the schema cannot be created.
    pub fn open_in_memory() -> Result<SqliteStore, StoreError> {
        Self::init(Connection::open_in_memory()?, Durability::Normal)
    }

    fn init(conn: Connection, durability: Durability) -> Result<SqliteStore, StoreError> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        let sync = match durability {
            Durability::Full => "FULL",
            Durability::Normal => "NORMAL",
        };
        conn.pragma_update(None, "synchronous", sync)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(SCHEMA)?;
        Ok(SqliteStore {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> std::sync::MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave a half-written transaction (rusqlite rolls
        // back on drop), so a poisoned lock is safe to reuse.
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn meta_json(rec: &GameRecord) -> String {
    serde_json::to_string(&rec.meta).unwrap_or_else(|_| "{}".into())
}

fn insert_moves(
    tx: &rusqlite::Transaction<'_>,
    rec: &GameRecord,
    from: usize,
) -> Result<(), StoreError> {
    let mut stmt =
        tx.prepare_cached("INSERT INTO moves (game_id, ply, text, at_ms) VALUES (?1, ?2, ?3, ?4)")?;
    for (ply, m) in rec.moves.iter().enumerate().skip(from) {
        stmt.execute(params![rec.id, ply as i64, m.text, m.at_ms as i64])?;
    }
    Ok(())
}

impl Store for SqliteStore {
    fn create(&self, rec: &GameRecord) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        tx.execute(
            "INSERT INTO games (id, variant, start_fen, status, result, meta, plies, created_ms, updated_ms, version)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
            params![
                rec.id,
                rec.variant,
                rec.start_fen,
                rec.status,
                rec.result,
                meta_json(rec),
                rec.moves.len() as i64,
                rec.created_ms as i64,
                rec.updated_ms as i64,
                rec.version as i64
            ],
        )?;
        insert_moves(&tx, rec, 0)?;
        tx.commit()?;
        Ok(())
    }

    fn save(&self, rec: &mut GameRecord, keep_plies: usize) -> Result<(), StoreError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        let changed = tx.execute(
            "UPDATE games SET status = ?2, result = ?3, meta = ?4, plies = ?5, updated_ms = ?6,
                 version = version + 1
             WHERE id = ?1 AND version = ?7",
            params![
                rec.id,
                rec.status,
                rec.result,
                meta_json(rec),
                rec.moves.len() as i64,
                rec.updated_ms as i64,
                rec.version as i64
            ],
        )?;
        if changed != 1 {
            return Err(StoreError::Conflict(rec.id.clone()));
        }
        tx.execute(
            "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
            params![rec.id, keep_plies as i64],
        )?;
        insert_moves(&tx, rec, keep_plies)?;
        tx.commit()?;
        rec.version += 1;
        Ok(())
    }

    fn load(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        let conn = self.conn();
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
        let Some((variant, start_fen, status, result, meta, created, updated, version)) = row
        else {
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

    fn list(&self, status: Option<&str>, limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        let conn = self.conn();
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
    }

    fn unfinished(&self) -> Result<Vec<String>, StoreError> {
        let conn = self.conn();
        let mut stmt = conn.prepare_cached("SELECT id FROM games WHERE status != 'finished'")?;
        let ids = stmt
            .query_map([], |r| r.get(0))?
            .collect::<Result<Vec<String>, _>>()?;
        Ok(ids)
    }

    fn heartbeat(&self, now_ms: u64) -> Result<(), StoreError> {
        self.conn().execute(
            "INSERT INTO server_meta (key, value) VALUES ('heartbeat_ms', ?1)
             ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            params![now_ms as i64],
        )?;
        Ok(())
    }

    fn last_heartbeat(&self) -> Result<Option<u64>, StoreError> {
        Ok(self
            .conn()
            .query_row(
                "SELECT value FROM server_meta WHERE key = 'heartbeat_ms'",
                [],
                |r| r.get::<_, i64>(0),
            )
            .optional()?
            .map(|v| v as u64))
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
}
