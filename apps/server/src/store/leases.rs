//! The cluster part of a store several instances share ([`LeaseStore`], docs/scaling.md): each
//! unfinished game has one owning instance, which alone runs its clock and its engine moves, and
//! every committed change is announced to every instance.

use super::{Change, StoreError};

/// Per-game leases and change notifications of the instances sharing a store
/// ([`super::Store::leases`]; only PostgreSQL has them).
pub trait LeaseStore: Send + Sync {
    /// The stream of committed changes made by any instance (game id and new version), taken
    /// once by the server at start-up (`None` after). A [`Change`] with an empty id means
    /// notifications may have been lost (the listener reconnected): every cached game must be
    /// checked.
    fn changes(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Change>>;

    /// While the change listener is connected and listening, its generation (at least 1; a new
    /// one after each reconnection); `None` while it is not. A copy of a game read or checked
    /// under generation `g` has seen every change since, as long as this still answers `Some(g)`
    /// and the notifications received have been applied (docs/scaling.md, "Version checks").
    fn listening(&self) -> Option<u64>;

    /// Take the lease of the new game `id` for instance `owner` until `until_ms` (ms since the
    /// epoch) unless another instance holds it; returns whether `owner` took it.
    ///
    /// # Errors
    /// [`StoreError::Postgres`] and the like.
    fn claim_lease(&self, id: &str, owner: &str, until_ms: u64) -> Result<bool, StoreError>;

    /// One lease round for instance `owner` at `now_ms`: drop the leases of finished games, extend
    /// `owner`'s unexpired leases to `now_ms + ttl_ms`, and take over at most `take_limit` leases
    /// ([`LeaseStore::take_leases`]), all in one transaction. Returns what `owner` holds now (of
    /// the leases taken, those this round took).
    ///
    /// # Errors
    /// [`StoreError::Postgres`] and the like; no lease changed then.
    fn lease_round(
        &self,
        owner: &str,
        now_ms: u64,
        ttl_ms: u64,
        take_limit: usize,
    ) -> Result<Leases, StoreError>;

    /// Take over, for instance `owner` until `now_ms + ttl_ms`, at most `limit` leases: expired
    /// ones (oldest first; a lease another instance is taking at the same moment is left to it,
    /// so each is taken by one instance) and then unfinished games created more than `ttl_ms`
    /// ago without one (a newer one is left to the instance that created it, see
    /// [`LeaseStore::claim_lease`]). `renewed` is empty.
    ///
    /// # Errors
    /// [`StoreError::Postgres`] and the like; no lease changed then.
    fn take_leases(
        &self,
        owner: &str,
        now_ms: u64,
        ttl_ms: u64,
        limit: usize,
    ) -> Result<Leases, StoreError>;

    /// At the start of instance `owner` at `now_ms`: if no instance has written the shared
    /// heartbeat ([`super::Store::heartbeat`]) for `stale_ms` or more, every instance was down since that
    /// heartbeat, and no game could be played from then until `owner` answers. Then, in one
    /// transaction (so that of instances starting together exactly one sees the outage), write
    /// the heartbeat at `now_ms`, take every lease for `owner` until `now_ms + ttl_ms` (their
    /// owners are dead), and return them as `taken_over`, each with the last heartbeat: the
    /// instant the outage began. `None` when some instance wrote the heartbeat less than
    /// `stale_ms` ago (the games could be played: nothing to credit) or none ever did.
    ///
    /// # Errors
    /// [`StoreError::Postgres`] and the like; nothing changed then.
    fn end_outage(
        &self,
        owner: &str,
        now_ms: u64,
        ttl_ms: u64,
        stale_ms: u64,
    ) -> Result<Option<Leases>, StoreError>;
}

/// The per-game leases an instance holds after [`LeaseStore::lease_round`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Leases {
    /// Games whose lease the instance already held and extended.
    pub renewed: Vec<String>,
    /// Games taken over from an expired lease, with the instant (ms since the epoch) that lease
    /// expired ([`LeaseStore::end_outage`]: the instant the outage began).
    pub taken_over: Vec<(String, u64)>,
    /// Unfinished games that had no lease at all (e.g. created before leases existed), now held.
    pub new: Vec<String>,
}
