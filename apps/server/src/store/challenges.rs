//! The challenges part of a store ([`ChallengeStore`]): one account's invitation to another to
//! play a game (`POST /api/challenge/{username}`, docs/api.md, "Challenges"), one row each with
//! who challenged whom, its status, when it expires, its settings as JSON and a version for
//! compare-and-swap, so that of two answers racing on one challenge (on one instance or two)
//! exactly one is written.

use super::StoreError;

/// One stored challenge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChallengeRecord {
    /// The id (10 hex digits), also the id of the game its acceptance creates.
    pub id: String,
    /// The challenger's account id.
    pub challenger: String,
    /// The challenged account's id.
    pub dest: String,
    /// `pending`, `accepted`, `declined` or `canceled` (a pending one past `expires_ms` is
    /// expired, whether or not the row says so).
    pub status: String,
    /// When it was made, ms since the Unix epoch.
    pub created_ms: u64,
    /// When it was last changed (answered), ms since the Unix epoch.
    pub updated_ms: u64,
    /// A pending challenge expires at this instant (ms since the Unix epoch): the earlier of
    /// `deadline_ms` and the challenger's last sign of life plus the time it may be away.
    pub expires_ms: u64,
    /// The latest `expires_ms` can be: its creation plus the time a challenge may wait.
    pub deadline_ms: u64,
    /// The rest (`crate::challenges::Settings` and the answer) as JSON.
    pub state: String,
    /// The row's version: each save increments it.
    pub version: u64,
}

/// The challenges, kept by the store beside the games ([`super::Store::challenges`]).
pub trait ChallengeStore: Send + Sync {
    /// Insert a new challenge.
    ///
    /// # Errors
    /// Database errors (a duplicate id included).
    fn create_challenge(&self, rec: &ChallengeRecord) -> Result<(), StoreError>;

    /// The challenge `id`, `None` when there is none.
    ///
    /// # Errors
    /// Database errors.
    fn load_challenge(&self, id: &str) -> Result<Option<ChallengeRecord>, StoreError>;

    /// Save `rec`'s status, `updated_ms`, `expires_ms` and state if the stored version is still
    /// `rec.version`, and increment the version (in `rec` too).
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when another save came first, [`StoreError::NotFound`],
    /// database errors.
    fn save_challenge(&self, rec: &mut ChallengeRecord) -> Result<(), StoreError>;

    /// The challenges made by or to account `user_id` that are pending and not expired at
    /// `now_ms`, or were changed at or after `since_ms`; the newest first, at most `limit`.
    ///
    /// # Errors
    /// Database errors.
    fn challenges_of(
        &self,
        user_id: &str,
        now_ms: u64,
        since_ms: u64,
        limit: usize,
    ) -> Result<Vec<ChallengeRecord>, StoreError>;

    /// The challenger `user_id` is still there at `now_ms`: each of its pending challenges that
    /// has not expired and would expire before `now_ms + away_ms - slack_ms` now expires at
    /// `now_ms + away_ms` (never after its `deadline_ms`). The version is not changed (this
    /// races with no answer). Returns how many rows changed.
    ///
    /// # Errors
    /// Database errors.
    fn touch_challenges(
        &self,
        user_id: &str,
        now_ms: u64,
        away_ms: u64,
        slack_ms: u64,
    ) -> Result<usize, StoreError>;
}

/// The columns of `challenges` read into a [`ChallengeRecord`], in its field order.
pub(super) const COLUMNS: &str =
    "id, challenger, dest, status, created_ms, updated_ms, expires_ms, deadline_ms, state, version";

/// The condition of [`ChallengeStore::challenges_of`] with parameters user, now, since, limit
/// numbered `$1`..`$4` (SQLite reads `$n` too).
pub(super) const OF_QUERY: &str = "
    WHERE (challenger = $1 OR dest = $1)
      AND ((status = 'pending' AND expires_ms > $2) OR updated_ms >= $3)
    ORDER BY created_ms DESC, id LIMIT $4";
