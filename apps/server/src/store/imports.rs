//! The imports part of a store ([`ImportStore`]): games shared as PDN (`POST /api/imports`,
//! docs/api.md, "Shared games"), each one row holding the PDN exactly as sent, what the server read
//! of it (as JSON), who imported it and whether it is in that account's archive. An imported game
//! is never a game of the `games` table: it is never rated and never counted by the ratings or the
//! leaderboard.

use super::StoreError;

/// One stored import.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportRecord {
    /// The id (10 hex digits), the `<id>` of `/a/<id>`.
    pub id: String,
    /// The account that imported it (`None`: imported by a guest).
    pub owner: Option<String>,
    /// Whether it is in the owner's archive (always `false` without an owner).
    pub archived: bool,
    /// Variant id (`american`, `pool`, `impasse`).
    pub variant: String,
    /// What the server read of the PDN (`crate::imports::ImportMeta`) as JSON.
    pub meta: String,
    /// The PDN text exactly as sent (UTF-8).
    pub pdn: String,
    /// When it was imported, ms since the Unix epoch.
    pub created_ms: u64,
}

/// The imported games, kept by the store beside the games ([`super::Store::imports`]).
pub trait ImportStore: Send + Sync {
    /// Insert a new import.
    ///
    /// # Errors
    /// [`StoreError::Database`] / [`StoreError::Postgres`] (a duplicate id included).
    fn create_import(&self, rec: &ImportRecord) -> Result<(), StoreError>;

    /// The import `id` with its PDN, `None` when there is none.
    ///
    /// # Errors
    /// Database errors.
    fn load_import(&self, id: &str) -> Result<Option<ImportRecord>, StoreError>;

    /// Put import `id` in its owner's archive (`archived`) or take it out, if `owner` is its
    /// owner; returns whether a row changed hands that way (`false`: no such import of `owner`).
    ///
    /// # Errors
    /// Database errors.
    fn set_import_archived(
        &self,
        id: &str,
        owner: &str,
        archived: bool,
    ) -> Result<bool, StoreError>;

    /// The imports in the archive of account `owner` created strictly before `before_ms` (all
    /// when `None`), the newest first, at most `limit`; their `pdn` is left empty.
    ///
    /// # Errors
    /// Database errors.
    fn archived_imports(
        &self,
        owner: &str,
        before_ms: Option<u64>,
        limit: usize,
    ) -> Result<Vec<ImportRecord>, StoreError>;
}

/// The columns of `imports` read into an [`ImportRecord`], in its field order.
pub(super) const COLUMNS: &str = "id, owner, archived, variant, meta, pdn, created_ms";

/// The columns of a listing: [`COLUMNS`] with an empty `pdn`.
pub(super) const LIST_COLUMNS: &str = "id, owner, archived, variant, meta, '', created_ms";
