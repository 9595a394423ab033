//! Puzzle records in SQLite (store/puzzles.rs): the `puzzle_records` table, each save a
//! compare-and-swap on the row's version run by the one writer thread.

use super::SqliteStore;
use crate::store::puzzles::COLUMNS;
use crate::store::{PuzzleRecord, PuzzleStore, StoreError};
use rusqlite::{params, OptionalExtension};

impl PuzzleStore for SqliteStore {
    fn load_puzzles(&self, user_id: &str) -> Result<Option<PuzzleRecord>, StoreError> {
        let id = user_id.to_string();
        self.read(move |c| {
            Ok(c.query_row(
                &format!("SELECT {COLUMNS} FROM puzzle_records WHERE user_id = ?1"),
                params![id],
                |r| {
                    Ok(PuzzleRecord {
                        user_id: r.get(0)?,
                        state: r.get(1)?,
                        updated_ms: r.get::<_, i64>(2)? as u64,
                        version: r.get::<_, i64>(3)? as u64,
                    })
                },
            )
            .optional()?)
        })
    }

    fn save_puzzles(&self, rec: &mut PuzzleRecord) -> Result<(), StoreError> {
        let r = rec.clone();
        self.write(move |c| {
            let n = if r.version == 0 {
                c.execute(
                    &format!(
                        "INSERT INTO puzzle_records ({COLUMNS}) VALUES (?1, ?2, ?3, 1)
                         ON CONFLICT (user_id) DO NOTHING"
                    ),
                    params![r.user_id, r.state, r.updated_ms as i64],
                )?
            } else {
                c.execute(
                    "UPDATE puzzle_records SET state = ?1, updated_ms = ?2, version = version + 1
                     WHERE user_id = ?3 AND version = ?4",
                    params![r.state, r.updated_ms as i64, r.user_id, r.version as i64],
                )?
            };
            if n == 1 {
                Ok(())
            } else {
                Err(StoreError::Conflict(r.user_id))
            }
        })?;
        rec.version += 1;
        Ok(())
    }
}
