//! Whether a SQLite store is in use by a server: an advisory lock (`flock`) on the file
//! `{db}.lock` beside the database. A server's store ([`super::SqliteStore::open`]) holds a
//! shared lock until its writer has made its last commit; `crown-server restore` takes an
//! exclusive one for the whole restore and refuses, at once, a store a server holds (a running
//! server would keep writing moves to the file being replaced, and lose them). The lock goes
//! with the process, so a crashed server leaves no stale lock; the file itself is left in
//! place (empty). On systems other than Linux no lock is taken: `restore` relies on the
//! operator stopping the server first, as documented.

use std::fs::File;
use std::path::{Path, PathBuf};

/// The lock file of the store at `db`: `{db}.lock`, where `{db}` is the store's real path
/// ([`real_path`]), so a store reached through a symlink, or by another relative path, has the
/// same lock file as the store named directly.
pub fn lock_path(db: &Path) -> PathBuf {
    let mut name = real_path(db).into_os_string();
    name.push(".lock");
    PathBuf::from(name)
}

/// The real path of the store at `db`: `db` with every symlink resolved, its own included; a
/// store not created yet has its folder resolved and its name kept (a symlink pointing nowhere
/// yet is followed to where it points). Where the folder cannot be resolved either, `db` as
/// given (opening the store then fails with the cause).
pub fn real_path(db: &Path) -> PathBuf {
    if let Ok(real) = std::fs::canonicalize(db) {
        return real;
    }
    // A dangling symlink: the store will be created where it points.
    let db = match std::fs::read_link(db) {
        Ok(target) => db.parent().unwrap_or(Path::new("")).join(target),
        Err(_) => db.to_path_buf(),
    };
    let (Some(name), Some(dir)) = (db.file_name(), db.parent()) else {
        return db;
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    match std::fs::canonicalize(dir) {
        Ok(real_dir) => real_dir.join(name),
        Err(_) => db,
    }
}

/// Open (creating) the lock file of `db` and lock it, shared or `exclusive`; `wait`: block until
/// the lock is granted, else `Ok(None)` at once when another process (or another open of the
/// file) holds a conflicting lock. The lock lasts as long as the returned file is open.
///
/// # Errors
/// The lock file cannot be created or opened, or `flock` fails otherwise.
pub fn lock(db: &Path, exclusive: bool, wait: bool) -> std::io::Result<Option<File>> {
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(lock_path(db))?;
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{flock, FlockOperation as Op};
        let op = match (exclusive, wait) {
            (true, true) => Op::LockExclusive,
            (true, false) => Op::NonBlockingLockExclusive,
            (false, true) => Op::LockShared,
            (false, false) => Op::NonBlockingLockShared,
        };
        match flock(&file, op) {
            Ok(()) => {}
            Err(rustix::io::Errno::WOULDBLOCK) => return Ok(None),
            Err(e) => return Err(e.into()),
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (exclusive, wait);
    Ok(Some(file))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(target_os = "linux")]
    #[test]
    fn a_shared_lock_keeps_out_an_exclusive_one_until_it_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("crown.db");
        let a = lock(&db, false, true).unwrap().unwrap();
        let b = lock(&db, false, false).unwrap();
        assert!(b.is_some(), "shared locks go together");
        assert!(lock(&db, true, false).unwrap().is_none());
        drop((a, b));
        let x = lock(&db, true, false).unwrap();
        assert!(x.is_some());
        assert!(lock(&db, false, false).unwrap().is_none());
        let real_dir = std::fs::canonicalize(dir.path()).unwrap();
        assert_eq!(lock_path(&db), real_dir.join("crown.db.lock"));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_store_reached_through_a_symlink_shares_the_lock_of_its_real_path() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.db");
        std::fs::write(&real, b"").unwrap();
        let link = dir.path().join("link.db");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        // A server on the link: a restore naming the real file is kept out, and the reverse.
        let server = lock(&link, false, true).unwrap().unwrap();
        assert!(lock(&real, true, false).unwrap().is_none());
        drop(server);
        let server = lock(&real, false, true).unwrap().unwrap();
        assert!(lock(&link, true, false).unwrap().is_none());
        drop(server);
        // A symlink to a store not created yet locks where the store will be.
        let later = dir.path().join("later-link.db");
        std::os::unix::fs::symlink("later.db", &later).unwrap();
        let real_dir = std::fs::canonicalize(dir.path()).unwrap();
        assert_eq!(lock_path(&later), real_dir.join("later.db.lock"));
        // A relative path through `..` names the same lock as the plain path.
        let sub = dir.path().join("sub");
        std::fs::create_dir(&sub).unwrap();
        assert_eq!(
            lock_path(&sub.join("../real.db")),
            real_dir.join("real.db.lock")
        );
    }
}
