//! Coherence between instances sharing one store (PostgreSQL, docs/scaling.md): which copies are
//! known to be in step with the store (`GameHandle::synced`), catching up after a change
//! announced by another instance, and the per-game leases that decide which instance runs a
//! game's clock and engine.

use crate::error::Error;
use crate::games::handle::GameHandle;
use crate::games::live::{now_ms, Live};
use crate::games::Games;
use crate::store::{self, Change};
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

impl Games {
    /// Whether the held copy `h` has seen every committed change: the listener has listened
    /// without interruption since the copy was last read or checked.
    pub(crate) fn in_sync(&self, h: &GameHandle) -> bool {
        self.listening()
            .is_some_and(|g| g == h.synced.load(Ordering::SeqCst))
    }

    /// Record that `h` was read or checked against the store under listener `generation`
    /// (taken before the read), if the listener has not been interrupted since.
    pub(crate) fn mark_synced(&self, h: &GameHandle, generation: Option<u64>) {
        if let Some(g) = generation {
            if self.listening() == Some(g) {
                h.synced.store(g, Ordering::SeqCst);
            }
        }
    }

    /// With a shared store, bring the held copy up to the stored version if it is behind;
    /// returns whether it changed (always `false` with a store of its own).
    ///
    /// # Errors
    /// `storage` if the store cannot be read.
    pub(crate) async fn recheck(&self, h: &Arc<GameHandle>) -> Result<bool, Error> {
        if !self.shared() {
            return Ok(false);
        }
        let mut guard = h.live.lock().await;
        self.catch_up(h, &mut guard).await
    }

    /// [`Games::recheck`] with the game's lock held.
    pub(crate) async fn catch_up(
        &self,
        h: &Arc<GameHandle>,
        guard: &mut tokio::sync::MutexGuard<'_, Live>,
    ) -> Result<bool, Error> {
        let store = self.store.clone();
        let id = h.id.to_string();
        let generation = self.listening();
        let stored = tokio::task::spawn_blocking(move || store.version(&id))
            .await
            .map_err(Error::storage)?
            .map_err(Error::storage)?;
        match stored {
            Some(v) if v > guard.rec.version => {
                self.reload(h, guard).await?;
                Ok(true)
            }
            _ => {
                self.mark_synced(h, generation);
                Ok(false)
            }
        }
    }

    /// Bring a held game up to the stored `version` (asked from the store when `None`) if it is
    /// behind, pushing the new state to its sockets; then, if this instance owns the game, let
    /// the engine move.
    ///
    /// # Errors
    /// `storage` if the store cannot be read.
    pub(crate) async fn refresh(
        &self,
        h: &Arc<GameHandle>,
        version: Option<u64>,
    ) -> Result<(), Error> {
        let generation = self.listening();
        let checked = version.is_none();
        let version = match version {
            Some(v) => v,
            None => {
                let store = self.store.clone();
                let id = h.id.to_string();
                match tokio::task::spawn_blocking(move || store.version(&id))
                    .await
                    .map_err(Error::storage)?
                    .map_err(Error::storage)?
                {
                    Some(v) => v,
                    None => return Ok(()),
                }
            }
        };
        {
            let mut guard = h.live.lock().await;
            if guard.rec.version >= version {
                if checked {
                    self.mark_synced(h, generation);
                }
                return Ok(());
            }
            self.reload(h, &mut guard).await?;
        }
        self.maybe_engine(h.clone());
        Ok(())
    }

    /// Whether this instance runs game `id`'s clock and engine: always with a store of its own;
    /// with a shared store, while it holds the game's lease.
    pub(crate) fn owns(&self, id: &str) -> bool {
        if !self.shared() {
            return true;
        }
        now_ms() < self.owned_until.load(Ordering::SeqCst)
            && self
                .owned
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .contains(id)
    }

    /// Hand every change from `rx` to `handle`, one at a time, until the store closes the
    /// channel or the server shuts down.
    pub(crate) fn forward_changes<F, Fut>(
        &self,
        mut rx: tokio::sync::mpsc::UnboundedReceiver<Change>,
        handle: F,
    ) where
        F: Fn(Games, Change) -> Fut + Send + 'static,
        Fut: std::future::Future<Output = ()> + Send,
    {
        let games = self.clone();
        tokio::spawn(async move {
            let mut shutdown = games.shutdown_signal();
            loop {
                let change = tokio::select! {
                    c = rx.recv() => match c { Some(c) => c, None => break },
                    _ = shutdown.changed() => break,
                };
                handle(games.clone(), change).await;
            }
        });
    }

    /// Start-up with a shared store: the change listener (first, so that no change made while
    /// the games are taken over is missed), the end of an outage of every instance if there was
    /// one ([`store::LeaseStore::end_outage`]), the first lease round, then the lease task.
    pub(crate) async fn start_shared(&self) {
        if let Some(changes) = self.changes() {
            self.forward_changes(changes, |games, change| async move {
                games.on_change(change).await
            });
        }
        let ttl = self.config.lease_ms.max(300);
        let outage = match self
            .store_call(move |store, me| store.end_outage(&me, now_ms(), ttl, OUTAGE_AFTER_MS))
            .await
        {
            Some(Some(leases)) => leases.taken_over,
            _ => Vec::new(),
        };
        if let Some((_, from)) = outage.first() {
            tracing::info!(
                games = outage.len(),
                since_ms = from,
                "every instance was down: taking every lease"
            );
        }
        self.lease_round(Some(outage)).await;
        let games = self.clone();
        tokio::spawn(async move {
            let mut shutdown = games.shutdown_signal();
            let every = Duration::from_millis((games.config.lease_ms / 3).max(100));
            let mut tick = tokio::time::interval(every);
            tick.tick().await;
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    _ = shutdown.changed() => break,
                }
                games.lease_round(None).await;
            }
        });
    }

    /// A change committed by some instance: refresh the held copy, if any.
    pub(crate) async fn on_change(&self, change: store::Change) {
        let targets: Vec<(Arc<GameHandle>, Option<u64>)> = {
            let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
            if change.id.is_empty() {
                games.values().map(|h| (h.clone(), None)).collect()
            } else {
                games
                    .get(&change.id)
                    .map(|h| (h.clone(), Some(change.version)))
                    .into_iter()
                    .collect()
            }
        };
        if let (Some(state), [(h, Some(version))]) = (&change.state, &targets[..]) {
            match self.apply_change(h, state, *version).await {
                Some(true) => {
                    self.maybe_engine(h.clone());
                    return;
                }
                Some(false) => return,
                None => {}
            }
        }
        for (h, version) in targets {
            if let Err(e) = self.refresh(&h, version).await {
                tracing::warn!(game = %h.id, error = %e, "could not reload a changed game");
            }
        }
    }

    /// Apply a change announced with its state to the held copy without reading the store:
    /// `Some(true)` if applied, `Some(false)` if the copy already had it (this instance's own
    /// change, or reloaded since), `None` when the copy must be reloaded instead: it is more than
    /// one version behind (a notification was missed) or the change does not apply.
    pub(crate) async fn apply_change(
        &self,
        h: &Arc<GameHandle>,
        state: &store::ChangeState,
        version: u64,
    ) -> Option<bool> {
        let mut guard = h.live.lock().await;
        if guard.rec.version >= version {
            return Some(false);
        }
        if guard.rec.version + 1 != version {
            return None;
        }
        match guard.apply_change(state, version) {
            Ok(next) => {
                let event = if next.rec.moves.len() > guard.rec.moves.len() {
                    "move"
                } else {
                    "sync"
                };
                self.apply(h, &mut guard, next, event);
                Some(true)
            }
            Err(e) => {
                tracing::warn!(game = %h.id, error = %e, "a notified change does not apply; reloading");
                None
            }
        }
    }

    /// One lease round: renew this instance's leases, then take over expired leases and
    /// unleased games in batches of at most [`LEASE_BATCH`] ([`Games::take_over`]: loaded in bulk),
    /// renewing the leases held whenever a third of the lease time has passed, so that none
    /// lapses while the round runs. A takeover changes no clock: the game could be played on
    /// any instance while its owner was dead (docs/scaling.md, "Clocks").
    ///
    /// A later round (`outage` `None`: the instance answers requests) takes batches for as long
    /// as they come full and the round has run less than a third of the lease time (what is left
    /// is taken by the next round). The start-up round (`outage` `Some`: the instance does not
    /// answer yet) takes every expired lease before the instance answers. `outage` holds the
    /// leases it took at the end of an outage of every instance, each with the instant the
    /// outage began ([`store::LeaseStore::end_outage`]; empty when some instance answered):
    /// those games could not be played from then until this instance answers, so their clocks
    /// are credited that time in memory at one instant after the last batch, just before the
    /// instance answers; the credits are saved in the background.
    pub(crate) async fn lease_round(&self, outage: Option<Vec<(String, u64)>>) {
        // However long a batch, a load or a save takes, the leases held are renewed meanwhile.
        let ttl = self.config.lease_ms.max(300);
        let renewals = async {
            loop {
                tokio::time::sleep(Duration::from_millis(ttl / 6)).await;
                self.renew_if_due().await;
            }
        };
        tokio::select! {
            () = self.lease_round_inner(outage) => {}
            () = renewals => {}
        }
    }

    /// [`Games::lease_round`] without the renewals beside it.
    async fn lease_round_inner(&self, outage: Option<Vec<(String, u64)>>) {
        let first = outage.is_some();
        let outage = outage.unwrap_or_default();
        let ended: std::collections::HashSet<&str> =
            outage.iter().map(|(id, _)| id.as_str()).collect();
        let ttl = self.config.lease_ms.max(300);
        let started = now_ms();
        let Some(leases) = self
            .store_leases(move |store, me| store.lease_round(&me, started, ttl, LEASE_BATCH))
            .await
        else {
            return;
        };
        let before = {
            let mut owned = self.owned.lock().unwrap_or_else(|e| e.into_inner());
            let before = std::mem::take(&mut *owned);
            owned.extend(leases.renewed.iter().cloned());
            before
        };
        self.owned_until.store(started + ttl, Ordering::SeqCst);
        let held: std::collections::HashSet<String> = self
            .games
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .keys()
            .cloned()
            .collect();
        // Not held, or not known as owned (claimed while this round ran): its engine may be
        // waiting.
        let waiting: Vec<String> = leases
            .renewed
            .into_iter()
            .filter(|id| !held.contains(id) || !before.contains(id))
            .filter(|id| !ended.contains(id.as_str()))
            .collect();
        let mut full = leases.taken_over.len() + leases.new.len() >= LEASE_BATCH;
        let mut taken_over: Vec<(String, u64)> = outage.to_vec();
        taken_over.extend(leases.taken_over);
        let mut gained: Vec<String> = leases.new.into_iter().chain(waiting).collect();
        if !first {
            self.take_over(std::mem::take(&mut taken_over), std::mem::take(&mut gained))
                .await;
        } else {
            self.load_taken(&taken_over, &gained).await;
        }
        while full && (first || now_ms().saturating_sub(started) < ttl / 3) {
            self.renew_if_due().await;
            let now = now_ms();
            let Some(more) = self
                .store_leases(move |store, me| store.take_leases(&me, now, ttl, LEASE_BATCH))
                .await
            else {
                break;
            };
            full = more.taken_over.len() + more.new.len() >= LEASE_BATCH;
            if first {
                self.load_taken(&more.taken_over, &more.new).await;
                taken_over.extend(more.taken_over);
                gained.extend(more.new);
            } else {
                self.take_over(more.taken_over, more.new).await;
            }
        }
        if first {
            // Every game taken is loaded: the clocks stopped by the outage resume now, in
            // memory, and the instance answers at once; the credits are saved meanwhile.
            let credits = self.credit_held(&outage, now_ms()).await;
            if !taken_over.is_empty() {
                tracing::info!(games = taken_over.len(), "took over expired leases");
            }
            self.own_and_move(taken_over.into_iter().map(|(id, _)| id).chain(gained));
            let games = self.clone();
            tokio::spawn(async move { games.save_credits(credits).await });
        }
    }

    /// Renew the leases held if a third of the lease time has passed since they were last
    /// renewed (during a long takeover, so that none lapses).
    async fn renew_if_due(&self) {
        let ttl = self.config.lease_ms.max(300);
        let renewed_at = self.owned_until.load(Ordering::SeqCst).saturating_sub(ttl);
        if now_ms().saturating_sub(renewed_at) >= ttl / 3 {
            let now = now_ms();
            if self
                .store_leases(move |store, me| store.lease_round(&me, now, ttl, 0))
                .await
                .is_some()
            {
                self.owned_until.store(now + ttl, Ordering::SeqCst);
            }
        }
    }

    /// Run a lease call of the store on a blocking thread; `None` (logged) if it failed.
    async fn store_leases(
        &self,
        call: impl FnOnce(&dyn store::LeaseStore, String) -> Result<store::Leases, store::StoreError>
            + Send
            + 'static,
    ) -> Option<store::Leases> {
        self.store_call(call).await
    }

    /// Run `call` on the store's leases on a blocking thread with this instance's id; `None`
    /// (logged) if it failed. A store owned by one process keeps no leases: `T::default()`.
    async fn store_call<T: Default + Send + 'static>(
        &self,
        call: impl FnOnce(&dyn store::LeaseStore, String) -> Result<T, store::StoreError>
            + Send
            + 'static,
    ) -> Option<T> {
        let store = self.store.clone();
        let me = self.instance.clone();
        let round = move || store.leases().map_or(Ok(T::default()), |l| call(l, me));
        match tokio::task::spawn_blocking(round).await {
            Ok(Ok(l)) => Some(l),
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "lease round failed");
                None
            }
            Err(e) => {
                tracing::warn!(error = %e, "lease round failed");
                None
            }
        }
    }

    /// Start running the games whose leases this instance just took while it answers requests:
    /// `taken_over` (with the instant each old lease expired) and `gained` (no lease before, or
    /// renewed but not yet known here). The games are loaded ([`Games::load_taken`]), counted as
    /// owned (their clock and engine run here) and their engines asked to move. No clock is
    /// credited: this instance answered while nobody owned the games, so they could be played.
    pub(crate) async fn take_over(&self, taken_over: Vec<(String, u64)>, gained: Vec<String>) {
        if taken_over.is_empty() && gained.is_empty() {
            return;
        }
        self.load_taken(&taken_over, &gained).await;
        if !taken_over.is_empty() {
            tracing::info!(games = taken_over.len(), "took over expired leases");
        }
        self.own_and_move(taken_over.into_iter().map(|(id, _)| id).chain(gained));
    }

    /// Load the games of `taken_over` and `gained` that are not held, [`LOAD_BATCH`] at a time
    /// in one read each.
    async fn load_taken(&self, taken_over: &[(String, u64)], gained: &[String]) {
        let missing: Vec<String> = {
            let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
            taken_over
                .iter()
                .map(|(id, _)| id)
                .chain(gained.iter())
                .filter(|id| !games.contains_key(*id))
                .cloned()
                .collect()
        };
        for chunk in missing.chunks(LOAD_BATCH) {
            let store = self.store.clone();
            let ids = chunk.to_vec();
            let generation = self.listening();
            let recs = match tokio::task::spawn_blocking(move || store.load_many(&ids)).await {
                Ok(Ok(r)) => r,
                Ok(Err(e)) => {
                    tracing::warn!(error = %e, games = chunk.len(), "cannot load leased games");
                    continue;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "cannot load leased games");
                    continue;
                }
            };
            let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
            for rec in recs {
                let id = rec.id.clone();
                match Live::from_record(rec) {
                    Ok(live) => {
                        if games.contains_key(&id) {
                            continue;
                        }
                        let h = GameHandle::new(live);
                        self.mark_synced(&h, generation);
                        games.insert(id, h);
                    }
                    Err(e) => tracing::warn!(game = %id, error = %e, "cannot load a leased game"),
                }
            }
        }
    }

    /// Credit in memory each held game of `outage` whose clock ran when the outage began: the
    /// time from then to `resume_at`, when this instance answers. Returns the credits, to be
    /// saved.
    async fn credit_held(&self, outage: &[(String, u64)], resume_at: u64) -> Vec<Credit> {
        let mut credits = Vec::new();
        for (id, old) in outage {
            let Some(h) = self.held(id) else { continue };
            let mut live = h.live.lock().await;
            credits.extend(Credit::apply(id, &mut live, *old, resume_at));
        }
        credits
    }

    /// Count the games `ids` as owned (their clock and engine run here) and let their engines
    /// move.
    fn own_and_move(&self, ids: impl Iterator<Item = String>) {
        let ids: Vec<String> = ids.collect();
        self.owned
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend(ids.iter().cloned());
        for id in ids {
            match self.held(&id) {
                Some(h) => self.maybe_engine(h),
                None => {
                    let games = self.clone();
                    tokio::spawn(async move {
                        if let Ok(h) = games.handle(&id).await {
                            games.maybe_engine(h);
                        }
                    });
                }
            }
        }
    }

    /// Save the clock credits applied in memory ([`Credit`]), [`CREDITS_AT_ONCE`] at a time
    /// (the store group-commits them), renewing the leases held between chunks when due. A game
    /// saved since (a move, which carried the credit with it) is left alone; a copy reloaded
    /// from the store (another instance changed the game) is credited again, to the same
    /// instant, if its clock still ran from before the outage began.
    async fn save_credits(&self, credits: Vec<Credit>) {
        use futures_util::StreamExt;
        for chunk in credits.chunks(CREDITS_AT_ONCE * 4) {
            self.renew_if_due().await;
            futures_util::stream::iter(chunk.iter().cloned())
                .map(|c| async move {
                    let Some(h) = self.held(&c.id) else { return };
                    let _ = self
                        .mutate(&h, "takeover", None, move |live, _now| {
                            // The credit held in memory, or (a copy reloaded from the store)
                            // applied again.
                            let unsaved = live.rec.version == c.version
                                && live.rec.meta.turn_started_ms == c.turn_started_ms;
                            if unsaved || Credit::apply(&c.id, live, c.old, c.resume_at).is_some() {
                                Ok(())
                            } else {
                                Err(Error::conflict("no_gap", "no clock ran unowned"))
                            }
                        })
                        .await;
                })
                .buffer_unordered(CREDITS_AT_ONCE)
                .count()
                .await;
        }
    }
}

/// A clock credit for an outage of every instance, applied to a held copy (version `version`,
/// its turn now started at `turn_started_ms`) and not saved yet: from `old`, the last heartbeat
/// of any instance, to `resume_at`, when this instance answered, no instance could serve the
/// game.
#[derive(Clone)]
pub(crate) struct Credit {
    id: String,
    old: u64,
    resume_at: u64,
    version: u64,
    turn_started_ms: u64,
}

impl Credit {
    /// Credit `live` (game `id`) the time from `old` to `resume_at` if its clock ran since
    /// before `old` (a move since restarted the clock: nothing to credit).
    fn apply(id: &str, live: &mut Live, old: u64, resume_at: u64) -> Option<Credit> {
        (live.rec.meta.turn_started_ms < old && live.resume_after_downtime(old, resume_at)).then(
            || Credit {
                id: id.to_string(),
                old,
                resume_at,
                version: live.rec.version,
                turn_started_ms: live.rec.meta.turn_started_ms,
            },
        )
    }
}

/// How long no instance may have written the shared heartbeat (written every second by each)
/// before a starting instance takes it that every instance was down, in ms: three heartbeats, so
/// that a running instance slowed by a busy machine is not taken for dead.
pub const OUTAGE_AFTER_MS: u64 = 3_000;

/// Most leases one lease call takes over (the first lease round of an instance meeting 10,000
/// games takes them in batches, see [`Games::lease_round`]).
pub(crate) const LEASE_BATCH: usize = 1000;

/// Games read from the store in one query when leases are taken over.
pub(crate) const LOAD_BATCH: usize = 250;

/// Clock credits of a takeover saved at once (the store group-commits them).
const CREDITS_AT_ONCE: usize = 128;

/// A random id for this instance in the lease table.
pub(crate) fn instance_id() -> String {
    let mut b = [0u8; 8];
    if getrandom::fill(&mut b).is_err() {
        // Unique enough between instances when the OS has no randomness to give.
        let t = now_ms();
        b = (t ^ u64::from(std::process::id()) << 40).to_le_bytes();
    }
    b.iter().map(|x| format!("{x:02x}")).collect()
}
