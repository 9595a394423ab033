//! SQLite storage ([`SqliteStore`]): one writer thread group-committing, a pool of readers.
//!
//! The writer thread **group-commits**: the writes waiting when it becomes free go into one
//! transaction (each in its own savepoint, so one failing write does not undo the others), and the
//! single commit's fsync is shared. Every caller still returns only after the commit that holds its
//! write. Reads use a small pool of separate connections (WAL lets them run while the writer
//! writes).

use super::schema::{
    meta_json, move_rows, schema, summary, Dialect, GameRow, RowUpdate, GAME_COLUMNS,
    INSERT_COLUMNS, SUMMARY_COLUMNS,
};
use super::{
    AccountStore, ChatRecord, GameRecord, GameSummary, MoveRecord, SessionRecord, Side, Store,
    StoreError, UserRecord,
};
use rusqlite::{params, Connection, OptionalExtension};

mod ratings;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

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
        conn.execute_batch(&schema(Dialect::Sqlite))?;
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

/// Insert `rec`'s moves from ply `from` on.
fn insert_moves(c: &Connection, id: &str, moves: &[(i64, String, i64)]) -> Result<(), StoreError> {
    let mut stmt =
        c.prepare_cached("INSERT INTO moves (game_id, ply, text, at_ms) VALUES (?1, ?2, ?3, ?4)")?;
    for (ply, text, at) in moves {
        stmt.execute(params![id, ply, text, at])?;
    }
    Ok(())
}

/// Write `row` if the stored version is still `row.version` (and increment it).
///
/// # Errors
/// [`StoreError::Conflict`] if the version moved on.
fn update_row(c: &Connection, row: &RowUpdate) -> Result<(), StoreError> {
    let changed = c.execute(
        "UPDATE games SET status = ?2, result = ?3, meta = ?4, plies = ?5, updated_ms = ?6,
             version = version + 1
         WHERE id = ?1 AND version = ?7",
        params![
            row.id,
            row.status,
            row.result,
            row.meta,
            row.plies,
            row.updated_ms,
            row.version
        ],
    )?;
    if changed != 1 {
        return Err(StoreError::Conflict(row.id.clone()));
    }
    Ok(())
}

/// The [`GameRow`] in the columns of `r` from index `at` on ([`GAME_COLUMNS`]).
fn game_row(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        variant: r.get(at)?,
        start_fen: r.get(at + 1)?,
        status: r.get(at + 2)?,
        result: r.get(at + 3)?,
        meta: r.get(at + 4)?,
        created_ms: r.get(at + 5)?,
        updated_ms: r.get(at + 6)?,
        version: r.get(at + 7)?,
    })
}

fn load_with(conn: &Connection, id: &str) -> Result<Option<GameRecord>, StoreError> {
    let row = conn
        .query_row(
            &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"),
            params![id],
            |r| game_row(r, 0),
        )
        .optional()?;
    let Some(row) = row else {
        return Ok(None);
    };
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
    row.into_record(id.to_string(), moves).map(Some)
}

fn load_unfinished_with(conn: &Connection) -> Result<Vec<GameRecord>, StoreError> {
    // One read transaction: a consistent snapshot, and one pass over each table.
    conn.execute_batch("BEGIN")?;
    let r = (|| {
        let mut out: Vec<GameRecord> = Vec::new();
        let mut index = std::collections::HashMap::new();
        {
            let mut stmt = conn.prepare(&format!(
                "SELECT id, {GAME_COLUMNS} FROM games WHERE status NOT IN ('finished', 'aborted')"
            ))?;
            let mut rows = stmt.query([])?;
            while let Some(r) = rows.next()? {
                let id: String = r.get(0)?;
                index.insert(id.clone(), out.len());
                out.push(game_row(r, 1)?.into_record(id, Vec::new())?);
            }
        }
        let mut stmt = conn.prepare(
            "SELECT m.game_id, m.text, m.at_ms FROM moves m JOIN games g ON g.id = m.game_id
             WHERE g.status NOT IN ('finished', 'aborted') ORDER BY m.game_id, m.ply",
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
                &format!(
                    "INSERT INTO games ({INSERT_COLUMNS})
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
                ),
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
            insert_moves(c, &rec.id, &move_rows(&rec, 0))
        })
    }

    fn save(&self, rec: &mut GameRecord, keep_plies: usize) -> Result<(), StoreError> {
        let row = RowUpdate::of(rec);
        let new_moves = move_rows(rec, keep_plies);
        // A finished game with a linked seat is recorded (and rated) in the same savepoint.
        let finish = super::ratings::finish_of(rec).map(|_| rec.clone());
        let rated = Arc::new(Mutex::new(None));
        let r2 = rated.clone();
        self.write(move |c| {
            update_row(c, &row)?;
            c.execute(
                "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
                params![row.id, keep_plies as i64],
            )?;
            insert_moves(c, &row.id, &new_moves)?;
            if let Some(f) = &finish {
                *r2.lock().unwrap_or_else(|e| e.into_inner()) = ratings::record_finish(c, f)?;
            }
            Ok(())
        })?;
        rec.version += 1;
        if let Some(g) = rated.lock().unwrap_or_else(|e| e.into_inner()).take() {
            rec.meta.ratings = Some(g);
        }
        Ok(())
    }

    fn save_rows(&self, recs: &mut [GameRecord]) -> Result<(), StoreError> {
        let rows: Vec<RowUpdate> = recs.iter().map(RowUpdate::of).collect();
        self.write(move |c| rows.iter().try_for_each(|r| update_row(c, r)))?;
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
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT {SUMMARY_COLUMNS} FROM games
                 WHERE (?1 IS NULL OR status = ?1)
                   AND (json_extract(meta, '$.public') = 1 OR json_extract(meta, '$.rated') = 1)
                 ORDER BY updated_ms DESC, id LIMIT ?2"
            ))?;
            let rows = stmt
                .query_map(params![status, limit as i64], |r| {
                    Ok(summary(
                        (r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?),
                        [r.get(4)?, r.get(5)?, r.get(6)?],
                    ))
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
            let mut stmt = conn.prepare_cached(
                "SELECT id FROM games WHERE status NOT IN ('finished', 'aborted')",
            )?;
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

    fn accounts(&self) -> Option<&dyn AccountStore> {
        Some(self)
    }

    fn ratings(&self) -> Option<&dyn super::RatingStore> {
        Some(self)
    }
}

/// The columns of `users` read into a [`UserRecord`], in its field order.
const USER_COLUMNS: &str = "id, name, name_key, password_hash, created_ms";

/// The [`UserRecord`] in the columns of `r` ([`USER_COLUMNS`]).
fn user_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<UserRecord> {
    Ok(UserRecord {
        id: r.get(0)?,
        name: r.get(1)?,
        name_key: r.get(2)?,
        password_hash: r.get(3)?,
        created_ms: r.get::<_, i64>(4)? as u64,
    })
}

impl AccountStore for SqliteStore {
    fn create_user(&self, user: &UserRecord) -> Result<bool, StoreError> {
        let u = user.clone();
        let inserted = Arc::new(AtomicU64::new(0));
        let i2 = inserted.clone();
        self.write(move |c| {
            let n = c.execute(
                &format!(
                    "INSERT INTO users ({USER_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5)
                     ON CONFLICT(name_key) DO NOTHING"
                ),
                params![
                    u.id,
                    u.name,
                    u.name_key,
                    u.password_hash,
                    u.created_ms as i64
                ],
            )?;
            i2.store(n as u64, Ordering::SeqCst);
            Ok(())
        })?;
        Ok(inserted.load(Ordering::SeqCst) == 1)
    }

    fn user_by_name(&self, name_key: &str) -> Result<Option<UserRecord>, StoreError> {
        let key = name_key.to_string();
        self.read(move |c| {
            Ok(c.query_row(
                &format!("SELECT {USER_COLUMNS} FROM users WHERE name_key = ?1"),
                params![key],
                user_row,
            )
            .optional()?)
        })
    }

    fn create_session(&self, s: &SessionRecord) -> Result<(), StoreError> {
        let s = s.clone();
        self.write(move |c| {
            c.execute(
                "DELETE FROM sessions WHERE expires_ms <= ?1",
                params![s.created_ms as i64],
            )?;
            c.execute(
                "INSERT INTO sessions (token_hash, user_id, created_ms, expires_ms)
                 VALUES (?1, ?2, ?3, ?4)",
                params![
                    s.token_hash,
                    s.user_id,
                    s.created_ms as i64,
                    s.expires_ms as i64
                ],
            )?;
            Ok(())
        })
    }

    fn session_user(
        &self,
        token_hash: &str,
        now_ms: u64,
    ) -> Result<Option<UserRecord>, StoreError> {
        let h = token_hash.to_string();
        self.read(move |c| {
            Ok(c.query_row(
                "SELECT u.id, u.name, u.name_key, u.password_hash, u.created_ms
                 FROM sessions s JOIN users u ON u.id = s.user_id
                 WHERE s.token_hash = ?1 AND s.expires_ms > ?2",
                params![h, now_ms as i64],
                user_row,
            )
            .optional()?)
        })
    }

    fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        let h = token_hash.to_string();
        self.write(move |c| {
            c.execute("DELETE FROM sessions WHERE token_hash = ?1", params![h])?;
            Ok(())
        })
    }

    fn set_password(
        &self,
        user_id: &str,
        password_hash: &str,
        keep_token_hash: &str,
    ) -> Result<(), StoreError> {
        let (id, ph, keep) = (
            user_id.to_string(),
            password_hash.to_string(),
            keep_token_hash.to_string(),
        );
        self.write(move |c| {
            let n = c.execute(
                "UPDATE users SET password_hash = ?2 WHERE id = ?1",
                params![id, ph],
            )?;
            if n != 1 {
                return Err(StoreError::NotFound(id));
            }
            c.execute(
                "DELETE FROM sessions WHERE user_id = ?1 AND token_hash != ?2",
                params![id, keep],
            )?;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{GameMeta, PlayerNames, Seat, TimeControl};

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
                reserved: false,
                abort_after_ms: 0,
                rated: false,
                accounts: Default::default(),
                ratings: None,
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
        rec.meta.public = true; // only public and rated games are listed
        store.create(&rec).unwrap();
        rec.id = "g2".into();
        rec.status = "finished".into();
        store.create(&rec).unwrap();
        assert_eq!(store.list(None, 10).unwrap().len(), 2);
        let fin = store.list(Some("finished"), 10).unwrap();
        assert_eq!(fin.len(), 1);
        assert_eq!(fin[0].id, "g2");
        // A private casual game is left out in every status; a rated one is public by nature.
        rec.meta.public = false;
        rec.id = "private".into();
        store.create(&rec).unwrap();
        rec.id = "rated".into();
        rec.meta.rated = true;
        store.create(&rec).unwrap();
        let fin = store.list(Some("finished"), 10).unwrap();
        let mut ids: Vec<_> = fin.iter().map(|g| g.id.as_str()).collect();
        ids.sort_unstable();
        assert_eq!(ids, ["g2", "rated"]);
        assert_eq!(store.list(None, 10).unwrap().len(), 3);
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
        rec.meta.public = true; // listed
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
        // An aborted game is over too: never resumed.
        let mut c = record();
        c.id = "g3".into();
        c.status = "aborted".into();
        store.create(&c).unwrap();
        assert_eq!(store.load_unfinished().unwrap(), vec![a.clone()]);
        assert_eq!(store.unfinished().unwrap(), vec!["g1".to_string()]);
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
