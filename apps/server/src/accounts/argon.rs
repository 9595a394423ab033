//! Argon2id hashes and checks that reuse one memory area per thread.
//!
//! The `argon2` crate's `hash_password` and `verify_password` allocate the algorithm's 19 MiB of
//! blocks anew at each call and free them after. With glibc's allocator a freed block that size
//! raises the process's mmap threshold, so later blocks come from malloc arenas that keep the
//! freed memory: a log-in flood left the server at 288 MiB against 54 MiB without one (the load
//! bench's `--login-flood`, issue 41). Here each thread of the hashing pool
//! ([`super::hashing::HashPool`]) keeps its blocks for its whole life and hands them to
//! [`Argon2::hash_password_into_with_memory`], so the memory of hashing is the pool's threads
//! times 19 MiB, whatever the number of log-ins. The hashes are the same PHC strings
//! (`$argon2id$v=19$m=19456,t=2,p=1$…`) as the crate's own, read and written by its types.

use argon2::password_hash::phc::{Output, PasswordHash, Salt};
use argon2::{Algorithm, Argon2, Block, Params, Version};
use std::cell::RefCell;

/// Bytes of a new salt (the crate's recommended length).
const SALT_LEN: usize = 16;

thread_local! {
    /// This thread's Argon2 memory, grown to the largest hash it has computed and kept.
    static BLOCKS: RefCell<Vec<Block>> = const { RefCell::new(Vec::new()) };
}

/// Run Argon2 with `params` on this thread's kept memory, writing the tag into `out`.
fn hash_into(
    version: Version,
    params: Params,
    password: &[u8],
    salt: &[u8],
    out: &mut [u8],
) -> Result<(), argon2::Error> {
    BLOCKS.with(|blocks| {
        let mut blocks = blocks.borrow_mut();
        let n = params.block_count();
        if blocks.len() < n {
            blocks.resize(n, Block::default());
        }
        Argon2::new(Algorithm::Argon2id, version, params).hash_password_into_with_memory(
            password,
            salt,
            out,
            &mut blocks[..n],
        )
    })
}

/// The Argon2id PHC string of `password` with the crate's default (OWASP) parameters and a
/// random 16-byte salt from the system's source.
///
/// # Errors
/// A message when the system gives no randomness or the hash cannot be computed.
pub fn hash(password: &[u8]) -> Result<String, String> {
    let mut salt = [0u8; SALT_LEN];
    getrandom::fill(&mut salt).map_err(|e| e.to_string())?;
    hash_with_salt(password, &salt)
}

/// The Argon2id PHC string of `password` with the default parameters and `salt`.
///
/// # Errors
/// A message when the salt is too short or too long for Argon2.
pub fn hash_with_salt(password: &[u8], salt: &[u8]) -> Result<String, String> {
    let params = Params::default();
    let mut tag = [0u8; Params::DEFAULT_OUTPUT_LEN];
    hash_into(Version::V0x13, params.clone(), password, salt, &mut tag)
        .map_err(|e| e.to_string())?;
    let phc = PasswordHash {
        algorithm: Algorithm::Argon2id.ident(),
        version: Some(Version::V0x13.into()),
        params: (&params).try_into().map_err(|e| format!("{e}"))?,
        salt: Some(Salt::new(salt).map_err(|e| e.to_string())?),
        hash: Some(Output::new(&tag).map_err(|e| e.to_string())?),
    };
    Ok(phc.to_string())
}

/// Whether `password` matches the Argon2id PHC string `phc`; an unreadable string, or one of
/// another algorithm, matches nothing. The tags are compared in constant time ([`Output`]'s
/// equality).
pub fn verify(password: &[u8], phc: &str) -> bool {
    let Ok(stored) = PasswordHash::new(phc) else {
        return false;
    };
    if stored.algorithm != Algorithm::Argon2id.ident() {
        return false;
    }
    let (Some(salt), Some(expected)) = (&stored.salt, &stored.hash) else {
        return false;
    };
    let version = match stored.version.map(Version::try_from) {
        None => Version::V0x13,
        Some(Ok(v)) => v,
        Some(Err(_)) => return false,
    };
    let Ok(params) = Params::try_from(&stored) else {
        return false;
    };
    let mut buf = [0u8; Output::MAX_LENGTH];
    let Some(tag) = buf.get_mut(..expected.len()) else {
        return false;
    };
    if hash_into(version, params, password, salt.as_ref(), tag).is_err() {
        return false;
    }
    Output::new(tag).is_ok_and(|computed| computed == *expected)
}

#[cfg(test)]
mod tests {
    use super::*;
    use argon2::password_hash::{PasswordHasher, PasswordVerifier};

    #[test]
    fn hashes_agree_with_the_argon2_crates_own_in_both_directions() {
        // Ours, checked by the crate.
        let ours = hash(b"correct horse").unwrap();
        assert!(
            ours.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"),
            "{ours}"
        );
        let parsed = PasswordHash::new(&ours).unwrap();
        assert!(Argon2::default()
            .verify_password(b"correct horse", &parsed)
            .is_ok());
        // The crate's, checked by ours; and the same salt gives the same string.
        let theirs = Argon2::default()
            .hash_password_with_salt(b"correct horse", b"sixteen byte slt")
            .unwrap()
            .to_string();
        assert!(verify(b"correct horse", &theirs));
        assert!(!verify(b"correct horsf", &theirs));
        assert_eq!(
            hash_with_salt(b"correct horse", b"sixteen byte slt").unwrap(),
            theirs
        );
    }

    #[test]
    fn unreadable_or_foreign_hashes_match_nothing() {
        assert!(!verify(b"x", "not a PHC string"));
        assert!(!verify(b"x", ""));
        // Argon2i, not Argon2id.
        let argon2i = Argon2::new(Algorithm::Argon2i, Version::V0x13, Params::default())
            .hash_password_with_salt(b"x", b"sixteen byte slt")
            .unwrap()
            .to_string();
        assert!(!verify(b"x", &argon2i));
        // A tag cut short still parses but never matches.
        let good = hash_with_salt(b"x", b"sixteen byte slt").unwrap();
        assert!(!verify(b"x", &good[..good.len() - 4]));
    }

    #[test]
    fn a_thread_reuses_its_memory_from_one_hash_to_the_next() {
        let area = || BLOCKS.with(|b| (b.borrow().as_ptr() as usize, b.borrow().len()));
        hash(b"first").unwrap();
        let first = area();
        assert_eq!(first.1, Params::default().block_count());
        for _ in 0..3 {
            verify(b"again", &hash(b"second").unwrap());
            assert_eq!(area(), first, "the blocks were allocated anew");
        }
    }
}
