//! Challenges in PostgreSQL (store/challenges.rs): the `challenges` table shared by every
//! instance; each answer is a compare-and-swap on the row's version, so that of two instances
//! answering one challenge at once exactly one writes.

use super::{db, PgStore};
use crate::store::challenges::{COLUMNS, OF_QUERY};
use crate::store::{ChallengeRecord, ChallengeStore, StoreError};
use postgres::Row;

/// A row read in [`COLUMNS`]' order.
fn of_row(r: &Row) -> ChallengeRecord {
    ChallengeRecord {
        id: r.get(0),
        challenger: r.get(1),
        dest: r.get(2),
        status: r.get(3),
        created_ms: r.get::<_, i64>(4) as u64,
        updated_ms: r.get::<_, i64>(5) as u64,
        expires_ms: r.get::<_, i64>(6) as u64,
        deadline_ms: r.get::<_, i64>(7) as u64,
        state: r.get(8),
        version: r.get::<_, i64>(9) as u64,
    }
}

/// A time in ms as PostgreSQL's `BIGINT` (saturating).
fn ms(v: u64) -> i64 {
    v.min(i64::MAX as u64) as i64
}

impl ChallengeStore for PgStore {
    fn create_challenge(&self, rec: &ChallengeRecord) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                &format!(
                    "INSERT INTO challenges ({COLUMNS})
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
                ),
                &[
                    &rec.id,
                    &rec.challenger,
                    &rec.dest,
                    &rec.status,
                    &ms(rec.created_ms),
                    &ms(rec.updated_ms),
                    &ms(rec.expires_ms),
                    &ms(rec.deadline_ms),
                    &rec.state,
                    &ms(rec.version),
                ],
            )
            .map_err(db)?;
            Ok(())
        })
    }

    fn load_challenge(&self, id: &str) -> Result<Option<ChallengeRecord>, StoreError> {
        let row = self.with(|c| {
            c.query_opt(
                &format!("SELECT {COLUMNS} FROM challenges WHERE id = $1"),
                &[&id],
            )
            .map_err(db)
        })?;
        Ok(row.as_ref().map(of_row))
    }

    fn save_challenge(&self, rec: &mut ChallengeRecord) -> Result<(), StoreError> {
        let n = self.with(|c| {
            c.execute(
                "UPDATE challenges SET status = $1, updated_ms = $2, expires_ms = $3, state = $4,
                 version = version + 1 WHERE id = $5 AND version = $6",
                &[
                    &rec.status,
                    &ms(rec.updated_ms),
                    &ms(rec.expires_ms),
                    &rec.state,
                    &rec.id,
                    &ms(rec.version),
                ],
            )
            .map_err(db)
        })?;
        if n == 1 {
            rec.version += 1;
            return Ok(());
        }
        Err(match self.load_challenge(&rec.id)? {
            Some(_) => StoreError::Conflict(rec.id.clone()),
            None => StoreError::NotFound(rec.id.clone()),
        })
    }

    fn challenges_of(
        &self,
        user_id: &str,
        now_ms: u64,
        since_ms: u64,
        limit: usize,
    ) -> Result<Vec<ChallengeRecord>, StoreError> {
        let rows = self.with(|c| {
            c.query(
                &format!("SELECT {COLUMNS} FROM challenges {OF_QUERY}"),
                &[&user_id, &ms(now_ms), &ms(since_ms), &(limit as i64)],
            )
            .map_err(db)
        })?;
        Ok(rows.iter().map(of_row).collect())
    }

    fn touch_challenges(
        &self,
        user_id: &str,
        now_ms: u64,
        away_ms: u64,
        slack_ms: u64,
    ) -> Result<usize, StoreError> {
        let until = ms(now_ms.saturating_add(away_ms));
        let soon = ms(now_ms.saturating_add(away_ms.saturating_sub(slack_ms)));
        let n = self.with(|c| {
            c.execute(
                "UPDATE challenges SET expires_ms = LEAST(deadline_ms, $1)
                 WHERE challenger = $2 AND status = 'pending' AND expires_ms > $3
                   AND expires_ms < $4 AND expires_ms < deadline_ms",
                &[&until, &user_id, &ms(now_ms), &soon],
            )
            .map_err(db)
        })?;
        Ok(n as usize)
    }
}
