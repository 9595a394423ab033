//! Games in PostgreSQL ([`Store`] for [`PgStore`]): the `games` rows and their `moves`, the
//! heartbeat, versions, change notifications and the reads of many games in one snapshot; saves
//! go through the committer ([`PgStore::save_batch`]); the chat and the leases are parts of
//! their own (`pg/chat.rs`, `pg/leases.rs`).

use super::{db, PgStore};
use crate::store::ratings::{rated_pair_key, uncount_sql, PairCheck};
use crate::store::schema::{
    listed_of, listed_query, meta_json, move_rows, ongoing_of_query, parse_meta, summary,
    unstarted_query, Dialect, GameRow, GAME_COLUMNS, INSERT_COLUMNS, PG_META_JSON,
};
use crate::store::{
    ChatStore, GameMeta, GameRecord, GameSummary, LeaseStore, MoveRecord, Store, StoreError,
};
use postgres::Client;

fn insert_moves(
    tx: &mut postgres::Transaction<'_>,
    rec: &GameRecord,
    from: usize,
) -> Result<(), StoreError> {
    for (ply, text, at) in move_rows(rec, from) {
        tx.execute(
            "INSERT INTO moves (game_id, ply, text, at_ms) VALUES ($1, $2, $3, $4)",
            &[&rec.id, &ply, &text, &at],
        )
        .map_err(db)?;
    }
    Ok(())
}

fn read_game(c: &mut Client, id: &str) -> Result<Option<GameRecord>, StoreError> {
    let Some(r) = c
        .query_opt(
            &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"),
            &[&id],
        )
        .map_err(db)?
    else {
        return Ok(None);
    };
    let row = GameRow {
        variant: r.get(0),
        start_fen: r.get(1),
        status: r.get(2),
        result: r.get(3),
        meta: r.get(4),
        created_ms: r.get(5),
        updated_ms: r.get(6),
        version: r.get(7),
    };
    let moves = c
        .query(
            "SELECT text, at_ms FROM moves WHERE game_id = $1 ORDER BY ply",
            &[&id],
        )
        .map_err(db)?
        .iter()
        .map(|m| MoveRecord {
            text: m.get(0),
            at_ms: m.get::<_, i64>(1) as u64,
        })
        .collect();
    row.into_record(id.to_string(), moves).map(Some)
}

impl Store for PgStore {
    fn cap_rated_pairs(&self, per_day: u32) {
        self.pair_cap
            .store(per_day, std::sync::atomic::Ordering::SeqCst);
    }

    fn create(&self, rec: &GameRecord) -> Result<(), StoreError> {
        let check = PairCheck::of(rec, self.pair_cap());
        self.with(|c| {
            let mut tx = c.transaction().map_err(db)?;
            if let Some(check) = &check {
                super::lock_pairs(&mut tx, &[check.pair.as_str()]).map_err(db)?;
                let recent = super::pair_recent(&mut tx, check).map_err(db)?;
                check.admit(&rec.id, recent)?;
            }
            tx.execute(
                &format!(
                    "INSERT INTO games ({INSERT_COLUMNS})
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)"
                ),
                &[
                    &rec.id,
                    &rec.variant,
                    &rec.start_fen,
                    &rec.status,
                    &rec.result,
                    &meta_json(rec),
                    &(rec.moves.len() as i64),
                    &(rec.created_ms as i64),
                    &(rec.updated_ms as i64),
                    &(rec.version as i64),
                    &rated_pair_key(rec),
                    &listed_of(rec),
                ],
            )
            .map_err(db)?;
            insert_moves(&mut tx, rec, 0)?;
            tx.commit().map_err(db)
        })
    }

    fn save(&self, rec: &mut GameRecord, keep_plies: usize) -> Result<(), StoreError> {
        self.save_batch(&mut [(rec, keep_plies)])
            .pop()
            .unwrap_or(Err(StoreError::Closed))
    }

    fn save_rows(&self, recs: &mut [GameRecord]) -> Result<(), StoreError> {
        let mut saves: Vec<(&mut GameRecord, usize)> = recs
            .iter_mut()
            .map(|r| {
                let keep = r.moves.len();
                (r, keep)
            })
            .collect();
        self.save_batch(&mut saves).into_iter().collect()
    }

    fn load(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        self.with(|c| read_game(c, id))
    }

    fn list(&self, status: Option<&str>, limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        Ok(self
            .listed(status, 0, limit)?
            .into_iter()
            .map(|(s, _)| s)
            .collect())
    }

    fn listed(
        &self,
        status: Option<&str>,
        since_ms: u64,
        limit: usize,
    ) -> Result<Vec<(GameSummary, GameMeta)>, StoreError> {
        let rows = self.with(|c| {
            c.query(
                &listed_query(
                    Dialect::Postgres,
                    status.is_some(),
                    ["$1::TEXT", "$3", "$2"],
                ),
                &[&status, &(limit as i64), &(since_ms as i64)],
            )
            .map_err(db)
        })?;
        rows.iter()
            .map(|r| {
                let s = summary(
                    (r.get(0), r.get(1), r.get(2), r.get(3)),
                    [r.get(4), r.get(5), r.get(6)],
                    r.get(7),
                    r.get(8),
                );
                let meta = parse_meta(&s.id, r.get(9))?;
                Ok((s, meta))
            })
            .collect()
    }

    fn ongoing_of(&self, user_id: &str, limit: usize) -> Result<Vec<String>, StoreError> {
        Ok(self
            .with(|c| {
                let [_, _, black, white] = PG_META_JSON;
                c.query(
                    &ongoing_of_query(black, white),
                    &[&user_id, &(limit as i64)],
                )
                .map_err(db)
            })?
            .iter()
            .map(|r| r.get(0))
            .collect())
    }

    fn unfinished(&self) -> Result<Vec<String>, StoreError> {
        Ok(self
            .with(|c| {
                c.query(
                    "SELECT id FROM games WHERE status NOT IN ('finished', 'aborted')",
                    &[],
                )
                .map_err(db)
            })?
            .iter()
            .map(|r| r.get(0))
            .collect())
    }

    fn purge_unstarted(
        &self,
        ended_before_ms: u64,
        guest_min_plies: u32,
        limit: usize,
    ) -> Result<usize, StoreError> {
        let n = self.with(|c| {
            c.execute(
                &format!(
                    "WITH doomed AS ({} FOR UPDATE SKIP LOCKED),
                          c AS (DELETE FROM chat WHERE game_id IN (SELECT id FROM doomed)),
                          m AS (DELETE FROM moves WHERE game_id IN (SELECT id FROM doomed)),
                          l AS (DELETE FROM leases WHERE game_id IN (SELECT id FROM doomed)),
                          n AS ({}),
                          a AS (DELETE FROM player_games WHERE game_id IN (SELECT id FROM doomed))
                     DELETE FROM games WHERE id IN (SELECT id FROM doomed)",
                    unstarted_query(Dialect::Postgres, "$1", "$2", "$3"),
                    uncount_sql("IN (SELECT id FROM doomed)")
                ),
                &[
                    &(ended_before_ms as i64),
                    &i64::from(guest_min_plies),
                    &(limit as i64),
                ],
            )
            .map_err(db)
        })?;
        Ok(n as usize)
    }

    fn heartbeat(&self, now_ms: u64) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO server_meta (key, value) VALUES ('heartbeat_ms', $1)
                 ON CONFLICT (key) DO UPDATE
                 SET value = GREATEST(server_meta.value, EXCLUDED.value)",
                &[&(now_ms as i64)],
            )
            .map_err(db)
        })?;
        Ok(())
    }

    fn last_heartbeat(&self) -> Result<Option<u64>, StoreError> {
        Ok(self
            .with(|c| {
                c.query_opt(
                    "SELECT value FROM server_meta WHERE key = 'heartbeat_ms'",
                    &[],
                )
                .map_err(db)
            })?
            .map(|r| r.get::<_, i64>(0) as u64))
    }

    fn chat(&self) -> Option<&dyn ChatStore> {
        Some(self)
    }

    fn leases(&self) -> Option<&dyn LeaseStore> {
        Some(self)
    }

    fn accounts(&self) -> Option<&dyn crate::store::AccountStore> {
        Some(self)
    }

    fn ratings(&self) -> Option<&dyn crate::store::RatingStore> {
        Some(self)
    }

    fn puzzles(&self) -> Option<&dyn crate::store::PuzzleStore> {
        Some(self)
    }

    fn tournaments(&self) -> Option<&dyn crate::store::TournamentStore> {
        Some(self)
    }

    fn imports(&self) -> Option<&dyn crate::store::ImportStore> {
        Some(self)
    }

    fn challenges(&self) -> Option<&dyn crate::store::ChallengeStore> {
        Some(self)
    }

    fn tokens(&self) -> Option<&dyn crate::store::TokenStore> {
        Some(self)
    }

    fn version(&self, id: &str) -> Result<Option<u64>, StoreError> {
        Ok(self
            .with(|c| {
                c.query_opt("SELECT version FROM games WHERE id = $1", &[&id])
                    .map_err(db)
            })?
            .map(|r| r.get::<_, i64>(0) as u64))
    }

    fn load_many(&self, ids: &[String]) -> Result<Vec<GameRecord>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        self.with(|c| {
            // One snapshot for the rows and their moves: a move committed between the two reads
            // is in neither or in both.
            let mut tx = c
                .build_transaction()
                .isolation_level(postgres::IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()
                .map_err(db)?;
            let rows = tx
                .query(
                    &format!("SELECT id, {GAME_COLUMNS} FROM games WHERE id = ANY($1)"),
                    &[&ids],
                )
                .map_err(db)?;
            let mut moves: std::collections::HashMap<String, Vec<MoveRecord>> =
                std::collections::HashMap::new();
            for m in tx
                .query(
                    "SELECT game_id, text, at_ms FROM moves WHERE game_id = ANY($1)
                     ORDER BY game_id, ply",
                    &[&ids],
                )
                .map_err(db)?
            {
                moves.entry(m.get(0)).or_default().push(MoveRecord {
                    text: m.get(1),
                    at_ms: m.get::<_, i64>(2) as u64,
                });
            }
            tx.commit().map_err(db)?;
            rows.iter()
                .map(|r| {
                    let id: String = r.get(0);
                    let row = GameRow {
                        variant: r.get(1),
                        start_fen: r.get(2),
                        status: r.get(3),
                        result: r.get(4),
                        meta: r.get(5),
                        created_ms: r.get(6),
                        updated_ms: r.get(7),
                        version: r.get(8),
                    };
                    let m = moves.remove(&id).unwrap_or_default();
                    row.into_record(id, m)
                })
                .collect()
        })
    }
}
