//! SQLite storage ([`SqliteStore`]): one writer thread group-committing, a pool of readers.
//!
//! The writer thread **group-commits**: the writes waiting when it becomes free go into one
//! transaction (each in its own savepoint, so one failing write does not undo the others), and the
//! single commit's fsync is shared. Every caller still returns only after the commit that holds its
//! write. Reads use a small pool of separate connections (WAL lets them run while the writer
//! writes).

use super::schema::{migrations, schema, Dialect, ADDED_COLUMNS};
use super::StoreError;
use rusqlite::Connection;

mod accounts;
mod challenges;
mod chat;
mod games;
mod imports;
pub mod in_use;
mod puzzles;
mod ratings;
#[cfg(test)]
mod tests;
mod tokens;
mod tournaments;
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

/// Add to the tables of a store made by an older version the columns it lacks
/// ([`ADDED_COLUMNS`]), NULL in the existing rows.
///
/// # Errors
/// [`StoreError::Database`] if the tables cannot be read or altered.
/// The outcome of a compare-and-swap `UPDATE … WHERE id = ? AND version = ?` of row `id` in
/// `table` that changed `changed` rows: `Ok` when it changed the row, else
/// [`StoreError::Conflict`] when the row exists (another writer changed its version first) or
/// [`StoreError::NotFound`] when it does not. `table` is one of the store's own table names.
pub(super) fn versioned_update(
    c: &Connection,
    table: &str,
    changed: usize,
    id: String,
) -> Result<(), StoreError> {
    use rusqlite::OptionalExtension;
    if changed == 1 {
        return Ok(());
    }
    let exists: Option<i64> = c
        .query_row(
            &format!("SELECT version FROM {table} WHERE id = ?1"),
            rusqlite::params![id],
            |row| row.get(0),
        )
        .optional()?;
    Err(match exists {
        Some(_) => StoreError::Conflict(id),
        None => StoreError::NotFound(id),
    })
}

fn add_columns(conn: &Connection) -> Result<(), StoreError> {
    for (table, column, ty) in ADDED_COLUMNS {
        let mut stmt = conn.prepare(&format!("PRAGMA table_info({table})"))?;
        let names = stmt
            .query_map([], |r| r.get::<_, String>(1))?
            .collect::<Result<Vec<_>, _>>()?;
        if !names.iter().any(|n| n == column) {
            conn.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {column} {ty}"))?;
        }
    }
    Ok(())
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
    /// [`crate::store::Store::cap_rated_pairs`] (0: no cap).
    pair_cap: std::sync::atomic::AtomicU32,
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
    /// Open (creating if needed) the database file at `path` in WAL mode, holding the store's
    /// shared in-use lock ([`in_use`], `{path}.lock`) until the writer's last commit, so that
    /// `crown-server restore` refuses to replace it meanwhile (waiting, if a restore runs, until
    /// it is done).
    ///
    /// # Errors
    /// [`StoreError::Database`] if the file cannot be opened or the schema created,
    /// [`StoreError::Commit`] if its lock file cannot be made.
    pub fn open(path: &Path, durability: Durability) -> Result<SqliteStore, StoreError> {
        let lock = in_use::lock(path, false, true).map_err(|e| {
            let at = in_use::lock_path(path);
            StoreError::Commit(format!("cannot lock {}: {e}", at.display()))
        })?;
        let conn = Connection::open(path)?;
        Self::init(conn, durability, Some(path.to_path_buf()), lock)
    }

    /// A private in-memory database (tests).
    ///
    /// # Errors
    /// [`StoreError::Database`] if the schema cannot be created.
    pub fn open_in_memory() -> Result<SqliteStore, StoreError> {
        Self::init(
            Connection::open_in_memory()?,
            Durability::Normal,
            None,
            None,
        )
    }

    fn init(
        conn: Connection,
        durability: Durability,
        path: Option<std::path::PathBuf>,
        lock: Option<std::fs::File>,
    ) -> Result<SqliteStore, StoreError> {
        conn.pragma_update(None, "journal_mode", "WAL")?;
        let sync = match durability {
            Durability::Full => "FULL",
            Durability::Normal => "NORMAL",
        };
        conn.pragma_update(None, "synchronous", sync)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.execute_batch(&schema(Dialect::Sqlite))?;
        add_columns(&conn)?;
        conn.execute_batch(&migrations(Dialect::Sqlite))?;
        let (tx, rx) = std::sync::mpsc::channel::<Job>();
        let stats = Arc::new(WriterStats::default());
        let st = stats.clone();
        std::thread::Builder::new()
            .name("crown-db-writer".into())
            .spawn(move || {
                writer_loop(conn, rx, st);
                // Released after the last commit (and the connection's close), not before.
                drop(lock);
            })
            .map_err(|e| StoreError::Commit(format!("cannot start the writer thread: {e}")))?;
        Ok(SqliteStore {
            jobs: tx,
            path,
            readers: Mutex::new(Vec::new()),
            stats,
            pair_cap: std::sync::atomic::AtomicU32::new(0),
        })
    }

    /// The cap of [`crate::store::Store::cap_rated_pairs`] (0: none).
    fn pair_cap(&self) -> u32 {
        self.pair_cap.load(Ordering::SeqCst)
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
        let started = std::time::Instant::now();
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
        metrics::histogram!(crate::telemetry::STORE_COMMIT_SECONDS, "store" => "sqlite")
            .record(started.elapsed().as_secs_f64());
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
