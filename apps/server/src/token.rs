//! Seat tokens and game ids: random hex from the system's source, and the SHA-256 the store keeps
//! instead of a token, compared in constant time.

use crate::error::{Error, ErrorKind};

/// `bytes` random bytes from the system's source, in hex (a game id: 8, a seat token: 32).
///
/// # Errors
/// `no_randomness` (internal) if the system's random source fails.
pub fn random_hex(bytes: usize) -> Result<String, Error> {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).map_err(|e| {
        Error::new(
            ErrorKind::Internal,
            "no_randomness",
            format!("the system random source failed: {e}"),
        )
    })?;
    Ok(buf.iter().map(|b| format!("{b:02x}")).collect())
}

/// SHA-256 of a seat token, in hex: what the store keeps instead of the token.
pub fn token_hash(token: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(token.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Compare two byte strings in time independent of where they differ.
pub(crate) fn same_secret(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
