//! The build lock: one builder at a time per database directory.
//!
//! [`crate::build`] holds an exclusive advisory lock on the file [`LOCK_FILE`] in the database
//! directory for as long as it runs, so that two processes building into the same directory (a
//! `crown egdb build` and a front end's background build, or two front ends started at once) never
//! write or remove each other's files: the second waits, then finds the classes the first built and
//! keeps them. The lock is `flock(2)` on Unix and is released by the operating system when the
//! process ends, however it ends (no stale lock after a kill). Elsewhere there is no lock.

use crate::EgdbError;
use std::fs::{File, OpenOptions};
use std::path::Path;

/// The name of the lock file in a database directory (not a database file: [`crate::Tablebase`]
/// ignores it).
pub const LOCK_FILE: &str = "build.lock";

/// An exclusive hold on a database directory's build lock, released on drop.
#[derive(Debug)]
pub struct BuildLock {
    _file: File,
}

fn open(dir: &Path) -> Result<File, EgdbError> {
    std::fs::create_dir_all(dir).map_err(|source| EgdbError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let path = dir.join(LOCK_FILE);
    OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|source| EgdbError::Io { path, source })
}

impl BuildLock {
    /// Take the build lock of `dir` (created when missing), waiting while another builder holds it.
    ///
    /// # Errors
    /// [`EgdbError::Io`] naming the lock file when it cannot be created or locked.
    pub fn acquire(dir: &Path) -> Result<BuildLock, EgdbError> {
        let file = open(dir)?;
        #[cfg(unix)]
        rustix::fs::flock(&file, rustix::fs::FlockOperation::LockExclusive).map_err(|e| {
            EgdbError::Io {
                path: dir.join(LOCK_FILE),
                source: e.into(),
            }
        })?;
        Ok(BuildLock { _file: file })
    }

    /// Take the build lock of `dir` (created when missing) if no other builder holds it: `None`
    /// when one does.
    ///
    /// # Errors
    /// [`EgdbError::Io`] naming the lock file when it cannot be created or locked for another
    /// reason than being held.
    pub fn try_acquire(dir: &Path) -> Result<Option<BuildLock>, EgdbError> {
        let file = open(dir)?;
        #[cfg(unix)]
        match rustix::fs::flock(&file, rustix::fs::FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => {}
            Err(rustix::io::Errno::WOULDBLOCK) => return Ok(None),
            Err(e) => {
                return Err(EgdbError::Io {
                    path: dir.join(LOCK_FILE),
                    source: e.into(),
                })
            }
        }
        Ok(Some(BuildLock { _file: file }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_lock_is_refused_then_free_again() {
        let dir = tempfile::tempdir().unwrap();
        let held = BuildLock::acquire(dir.path()).unwrap();
        #[cfg(unix)]
        assert!(BuildLock::try_acquire(dir.path()).unwrap().is_none());
        drop(held);
        assert!(BuildLock::try_acquire(dir.path()).unwrap().is_some());
        assert!(dir.path().join(LOCK_FILE).is_file());
    }
}
