//! Tournaments in PostgreSQL (store/tournaments.rs; docs/scaling.md, "Tournaments"): the
//! `tournaments` table shared by every instance, each save a compare-and-swap on the row's
//! version (`UPDATE … WHERE version = $old`), so of two instances that race on one tournament
//! exactly one writes and the other reloads.

use super::{db, PgStore};
use crate::store::tournaments::{due_query, list_order, open_by_query, open_query, COLUMNS};
use crate::store::{StoreError, TournamentRecord, TournamentStore};
use postgres::Row;

/// A row read in [`COLUMNS`]' order.
fn of_row(r: &Row) -> TournamentRecord {
    TournamentRecord {
        id: r.get(0),
        phase: r.get(1),
        starts_ms: r.get::<_, i64>(2) as u64,
        created_ms: r.get::<_, i64>(3) as u64,
        updated_ms: r.get::<_, i64>(4) as u64,
        state: r.get(5),
        version: r.get::<_, i64>(6) as u64,
        creator: r.get::<_, Option<String>>(7).unwrap_or_default(),
    }
}

impl TournamentStore for PgStore {
    fn create_tournament(&self, rec: &TournamentRecord) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                &format!(
                    "INSERT INTO tournaments ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)"
                ),
                &[
                    &rec.id,
                    &rec.phase,
                    &(rec.starts_ms as i64),
                    &(rec.created_ms as i64),
                    &(rec.updated_ms as i64),
                    &rec.state,
                    &(rec.version as i64),
                    &rec.creator,
                ],
            )
            .map_err(db)?;
            Ok(())
        })
    }

    fn save_tournament(&self, rec: &mut TournamentRecord) -> Result<(), StoreError> {
        let n = self.with(|c| {
            c.execute(
                "UPDATE tournaments SET phase = $1, starts_ms = $2, updated_ms = $3, state = $4,
                 version = version + 1 WHERE id = $5 AND version = $6",
                &[
                    &rec.phase,
                    &(rec.starts_ms as i64),
                    &(rec.updated_ms as i64),
                    &rec.state,
                    &rec.id,
                    &(rec.version as i64),
                ],
            )
            .map_err(db)
        })?;
        if n == 1 {
            rec.version += 1;
            return Ok(());
        }
        match self.load_tournament(&rec.id)? {
            Some(_) => Err(StoreError::Conflict(rec.id.clone())),
            None => Err(StoreError::NotFound(rec.id.clone())),
        }
    }

    fn load_tournament(&self, id: &str) -> Result<Option<TournamentRecord>, StoreError> {
        let row = self.with(|c| {
            c.query_opt(
                &format!("SELECT {COLUMNS} FROM tournaments WHERE id = $1"),
                &[&id],
            )
            .map_err(db)
        })?;
        Ok(row.as_ref().map(of_row))
    }

    fn list_tournaments(
        &self,
        phase: &str,
        limit: usize,
    ) -> Result<Vec<TournamentRecord>, StoreError> {
        let rows = self.with(|c| {
            c.query(
                &format!(
                    "SELECT {COLUMNS} FROM tournaments WHERE phase = $1
                     ORDER BY {} LIMIT $2",
                    list_order(phase)
                ),
                &[&phase, &(limit as i64)],
            )
            .map_err(db)
        })?;
        Ok(rows.iter().map(of_row).collect())
    }

    fn due_tournaments(&self, now_ms: u64) -> Result<Vec<TournamentRecord>, StoreError> {
        let rows = self.with(|c| c.query(&due_query("$1"), &[&(now_ms as i64)]).map_err(db))?;
        Ok(rows.iter().map(of_row).collect())
    }

    fn open_tournaments(&self) -> Result<Vec<TournamentRecord>, StoreError> {
        let rows = self.with(|c| c.query(&open_query(), &[]).map_err(db))?;
        Ok(rows.iter().map(of_row).collect())
    }

    fn open_tournaments_by(&self, creator: &str) -> Result<u64, StoreError> {
        let row = self.with(|c| c.query_one(&open_by_query("$1"), &[&creator]).map_err(db))?;
        Ok(row.get::<_, i64>(0).max(0) as u64)
    }
}
