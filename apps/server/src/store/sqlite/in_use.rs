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

/// The lock file of the store at `db`: `{db}.lock`.
pub fn lock_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_os_string();
    name.push(".lock");
    PathBuf::from(name)
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
        assert_eq!(lock_path(&db), dir.path().join("crown.db.lock"));
    }
}
