//! The puzzles part of a store ([`PuzzleStore`]): one row per account holding its puzzle record
//! (rating, streaks, rated attempts; `crate::puzzles::Stored`) as JSON with a version; every
//! change is a compare-and-swap on that version, so two requests (or instances) that race on one
//! account never both rate from the same state: the loser reloads and records again, and a
//! puzzle rated by the winner is then not rated twice.

use super::StoreError;

/// One account's stored puzzle record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PuzzleRecord {
    /// The account's id.
    pub user_id: String,
    /// The record (`crate::puzzles::Stored`) as JSON.
    pub state: String,
    /// When it last changed, ms since the Unix epoch.
    pub updated_ms: u64,
    /// The version: 0 for a record not stored yet, 1 once inserted, one more at each change.
    pub version: u64,
}

/// The accounts' puzzle records, kept by the store beside the accounts
/// ([`super::Store::puzzles`]).
pub trait PuzzleStore: Send + Sync {
    /// The puzzle record of account `user_id`, `None` when it has none yet.
    ///
    /// # Errors
    /// Database errors.
    fn load_puzzles(&self, user_id: &str) -> Result<Option<PuzzleRecord>, StoreError>;

    /// Write `rec` if the stored version is still `rec.version` (0: no record is stored yet, and
    /// this inserts it); on success `rec.version` is the new one (one more).
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when another writer changed (or inserted) it first: nothing is
    /// written; database errors.
    fn save_puzzles(&self, rec: &mut PuzzleRecord) -> Result<(), StoreError>;
}

/// The columns of `puzzle_records` read into a [`PuzzleRecord`], in its field order.
pub(super) const COLUMNS: &str = "user_id, state, updated_ms, version";
