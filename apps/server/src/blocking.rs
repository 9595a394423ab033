//! The one place the domain leaves the async runtime for store calls (SQLite and PostgreSQL
//! clients block): they run on tokio's blocking threads, and their failures become the domain's
//! [`Error`]. (Password hashing runs in its own bounded pool, [`crate::accounts::hashing`].)

use crate::error::{Error, ErrorKind};
use crate::store::StoreError;

/// `accounts_unavailable` (503): the store keeps no accounts (nor ratings).
pub fn unavailable() -> Error {
    Error::new(
        ErrorKind::Full,
        "accounts_unavailable",
        "this server's store keeps no accounts",
    )
}

/// Run the store call `f` on a blocking thread.
///
/// # Errors
/// `storage` when `f` fails (or its thread panicked).
pub async fn store<T: Send + 'static>(
    f: impl FnOnce() -> Result<T, StoreError> + Send + 'static,
) -> Result<T, Error> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(Error::storage)?
        .map_err(Error::storage)
}

/// Run `f`, a call on a part of the store that a store may not keep (accounts, ratings: `None`
/// when it keeps none), on a blocking thread.
///
/// # Errors
/// `accounts_unavailable` (503) when the store keeps no such part; `storage` when `f` fails.
pub async fn store_part<T: Send + 'static>(
    f: impl FnOnce() -> Option<Result<T, StoreError>> + Send + 'static,
) -> Result<T, Error> {
    store(move || Ok(f()))
        .await?
        .ok_or_else(unavailable)?
        .map_err(Error::storage)
}
