//! Imported games in SQLite (store/imports.rs): the `imports` table, written by the one writer
//! thread.

use super::SqliteStore;
use crate::store::imports::{COLUMNS, LIST_COLUMNS};
use crate::store::{ImportRecord, ImportStore, StoreError};
use rusqlite::{params, OptionalExtension, Row};

/// A row of `imports` read in [`COLUMNS`]' order.
fn of_row(r: &Row<'_>) -> rusqlite::Result<ImportRecord> {
    Ok(ImportRecord {
        id: r.get(0)?,
        owner: r.get(1)?,
        archived: r.get::<_, i64>(2)? != 0,
        variant: r.get(3)?,
        meta: r.get(4)?,
        pdn: r.get(5)?,
        created_ms: r.get::<_, i64>(6)? as u64,
    })
}

impl ImportStore for SqliteStore {
    fn create_import(&self, rec: &ImportRecord) -> Result<(), StoreError> {
        let rec = rec.clone();
        self.write(move |c| {
            c.execute(
                &format!("INSERT INTO imports ({COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"),
                params![
                    rec.id,
                    rec.owner,
                    i64::from(rec.archived),
                    rec.variant,
                    rec.meta,
                    rec.pdn,
                    rec.created_ms as i64
                ],
            )?;
            Ok(())
        })
    }

    fn load_import(&self, id: &str) -> Result<Option<ImportRecord>, StoreError> {
        let id = id.to_string();
        self.read(move |c| {
            Ok(c.query_row(
                &format!("SELECT {COLUMNS} FROM imports WHERE id = ?1"),
                params![id],
                of_row,
            )
            .optional()?)
        })
    }

    fn set_import_archived(
        &self,
        id: &str,
        owner: &str,
        archived: bool,
    ) -> Result<bool, StoreError> {
        let (id, owner) = (id.to_string(), owner.to_string());
        let (tx, rx) = std::sync::mpsc::channel();
        self.write(move |c| {
            let n = c.execute(
                "UPDATE imports SET archived = ?1 WHERE id = ?2 AND owner = ?3",
                params![i64::from(archived), id, owner],
            )?;
            let _ = tx.send(n == 1);
            Ok(())
        })?;
        Ok(rx.try_recv().unwrap_or(false))
    }

    fn archived_imports(
        &self,
        owner: &str,
        before_ms: Option<u64>,
        limit: usize,
    ) -> Result<Vec<ImportRecord>, StoreError> {
        let owner = owner.to_string();
        let before = before_ms.map_or(i64::MAX, |b| b.min(i64::MAX as u64) as i64);
        self.read(move |c| {
            let mut stmt = c.prepare_cached(&format!(
                "SELECT {LIST_COLUMNS} FROM imports
                 WHERE owner = ?1 AND archived = 1 AND created_ms < ?2
                 ORDER BY created_ms DESC, id LIMIT ?3"
            ))?;
            let rows = stmt
                .query_map(params![owner, before, limit as i64], of_row)?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
    }
}
