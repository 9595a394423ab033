//! Tournaments in SQLite (store/tournaments.rs): the `tournaments` table, each save a
//! compare-and-swap on the row's version run by the one writer thread.

use super::SqliteStore;
use crate::store::tournaments::{due_query, list_order, open_by_query, open_query, COLUMNS};
use crate::store::{StoreError, TournamentRecord, TournamentStore};
use rusqlite::{params, OptionalExtension, Row};

/// A row of `tournaments` read in [`COLUMNS`]' order.
fn of_row(r: &Row<'_>) -> rusqlite::Result<TournamentRecord> {
    Ok(TournamentRecord {
        id: r.get(0)?,
        phase: r.get(1)?,
        starts_ms: r.get::<_, i64>(2)? as u64,
        created_ms: r.get::<_, i64>(3)? as u64,
        updated_ms: r.get::<_, i64>(4)? as u64,
        state: r.get(5)?,
        version: r.get::<_, i64>(6)? as u64,
        creator: r.get::<_, Option<String>>(7)?.unwrap_or_default(),
    })
}

impl TournamentStore for SqliteStore {
    fn create_tournament(&self, rec: &TournamentRecord) -> Result<(), StoreError> {
        let rec = rec.clone();
        self.write(move |c| {
            c.execute(
                &format!(
                    "INSERT INTO tournaments ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
                ),
                params![
                    rec.id,
                    rec.phase,
                    rec.starts_ms as i64,
                    rec.created_ms as i64,
                    rec.updated_ms as i64,
                    rec.state,
                    rec.version as i64,
                    rec.creator
                ],
            )?;
            Ok(())
        })
    }

    fn save_tournament(&self, rec: &mut TournamentRecord) -> Result<(), StoreError> {
        let r = rec.clone();
        self.write(move |c| {
            let n = c.execute(
                "UPDATE tournaments SET phase = ?1, starts_ms = ?2, updated_ms = ?3, state = ?4,
                 version = version + 1 WHERE id = ?5 AND version = ?6",
                params![
                    r.phase,
                    r.starts_ms as i64,
                    r.updated_ms as i64,
                    r.state,
                    r.id,
                    r.version as i64
                ],
            )?;
            super::versioned_update(c, "tournaments", n, r.id)
        })?;
        rec.version += 1;
        Ok(())
    }

    fn load_tournament(&self, id: &str) -> Result<Option<TournamentRecord>, StoreError> {
        let id = id.to_string();
        self.read(move |c| {
            Ok(c.query_row(
                &format!("SELECT {COLUMNS} FROM tournaments WHERE id = ?1"),
                params![id],
                of_row,
            )
            .optional()?)
        })
    }

    fn list_tournaments(
        &self,
        phase: &str,
        limit: usize,
    ) -> Result<Vec<TournamentRecord>, StoreError> {
        let phase = phase.to_string();
        self.read(move |c| {
            let mut stmt = c.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM tournaments WHERE phase = ?1
                 ORDER BY {} LIMIT ?2",
                list_order(&phase)
            ))?;
            let rows = stmt
                .query_map(params![phase, limit as i64], of_row)?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
    }

    fn due_tournaments(&self, now_ms: u64) -> Result<Vec<TournamentRecord>, StoreError> {
        self.read(move |c| {
            let mut stmt = c.prepare_cached(&due_query("?1"))?;
            let rows = stmt
                .query_map(params![now_ms as i64], of_row)?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
    }

    fn open_tournaments(&self) -> Result<Vec<TournamentRecord>, StoreError> {
        self.read(move |c| {
            let mut stmt = c.prepare_cached(&open_query())?;
            let rows = stmt.query_map([], of_row)?.collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
    }

    fn open_tournaments_by(&self, creator: &str) -> Result<u64, StoreError> {
        let creator = creator.to_string();
        self.read(move |c| {
            let n: i64 = c
                .prepare_cached(&open_by_query("?1"))?
                .query_row(params![creator], |r| r.get(0))?;
            Ok(n.max(0) as u64)
        })
    }
}
