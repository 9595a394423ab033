//! Per-game leases in PostgreSQL (docs/scaling.md): the `leases` table gives each unfinished
//! game one owning instance, which alone runs its clock and its engine moves.

use super::{db, PgStore};
use crate::store::{Change, LeaseStore, Leases, StoreError};
use std::sync::atomic::Ordering;

/// [`LeaseStore::claim_lease`].
pub(super) fn claim(
    store: &PgStore,
    id: &str,
    owner: &str,
    until_ms: u64,
) -> Result<bool, StoreError> {
    let n = store.with(|c| {
        c.execute(
            "INSERT INTO leases (game_id, owner, expires_ms) VALUES ($1, $2, $3)
             ON CONFLICT (game_id) DO NOTHING",
            &[&id, &owner, &(until_ms as i64)],
        )
        .map_err(db)
    })?;
    Ok(n == 1)
}

/// [`LeaseStore::lease_round`].
pub(super) fn round(
    store: &PgStore,
    owner: &str,
    now_ms: u64,
    ttl_ms: u64,
    take_limit: usize,
) -> Result<Leases, StoreError> {
    let now = now_ms as i64;
    let until = now_ms.saturating_add(ttl_ms) as i64;
    store.with(|c| {
        let mut tx = c.transaction().map_err(db)?;
        tx.execute(
            "DELETE FROM leases l USING games g WHERE l.game_id = g.id AND g.status IN ('finished', 'aborted')",
            &[],
        )
        .map_err(db)?;
        let renewed = tx
            .query(
                "UPDATE leases SET expires_ms = $3 WHERE owner = $1 AND expires_ms >= $2
                 RETURNING game_id",
                &[&owner, &now, &until],
            )
            .map_err(db)?
            .iter()
            .map(|r| r.get(0))
            .collect();
        let mut leases = take(&mut tx, owner, now_ms, ttl_ms, take_limit)?;
        tx.commit().map_err(db)?;
        leases.renewed = renewed;
        Ok(leases)
    })
}

/// [`LeaseStore::take_leases`].
pub(super) fn take_leases(
    store: &PgStore,
    owner: &str,
    now_ms: u64,
    ttl_ms: u64,
    limit: usize,
) -> Result<Leases, StoreError> {
    store.with(|c| {
        let mut tx = c.transaction().map_err(db)?;
        let leases = take(&mut tx, owner, now_ms, ttl_ms, limit)?;
        tx.commit().map_err(db)?;
        Ok(leases)
    })
}

/// [`LeaseStore::take_leases`] inside transaction `tx`.
fn take(
    tx: &mut postgres::Transaction<'_>,
    owner: &str,
    now_ms: u64,
    ttl_ms: u64,
    limit: usize,
) -> Result<Leases, StoreError> {
    let now = now_ms as i64;
    let until = now_ms.saturating_add(ttl_ms) as i64;
    let limit = i64::try_from(limit).unwrap_or(i64::MAX);
    // Rows locked by another instance's round are left to it (SKIP LOCKED): exactly one
    // instance takes each expired lease.
    let taken_over: Vec<(String, u64)> = tx
        .query(
            "UPDATE leases SET owner = $1, expires_ms = $3
             FROM (SELECT game_id, expires_ms AS old FROM leases WHERE expires_ms < $2
                   ORDER BY expires_ms LIMIT $4 FOR UPDATE SKIP LOCKED) o
             WHERE leases.game_id = o.game_id
             RETURNING leases.game_id, o.old",
            &[&owner, &now, &until, &limit],
        )
        .map_err(db)?
        .iter()
        .map(|r| (r.get(0), r.get::<_, i64>(1) as u64))
        .collect();
    let left = limit - taken_over.len() as i64;
    let new = if left > 0 {
        tx.query(
            "INSERT INTO leases (game_id, owner, expires_ms)
             SELECT id, $1, $2 FROM games g WHERE status NOT IN ('finished', 'aborted')
               AND created_ms < $3
               AND NOT EXISTS (SELECT 1 FROM leases l WHERE l.game_id = g.id)
             LIMIT $4
             ON CONFLICT (game_id) DO NOTHING RETURNING game_id",
            &[&owner, &until, &(now - ttl_ms as i64), &left],
        )
        .map_err(db)?
        .iter()
        .map(|r| r.get(0))
        .collect()
    } else {
        Vec::new()
    };
    Ok(Leases {
        renewed: Vec::new(),
        taken_over,
        new,
    })
}

/// [`LeaseStore::end_outage`].
pub(super) fn end_outage(
    store: &PgStore,
    owner: &str,
    now_ms: u64,
    ttl_ms: u64,
    stale_ms: u64,
) -> Result<Option<Leases>, StoreError> {
    let until = now_ms.saturating_add(ttl_ms) as i64;
    store.with(|c| {
        let mut tx = c.transaction().map_err(db)?;
        // The row lock makes instances starting together see the outage one after the other:
        // the first ends it (writes the heartbeat), the others find the heartbeat fresh.
        let last = tx
            .query_opt(
                "SELECT value FROM server_meta WHERE key = 'heartbeat_ms' FOR UPDATE",
                &[],
            )
            .map_err(db)?
            .map(|r| r.get::<_, i64>(0).max(0) as u64);
        let Some(last) = last.filter(|&hb| now_ms.saturating_sub(hb) >= stale_ms) else {
            return Ok(None);
        };
        tx.execute(
            "UPDATE server_meta SET value = $1 WHERE key = 'heartbeat_ms'",
            &[&(now_ms as i64)],
        )
        .map_err(db)?;
        let taken_over = tx
            .query(
                "UPDATE leases SET owner = $1, expires_ms = $2 RETURNING game_id",
                &[&owner, &until],
            )
            .map_err(db)?
            .iter()
            .map(|r| (r.get(0), last))
            .collect();
        tx.commit().map_err(db)?;
        Ok(Some(Leases {
            renewed: Vec::new(),
            taken_over,
            new: Vec::new(),
        }))
    })
}

impl LeaseStore for PgStore {
    fn changes(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Change>> {
        self.changes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }

    fn listening(&self) -> Option<u64> {
        match self.listening.load(Ordering::SeqCst) {
            0 => None,
            g => Some(g),
        }
    }

    fn claim_lease(&self, id: &str, owner: &str, until_ms: u64) -> Result<bool, StoreError> {
        claim(self, id, owner, until_ms)
    }

    fn lease_round(
        &self,
        owner: &str,
        now_ms: u64,
        ttl_ms: u64,
        take_limit: usize,
    ) -> Result<Leases, StoreError> {
        round(self, owner, now_ms, ttl_ms, take_limit)
    }

    fn take_leases(
        &self,
        owner: &str,
        now_ms: u64,
        ttl_ms: u64,
        limit: usize,
    ) -> Result<Leases, StoreError> {
        take_leases(self, owner, now_ms, ttl_ms, limit)
    }

    fn end_outage(
        &self,
        owner: &str,
        now_ms: u64,
        ttl_ms: u64,
        stale_ms: u64,
    ) -> Result<Option<Leases>, StoreError> {
        end_outage(self, owner, now_ms, ttl_ms, stale_ms)
    }
}
