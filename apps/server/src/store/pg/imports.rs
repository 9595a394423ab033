//! Imported games in PostgreSQL (store/imports.rs): the `imports` table shared by every
//! instance (an import is written once and only its archive flag changes afterwards, so no
//! instance holds a copy that could go stale).

use super::{db, PgStore};
use crate::store::imports::{COLUMNS, LIST_COLUMNS};
use crate::store::{ImportRecord, ImportStore, StoreError};
use postgres::Row;

/// A row read in [`COLUMNS`]' order.
fn of_row(r: &Row) -> ImportRecord {
    ImportRecord {
        id: r.get(0),
        owner: r.get(1),
        archived: r.get::<_, i64>(2) != 0,
        variant: r.get(3),
        meta: r.get(4),
        pdn: r.get(5),
        created_ms: r.get::<_, i64>(6) as u64,
    }
}

impl ImportStore for PgStore {
    fn create_import(&self, rec: &ImportRecord) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                &format!("INSERT INTO imports ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)"),
                &[
                    &rec.id,
                    &rec.owner,
                    &i64::from(rec.archived),
                    &rec.variant,
                    &rec.meta,
                    &rec.pdn,
                    &(rec.created_ms as i64),
                ],
            )
            .map_err(db)?;
            Ok(())
        })
    }

    fn load_import(&self, id: &str) -> Result<Option<ImportRecord>, StoreError> {
        let row = self.with(|c| {
            c.query_opt(
                &format!("SELECT {COLUMNS} FROM imports WHERE id = $1"),
                &[&id],
            )
            .map_err(db)
        })?;
        Ok(row.as_ref().map(of_row))
    }

    fn set_import_archived(
        &self,
        id: &str,
        owner: &str,
        archived: bool,
    ) -> Result<bool, StoreError> {
        let n = self.with(|c| {
            c.execute(
                "UPDATE imports SET archived = $1 WHERE id = $2 AND owner = $3",
                &[&i64::from(archived), &id, &owner],
            )
            .map_err(db)
        })?;
        Ok(n == 1)
    }

    fn archived_imports(
        &self,
        owner: &str,
        before_ms: Option<u64>,
        limit: usize,
    ) -> Result<Vec<ImportRecord>, StoreError> {
        let before = before_ms.map_or(i64::MAX, |b| b.min(i64::MAX as u64) as i64);
        // `''::text`: the empty PDN of a listing, typed for the row reader.
        let columns = LIST_COLUMNS.replace("''", "''::text");
        let rows = self.with(|c| {
            c.query(
                &format!(
                    "SELECT {columns} FROM imports
                     WHERE owner = $1 AND archived = 1 AND created_ms < $2
                     ORDER BY created_ms DESC, id LIMIT $3"
                ),
                &[&owner, &before, &(limit as i64)],
            )
            .map_err(db)
        })?;
        Ok(rows.iter().map(of_row).collect())
    }
}
