//! The tournaments part of a store ([`TournamentStore`]): one row per tournament holding its
//! whole state as JSON with a version; every change is a compare-and-swap on that version, so two
//! instances that race on one tournament never both apply a transition (the loser reloads and
//! checks again: docs/scaling.md, "Tournaments").

use super::StoreError;

/// One stored tournament: its id, the columns listed and swept by, and the state as JSON.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRecord {
    /// The tournament id (8 hex digits).
    pub id: String,
    /// `created`, `running` or `finished`.
    pub phase: String,
    /// When it starts by itself, ms since the Unix epoch; 0: only its creator starts it.
    pub starts_ms: u64,
    /// When it was created, ms since the Unix epoch.
    pub created_ms: u64,
    /// When it last changed, ms since the Unix epoch.
    pub updated_ms: u64,
    /// The whole state (`crate::tournaments::Stored`) as JSON.
    pub state: String,
    /// The version: 1 when created, one more at each change.
    pub version: u64,
    /// The account id of its creator (written when it is created, never changed; indexed: the
    /// per-account cap counts by it). Empty in a row an older version wrote whose state names
    /// no creator.
    pub creator: String,
}

/// The tournaments, kept by the store beside the games ([`super::Store::tournaments`]).
pub trait TournamentStore: Send + Sync {
    /// Insert a new tournament (its `version` is stored as given, 1).
    ///
    /// # Errors
    /// [`StoreError::Database`] / [`StoreError::Postgres`] (a duplicate id included).
    fn create_tournament(&self, rec: &TournamentRecord) -> Result<(), StoreError>;

    /// Write a changed tournament if its stored version is still `rec.version`; on success
    /// `rec.version` is the new one (one more).
    ///
    /// # Errors
    /// [`StoreError::Conflict`] when another writer changed it first (nothing is written);
    /// [`StoreError::NotFound`] when there is none with this id; database errors.
    fn save_tournament(&self, rec: &mut TournamentRecord) -> Result<(), StoreError>;

    /// The tournament `id`, `None` when there is none.
    ///
    /// # Errors
    /// Database errors.
    fn load_tournament(&self, id: &str) -> Result<Option<TournamentRecord>, StoreError>;

    /// The tournaments in `phase`, at most `limit`: `created` ones by start time, the soonest
    /// first (those only their creator starts, `starts_ms` 0, after them, the newest first), so
    /// that many new ones cannot push a scheduled one out; the others the newest first.
    ///
    /// # Errors
    /// Database errors.
    fn list_tournaments(
        &self,
        phase: &str,
        limit: usize,
    ) -> Result<Vec<TournamentRecord>, StoreError>;

    /// Every tournament the sweeper must look at, with no cap: each `created` one whose start
    /// time is set (not 0) and at most `now_ms`, and each `running` one; the soonest start first.
    ///
    /// # Errors
    /// Database errors.
    fn due_tournaments(&self, now_ms: u64) -> Result<Vec<TournamentRecord>, StoreError>;

    /// Every tournament not finished (`created` or `running`), with no cap, the oldest first.
    ///
    /// # Errors
    /// Database errors.
    fn open_tournaments(&self) -> Result<Vec<TournamentRecord>, StoreError>;

    /// How many tournaments not finished (`created` or `running`) the account `creator`
    /// created: what the per-account cap on open tournaments counts, by an index (the
    /// `creator` column), not by reading every open tournament's state.
    ///
    /// # Errors
    /// Database errors.
    fn open_tournaments_by(&self, creator: &str) -> Result<u64, StoreError>;
}

/// The query of [`TournamentStore::open_tournaments_by`], the creator as parameter `creator`
/// (`?1`, `$1`).
pub(super) fn open_by_query(creator: &str) -> String {
    format!(
        "SELECT COUNT(*) FROM tournaments
         WHERE creator = {creator} AND phase IN ('created', 'running')"
    )
}

/// The `ORDER BY` of [`TournamentStore::list_tournaments`] for `phase`.
pub(super) fn list_order(phase: &str) -> &'static str {
    if phase == "created" {
        "CASE WHEN starts_ms = 0 THEN 1 ELSE 0 END, starts_ms, created_ms DESC, id"
    } else {
        "created_ms DESC, id"
    }
}

/// The query of [`TournamentStore::due_tournaments`], the time now as parameter `now` (`?1`,
/// `$1`).
pub(super) fn due_query(now: &str) -> String {
    format!(
        "SELECT {COLUMNS} FROM tournaments
         WHERE (phase = 'created' AND starts_ms <> 0 AND starts_ms <= {now}) OR phase = 'running'
         ORDER BY starts_ms, id"
    )
}

/// The query of [`TournamentStore::open_tournaments`].
pub(super) fn open_query() -> String {
    format!(
        "SELECT {COLUMNS} FROM tournaments WHERE phase IN ('created', 'running')
         ORDER BY created_ms, id"
    )
}

/// The columns of `tournaments` read into a [`TournamentRecord`], in its field order.
pub(super) const COLUMNS: &str =
    "id, phase, starts_ms, created_ms, updated_ms, state, version, creator";
