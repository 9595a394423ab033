//! Backup and restore of a SQLite store (`crown-server backup` and `crown-server restore`),
//! through SQLite's online backup API: a backup is a consistent copy of the store as of one
//! moment (every transaction committed before it began, none after it began), taken while the
//! server keeps running and committing. A PostgreSQL store is backed up with `pg_dump`
//! (docs/deploy.md).

use crate::store::sqlite::in_use::{lock_path, real_path};
use rusqlite::backup::{Backup, StepResult};
use rusqlite::{Connection, OpenFlags};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Why a backup or a restore failed; nothing was written at the destination.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// SQLite reported an error.
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    /// A file could not be written, renamed or removed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The source does not exist.
    #[error("{0}: no such file")]
    Missing(PathBuf),
    /// The destination exists and overwriting it was not asked for (`--force`).
    #[error("{0} exists; pass --force to overwrite it")]
    Exists(PathBuf),
    /// The source is not a Crown store, or is damaged.
    #[error("{0} is not a sound Crown store: {1}")]
    NotAStore(PathBuf, String),
    /// A server is using the store (it holds the store's in-use lock, `{db}.lock`).
    #[error(
        "{0} is in use by a running crown-server (its lock {1} is held); stop the server \
         first"
    )]
    InUse(PathBuf, PathBuf),
    /// The backup's destination is the store being backed up (the same file by its real path).
    #[error("--out {0} is the store being backed up; write the backup to another file")]
    OutIsSource(PathBuf),
    /// The backup's destination is one of a store's own files (its write-ahead log, shared
    /// memory, journal or lock), which only SQLite and the server may write.
    #[error(
        "--out {0} is a store's own {1} file, not a place for a backup; write it to another file"
    )]
    OutIsStoreFile(PathBuf, &'static str),
    /// The database stayed locked (busy) for longer than the backup waits.
    #[error("the database stayed busy for {0:?}")]
    Busy(Duration),
}

/// What a backup or restore copied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Copied {
    /// Games in the copy.
    pub games: u64,
    /// Moves (all games) in the copy.
    pub moves: u64,
}

/// How long a copy waits for a database that stays busy (another connection holding a lock
/// that blocks it; in WAL mode a writer does not).
const BUSY_LIMIT: Duration = Duration::from_secs(60);

/// Copy the store at `db` (which a server may be using) to `out`, consistently.
///
/// The copy is made in one step of SQLite's online backup API, which reads the whole database
/// under one read transaction: in WAL mode the server's writer goes on committing meanwhile, and
/// the copy holds exactly the transactions committed before it began. It is written to
/// `out.partial`, checked (`PRAGMA quick_check`, the `games` table), made a single file (rollback
/// journal mode), synced, and renamed to `out`.
///
/// `out` is never a live store: `--force` or not, it may not be `db` itself (by real path:
/// symlinks and `..` resolved), nor a `-wal`, `-shm`, `-journal` or `.lock` file, and a store a
/// running server holds ([`crate::store::sqlite::in_use`]) is refused, as by [`restore`]; the
/// exclusive lock of `out` is held until the copy is in place. An old `out` store's stale `-wal`
/// and `-shm` are removed with it (they would be replayed into the copy).
///
/// # Errors
/// [`BackupError::Missing`] without `db`, [`BackupError::OutIsSource`] or
/// [`BackupError::OutIsStoreFile`] for such an `out`, [`BackupError::InUse`] when a server holds
/// `out`, [`BackupError::Exists`] when `out` exists and not `force`, [`BackupError::NotAStore`]
/// when `db` is not a sound Crown store, or a database or file error.
pub fn backup(db: &Path, out: &Path, force: bool) -> Result<Copied, BackupError> {
    if !db.exists() {
        return Err(BackupError::Missing(db.to_path_buf()));
    }
    let real_out = real_path(out);
    if real_out == real_path(db) {
        return Err(BackupError::OutIsSource(out.to_path_buf()));
    }
    if let Some(kind) = store_file_kind(&real_out).or_else(|| store_file_kind(out)) {
        return Err(BackupError::OutIsStoreFile(out.to_path_buf(), kind));
    }
    // A server creates its store's lock file before it opens the store: without one, no server
    // uses `out` (and none is left behind beside every backup).
    let _lock = if lock_path(out).exists() {
        let in_use = || BackupError::InUse(out.to_path_buf(), lock_path(out));
        Some(crate::store::sqlite::in_use::lock(out, true, false)?.ok_or_else(in_use)?)
    } else {
        None
    };
    if out.exists() && !force {
        return Err(BackupError::Exists(out.to_path_buf()));
    }
    // Read-write but never created: a read-only connection could not read a WAL database whose
    // shared-memory file it may not write.
    let src = Connection::open_with_flags(
        db,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    src.busy_timeout(Duration::from_secs(5))?;
    let tmp = sibling(out, "partial");
    copy_into(&src, &tmp, "DELETE").inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })?;
    let copied = check(&tmp).inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })?;
    remove_stale_logs(out)?;
    std::fs::rename(&tmp, out)?;
    sync_dir(out);
    Ok(copied)
}

/// Which of a store's own files `path` names by its suffix (`-wal`, `-shm`, `-journal`,
/// `.lock`), if any.
fn store_file_kind(path: &Path) -> Option<&'static str> {
    let name = path.file_name()?.to_string_lossy();
    [
        ("-wal", "write-ahead log"),
        ("-shm", "shared-memory"),
        ("-journal", "journal"),
        (".lock", "in-use lock"),
    ]
    .into_iter()
    .find(|(suffix, _)| name.ends_with(suffix))
    .map(|(_, kind)| kind)
}

/// Remove the `-wal` and `-shm` files of the store at `db`, if any (the store stopped): an old
/// write-ahead log would be replayed into the file that replaces the store.
fn remove_stale_logs(db: &Path) -> Result<(), BackupError> {
    for stale in [sibling(db, "wal"), sibling(db, "shm")] {
        match std::fs::remove_file(&stale) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e.into()),
        }
    }
    Ok(())
}

/// Make `db` a copy of the backup `from`, the server stopped: a running server would keep its own
/// view of the old file and lose the moves it writes there, so a store whose in-use lock a
/// server holds ([`crate::store::sqlite::in_use`]) is refused, `--force` or not, and the
/// exclusive lock is held for the whole restore (a server started meanwhile waits for it).
///
/// `from` is checked first (`PRAGMA quick_check`, the `games` table); the copy is written to
/// `db.restoring`, then the old store's `-wal` and `-shm` files are removed (an old write-ahead
/// log would be replayed into the restored file) and the copy renamed to `db`.
///
/// # Errors
/// [`BackupError::Missing`] without `from`, [`BackupError::InUse`] when a server holds `db`,
/// [`BackupError::Exists`] when `db` (or its `-wal`) exists and not `force`,
/// [`BackupError::NotAStore`] when `from` is not a sound Crown store, or a database or file error.
pub fn restore(from: &Path, db: &Path, force: bool) -> Result<Copied, BackupError> {
    if !from.exists() {
        return Err(BackupError::Missing(from.to_path_buf()));
    }
    let in_use = || BackupError::InUse(db.to_path_buf(), lock_path(db));
    let _lock = crate::store::sqlite::in_use::lock(db, true, false)?.ok_or_else(in_use)?;
    let wal = sibling(db, "wal");
    if (db.exists() || wal.exists()) && !force {
        return Err(BackupError::Exists(db.to_path_buf()));
    }
    let copied = check(from)?;
    let src = Connection::open_with_flags(
        from,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    let tmp = sibling(db, "restoring");
    copy_into(&src, &tmp, "WAL").inspect_err(|_| {
        let _ = std::fs::remove_file(&tmp);
    })?;
    drop(src);
    remove_stale_logs(db)?;
    std::fs::rename(&tmp, db)?;
    sync_dir(db);
    Ok(copied)
}

/// `path` with `.suffix` (SQLite's names: `crown.db-wal`; ours: `crown.db.partial`).
fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_os_string();
    name.push(if matches!(suffix, "wal" | "shm") {
        "-"
    } else {
        "."
    });
    name.push(suffix);
    PathBuf::from(name)
}

/// Copy `src` into a new file `dest` in one backup step, set its journal mode and close it
/// synced.
fn copy_into(src: &Connection, dest: &Path, journal: &str) -> Result<(), BackupError> {
    match std::fs::remove_file(dest) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e.into()),
    }
    let mut dst = Connection::open(dest)?;
    {
        let b = Backup::new(src, &mut dst)?;
        let started = Instant::now();
        loop {
            // -1: every page in one step, so under one read transaction of the source (a step
            // of fewer pages would restart whenever the server commits between steps).
            match b.step(-1)? {
                StepResult::Done => break,
                StepResult::More => {}
                StepResult::Busy | StepResult::Locked => {
                    if started.elapsed() > BUSY_LIMIT {
                        return Err(BackupError::Busy(BUSY_LIMIT));
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
                _ => {}
            }
        }
    }
    dst.pragma_update(None, "journal_mode", journal)?;
    dst.pragma_update(None, "synchronous", "FULL")?;
    dst.close().map_err(|(_, e)| e)?;
    std::fs::File::open(dest)?.sync_all()?;
    Ok(())
}

/// Check that `path` is a sound Crown store and count what it holds.
fn check(path: &Path) -> Result<Copied, BackupError> {
    let bad = |why: String| BackupError::NotAStore(path.to_path_buf(), why);
    let c = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    let verdict: String = c
        .query_row("PRAGMA quick_check", [], |r| r.get(0))
        .map_err(|e| bad(e.to_string()))?;
    if verdict != "ok" {
        return Err(bad(verdict));
    }
    let games: i64 = c
        .query_row("SELECT count(*) FROM games", [], |r| r.get(0))
        .map_err(|e| bad(e.to_string()))?;
    let moves: i64 = c
        .query_row("SELECT count(*) FROM moves", [], |r| r.get(0))
        .map_err(|e| bad(e.to_string()))?;
    Ok(Copied {
        games: games.try_into().unwrap_or(0),
        moves: moves.try_into().unwrap_or(0),
    })
}

/// Sync the directory of `file`, so that its rename survives a power loss (best effort).
fn sync_dir(file: &Path) {
    if let Some(dir) = file.parent() {
        let dir = if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        };
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backup_and_restore_refuse_to_overwrite_and_missing_sources() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("crown.db");
        drop(crate::store::SqliteStore::open(&db, crate::store::Durability::Normal).unwrap());
        let out = dir.path().join("copy.db");
        assert_eq!(
            backup(&db, &out, false).unwrap(),
            Copied { games: 0, moves: 0 }
        );
        assert!(matches!(
            backup(&db, &out, false),
            Err(BackupError::Exists(_))
        ));
        backup(&db, &out, true).unwrap();
        assert!(matches!(
            restore(&out, &db, false),
            Err(BackupError::Exists(_))
        ));
        restore(&out, &db, true).unwrap();
        assert!(matches!(
            backup(&dir.path().join("none.db"), &out, true),
            Err(BackupError::Missing(_))
        ));
        // Not a store: refused before anything is written.
        let junk = dir.path().join("junk.db");
        std::fs::write(&junk, b"not a database at all, not even close to one").unwrap();
        let fresh = dir.path().join("fresh.db");
        assert!(restore(&junk, &fresh, false).is_err());
        assert!(!fresh.exists());
    }
}
