//! Challenges in SQLite (store/challenges.rs): the `challenges` table, each answer a
//! compare-and-swap on the row's version run by the one writer thread.

use super::SqliteStore;
use crate::store::challenges::{COLUMNS, OF_QUERY};
use crate::store::{ChallengeRecord, ChallengeStore, StoreError};
use rusqlite::{params, OptionalExtension, Row};

/// A row of `challenges` read in [`COLUMNS`]' order.
fn of_row(r: &Row<'_>) -> rusqlite::Result<ChallengeRecord> {
    Ok(ChallengeRecord {
        id: r.get(0)?,
        challenger: r.get(1)?,
        dest: r.get(2)?,
        status: r.get(3)?,
        created_ms: r.get::<_, i64>(4)? as u64,
        updated_ms: r.get::<_, i64>(5)? as u64,
        expires_ms: r.get::<_, i64>(6)? as u64,
        deadline_ms: r.get::<_, i64>(7)? as u64,
        state: r.get(8)?,
        version: r.get::<_, i64>(9)? as u64,
    })
}

/// A time in ms as SQLite's signed integer (saturating).
fn ms(v: u64) -> i64 {
    v.min(i64::MAX as u64) as i64
}

impl ChallengeStore for SqliteStore {
    fn create_challenge(&self, rec: &ChallengeRecord) -> Result<(), StoreError> {
        let r = rec.clone();
        self.write(move |c| {
            c.execute(
                &format!(
                    "INSERT INTO challenges ({COLUMNS})
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)"
                ),
                params![
                    r.id,
                    r.challenger,
                    r.dest,
                    r.status,
                    ms(r.created_ms),
                    ms(r.updated_ms),
                    ms(r.expires_ms),
                    ms(r.deadline_ms),
                    r.state,
                    ms(r.version)
                ],
            )?;
            Ok(())
        })
    }

    fn load_challenge(&self, id: &str) -> Result<Option<ChallengeRecord>, StoreError> {
        let id = id.to_string();
        self.read(move |c| {
            Ok(c.query_row(
                &format!("SELECT {COLUMNS} FROM challenges WHERE id = ?1"),
                params![id],
                of_row,
            )
            .optional()?)
        })
    }

    fn save_challenge(&self, rec: &mut ChallengeRecord) -> Result<(), StoreError> {
        let r = rec.clone();
        self.write(move |c| {
            let n = c.execute(
                "UPDATE challenges SET status = ?1, updated_ms = ?2, expires_ms = ?3, state = ?4,
                 version = version + 1 WHERE id = ?5 AND version = ?6",
                params![
                    r.status,
                    ms(r.updated_ms),
                    ms(r.expires_ms),
                    r.state,
                    r.id,
                    ms(r.version)
                ],
            )?;
            super::versioned_update(c, "challenges", n, r.id)
        })?;
        rec.version += 1;
        Ok(())
    }

    fn challenges_of(
        &self,
        user_id: &str,
        now_ms: u64,
        since_ms: u64,
        limit: usize,
    ) -> Result<Vec<ChallengeRecord>, StoreError> {
        let user = user_id.to_string();
        self.read(move |c| {
            let mut stmt = c.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM challenges {}",
                OF_QUERY.replace('$', "?")
            ))?;
            let rows = stmt
                .query_map(
                    params![user, ms(now_ms), ms(since_ms), limit as i64],
                    of_row,
                )?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
    }

    fn touch_challenges(
        &self,
        user_id: &str,
        now_ms: u64,
        away_ms: u64,
        slack_ms: u64,
    ) -> Result<usize, StoreError> {
        let user = user_id.to_string();
        let until = ms(now_ms.saturating_add(away_ms));
        let soon = ms(now_ms.saturating_add(away_ms.saturating_sub(slack_ms)));
        let (tx, rx) = std::sync::mpsc::channel();
        self.write(move |c| {
            let n = c.execute(
                "UPDATE challenges SET expires_ms = MIN(deadline_ms, ?1)
                 WHERE challenger = ?2 AND status = 'pending' AND expires_ms > ?3
                   AND expires_ms < ?4 AND expires_ms < deadline_ms",
                params![until, user, ms(now_ms), soon],
            )?;
            let _ = tx.send(n);
            Ok(())
        })?;
        Ok(rx.try_recv().unwrap_or(0))
    }
}
