//! Puzzle records in PostgreSQL (store/puzzles.rs): the `puzzle_records` table shared by every
//! instance, each save a compare-and-swap on the row's version (`UPDATE … WHERE version = $old`,
//! or an insert that does nothing when another writer inserted first).

use super::{db, PgStore};
use crate::store::puzzles::COLUMNS;
use crate::store::{PuzzleRecord, PuzzleStore, StoreError};

impl PuzzleStore for PgStore {
    fn load_puzzles(&self, user_id: &str) -> Result<Option<PuzzleRecord>, StoreError> {
        let row = self.with(|c| {
            c.query_opt(
                &format!("SELECT {COLUMNS} FROM puzzle_records WHERE user_id = $1"),
                &[&user_id],
            )
            .map_err(db)
        })?;
        Ok(row.map(|r| PuzzleRecord {
            user_id: r.get(0),
            state: r.get(1),
            updated_ms: r.get::<_, i64>(2) as u64,
            version: r.get::<_, i64>(3) as u64,
        }))
    }

    fn save_puzzles(&self, rec: &mut PuzzleRecord) -> Result<(), StoreError> {
        let n = self.with(|c| {
            if rec.version == 0 {
                c.execute(
                    &format!(
                        "INSERT INTO puzzle_records ({COLUMNS}) VALUES ($1, $2, $3, 1)
                         ON CONFLICT (user_id) DO NOTHING"
                    ),
                    &[&rec.user_id, &rec.state, &(rec.updated_ms as i64)],
                )
                .map_err(db)
            } else {
                c.execute(
                    "UPDATE puzzle_records SET state = $1, updated_ms = $2, version = version + 1
                     WHERE user_id = $3 AND version = $4",
                    &[
                        &rec.state,
                        &(rec.updated_ms as i64),
                        &rec.user_id,
                        &(rec.version as i64),
                    ],
                )
                .map_err(db)
            }
        })?;
        if n != 1 {
            return Err(StoreError::Conflict(rec.user_id.clone()));
        }
        rec.version += 1;
        Ok(())
    }
}
