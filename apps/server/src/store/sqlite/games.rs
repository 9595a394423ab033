//! Games in SQLite ([`Store`] for [`SqliteStore`]): the `games` rows and their `moves`, the
//! server's heartbeat, and the reads of one game, of the unfinished games and of the game list.

use super::{ratings, SqliteStore};
use crate::store::ratings::{rated_pair_key, uncount_sql, PairCheck};
use crate::store::schema::{
    listed_of, listed_query, meta_json, move_rows, ongoing_of_query, parse_meta, summary,
    unstarted_query, Dialect, GameRow, RowUpdate, GAME_COLUMNS, INSERT_COLUMNS, SQLITE_META_JSON,
};
use crate::store::{
    AccountStore, ChatStore, GameMeta, GameRecord, GameSummary, MoveRecord, RatingStore, Store,
    StoreError,
};
use rusqlite::{params, Connection, OptionalExtension};
use std::sync::{Arc, Mutex};

/// Insert `rec`'s moves from ply `from` on.
fn insert_moves(c: &Connection, id: &str, moves: &[(i64, String, i64)]) -> Result<(), StoreError> {
    let mut stmt =
        c.prepare_cached("INSERT INTO moves (game_id, ply, text, at_ms) VALUES (?1, ?2, ?3, ?4)")?;
    for (ply, text, at) in moves {
        stmt.execute(params![id, ply, text, at])?;
    }
    Ok(())
}

/// Write `row` if the stored version is still `row.version` (and increment it).
///
/// # Errors
/// [`StoreError::Conflict`] if the version moved on.
fn update_row(c: &Connection, row: &RowUpdate) -> Result<(), StoreError> {
    let changed = c.execute(
        "UPDATE games SET status = ?2, result = ?3, meta = ?4, plies = ?5, updated_ms = ?6,
             version = version + 1, rated_pair = ?8, listed = ?9
         WHERE id = ?1 AND version = ?7",
        params![
            row.id,
            row.status,
            row.result,
            row.meta,
            row.plies,
            row.updated_ms,
            row.version,
            row.rated_pair,
            row.listed
        ],
    )?;
    if changed != 1 {
        return Err(StoreError::Conflict(row.id.clone()));
    }
    Ok(())
}

/// Refuse with [`StoreError::PairLimit`] a write of game `id` that makes it one of its pair's
/// rated games beyond the cap (`check`; `version`: the version the write expects, `None` for a
/// new game). Run by the writer, in the writing transaction: nothing else writes in between.
fn check_pair(
    c: &Connection,
    id: &str,
    version: Option<i64>,
    check: Option<&PairCheck>,
) -> Result<(), StoreError> {
    let Some(check) = check else { return Ok(()) };
    if let Some(version) = version {
        let stored: Option<(i64, Option<String>)> = c
            .query_row(
                "SELECT version, rated_pair FROM games WHERE id = ?1",
                params![id],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        // A stale version fails as a conflict; a game already of the pair's is counted.
        match stored {
            Some((v, pair)) if v == version && pair.as_deref() != Some(check.pair.as_str()) => {}
            _ => return Ok(()),
        }
    }
    let [a, b] = &check.accounts;
    let recent: i64 = c
        .prepare_cached(&crate::store::ratings::pair_history_sql([
            "?1", "?2", "?3", "?4",
        ]))?
        .query_row(params![a, b, check.since, check.pair], |r| r.get(1))?;
    check.admit(id, recent)
}

/// The [`GameRow`] in the columns of `r` from index `at` on ([`GAME_COLUMNS`]).
fn game_row(r: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<GameRow> {
    Ok(GameRow {
        variant: r.get(at)?,
        start_fen: r.get(at + 1)?,
        status: r.get(at + 2)?,
        result: r.get(at + 3)?,
        meta: r.get(at + 4)?,
        created_ms: r.get(at + 5)?,
        updated_ms: r.get(at + 6)?,
        version: r.get(at + 7)?,
    })
}

fn load_with(conn: &Connection, id: &str) -> Result<Option<GameRecord>, StoreError> {
    let row = conn
        .query_row(
            &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = ?1"),
            params![id],
            |r| game_row(r, 0),
        )
        .optional()?;
    let Some(row) = row else {
        return Ok(None);
    };
    let mut stmt =
        conn.prepare_cached("SELECT text, at_ms FROM moves WHERE game_id = ?1 ORDER BY ply")?;
    let moves = stmt
        .query_map(params![id], |r| {
            Ok(MoveRecord {
                text: r.get(0)?,
                at_ms: r.get::<_, i64>(1)? as u64,
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    row.into_record(id.to_string(), moves).map(Some)
}

fn load_unfinished_with(conn: &Connection) -> Result<Vec<GameRecord>, StoreError> {
    // One read transaction: a consistent snapshot, and one pass over each table.
    conn.execute_batch("BEGIN")?;
    let r = (|| {
        let mut out: Vec<GameRecord> = Vec::new();
        let mut index = std::collections::HashMap::new();
        {
            let mut stmt = conn.prepare(&format!(
                "SELECT id, {GAME_COLUMNS} FROM games WHERE status NOT IN ('finished', 'aborted')"
            ))?;
            let mut rows = stmt.query([])?;
            while let Some(r) = rows.next()? {
                let id: String = r.get(0)?;
                index.insert(id.clone(), out.len());
                out.push(game_row(r, 1)?.into_record(id, Vec::new())?);
            }
        }
        let mut stmt = conn.prepare(
            "SELECT m.game_id, m.text, m.at_ms FROM moves m JOIN games g ON g.id = m.game_id
             WHERE g.status NOT IN ('finished', 'aborted') ORDER BY m.game_id, m.ply",
        )?;
        let mut rows = stmt.query([])?;
        while let Some(r) = rows.next()? {
            let id: String = r.get(0)?;
            if let Some(&i) = index.get(&id) {
                out[i].moves.push(MoveRecord {
                    text: r.get(1)?,
                    at_ms: r.get::<_, i64>(2)? as u64,
                });
            }
        }
        Ok(out)
    })();
    let _ = conn.execute_batch("COMMIT");
    r
}

impl Store for SqliteStore {
    fn cap_rated_pairs(&self, per_day: u32) {
        self.pair_cap
            .store(per_day, std::sync::atomic::Ordering::SeqCst);
    }

    fn create(&self, rec: &GameRecord) -> Result<(), StoreError> {
        let rec = rec.clone();
        let check = PairCheck::of(&rec, self.pair_cap());
        self.write(move |c| {
            check_pair(c, &rec.id, None, check.as_ref())?;
            c.execute(
                &format!(
                    "INSERT INTO games ({INSERT_COLUMNS})
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)"
                ),
                params![
                    rec.id,
                    rec.variant,
                    rec.start_fen,
                    rec.status,
                    rec.result,
                    meta_json(&rec),
                    rec.moves.len() as i64,
                    rec.created_ms as i64,
                    rec.updated_ms as i64,
                    rec.version as i64,
                    rated_pair_key(&rec),
                    listed_of(&rec)
                ],
            )?;
            insert_moves(c, &rec.id, &move_rows(&rec, 0))
        })
    }

    fn save(&self, rec: &mut GameRecord, keep_plies: usize) -> Result<(), StoreError> {
        let row = RowUpdate::of(rec);
        let new_moves = move_rows(rec, keep_plies);
        // A finished game with a linked seat is recorded (and rated) in the same savepoint.
        let finish = crate::store::ratings::finish_of(rec).map(|_| rec.clone());
        let rated = Arc::new(Mutex::new(None));
        let r2 = rated.clone();
        let check = PairCheck::of(rec, self.pair_cap());
        self.write(move |c| {
            check_pair(c, &row.id, Some(row.version), check.as_ref())?;
            update_row(c, &row)?;
            c.execute(
                "DELETE FROM moves WHERE game_id = ?1 AND ply >= ?2",
                params![row.id, keep_plies as i64],
            )?;
            insert_moves(c, &row.id, &new_moves)?;
            if let Some(f) = &finish {
                *r2.lock().unwrap_or_else(|e| e.into_inner()) = ratings::record_finish(c, f)?;
            }
            Ok(())
        })?;
        rec.version += 1;
        if let Some(g) = rated.lock().unwrap_or_else(|e| e.into_inner()).take() {
            rec.meta.ratings = Some(g);
        }
        Ok(())
    }

    fn save_rows(&self, recs: &mut [GameRecord]) -> Result<(), StoreError> {
        let rows: Vec<RowUpdate> = recs.iter().map(RowUpdate::of).collect();
        self.write(move |c| rows.iter().try_for_each(|r| update_row(c, r)))?;
        for rec in recs {
            rec.version += 1;
        }
        Ok(())
    }

    fn load(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        let id = id.to_string();
        self.read(move |c| load_with(c, &id))
    }

    fn load_unfinished(&self) -> Result<Vec<GameRecord>, StoreError> {
        self.read(load_unfinished_with)
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
        let status = status.map(str::to_string);
        self.read(move |conn| {
            let mut stmt = conn.prepare_cached(&listed_query(
                Dialect::Sqlite,
                status.is_some(),
                ["?1", "?3", "?2"],
            ))?;
            let rows = stmt
                .query_map(params![status, limit as i64, since_ms as i64], |r| {
                    Ok((
                        summary(
                            (r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?),
                            [r.get(4)?, r.get(5)?, r.get(6)?],
                            r.get(7)?,
                            r.get(8)?,
                        ),
                        r.get::<_, String>(9)?,
                    ))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            rows.into_iter()
                .map(|(s, meta)| {
                    let meta = parse_meta(&s.id, &meta)?;
                    Ok((s, meta))
                })
                .collect()
        })
    }

    fn chat(&self) -> Option<&dyn ChatStore> {
        Some(self)
    }

    fn ongoing_of(&self, user_id: &str, limit: usize) -> Result<Vec<String>, StoreError> {
        let user = user_id.to_string();
        self.read(move |conn| {
            let [_, _, black, white] = SQLITE_META_JSON;
            let sql = ongoing_of_query(black, white)
                .replace("$1", "?1")
                .replace("$2", "?2");
            let mut stmt = conn.prepare_cached(&sql)?;
            let ids = stmt
                .query_map(params![user, limit as i64], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()?;
            Ok(ids)
        })
    }

    fn unfinished(&self) -> Result<Vec<String>, StoreError> {
        self.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id FROM games WHERE status NOT IN ('finished', 'aborted')",
            )?;
            let ids = stmt
                .query_map([], |r| r.get(0))?
                .collect::<Result<Vec<String>, _>>()?;
            Ok(ids)
        })
    }

    fn purge_unstarted(
        &self,
        ended_before_ms: u64,
        guest_min_plies: u32,
        limit: usize,
    ) -> Result<usize, StoreError> {
        let purged = Arc::new(Mutex::new(0usize));
        let count = purged.clone();
        self.write(move |c| {
            let ids = c
                .prepare_cached(&unstarted_query(Dialect::Sqlite, "?1", "?2", "?3"))?
                .query_map(
                    params![ended_before_ms as i64, guest_min_plies, limit as i64],
                    |r| r.get::<_, String>(0),
                )?
                .collect::<Result<Vec<_>, _>>()?;
            for id in &ids {
                c.execute(&uncount_sql("= ?1"), params![id])?;
                c.execute("DELETE FROM player_games WHERE game_id = ?1", params![id])?;
                c.execute("DELETE FROM chat WHERE game_id = ?1", params![id])?;
                c.execute("DELETE FROM moves WHERE game_id = ?1", params![id])?;
                c.execute("DELETE FROM games WHERE id = ?1", params![id])?;
            }
            *count.lock().unwrap_or_else(|e| e.into_inner()) = ids.len();
            Ok(())
        })?;
        let n = *purged.lock().unwrap_or_else(|e| e.into_inner());
        Ok(n)
    }

    fn heartbeat(&self, now_ms: u64) -> Result<(), StoreError> {
        self.write(move |c| {
            c.execute(
                "INSERT INTO server_meta (key, value) VALUES ('heartbeat_ms', ?1)
                 ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                params![now_ms as i64],
            )?;
            Ok(())
        })
    }

    fn last_heartbeat(&self) -> Result<Option<u64>, StoreError> {
        self.read(|c| {
            Ok(c.query_row(
                "SELECT value FROM server_meta WHERE key = 'heartbeat_ms'",
                [],
                |r| r.get::<_, i64>(0),
            )
            .optional()?
            .map(|v| v as u64))
        })
    }

    fn accounts(&self) -> Option<&dyn AccountStore> {
        Some(self)
    }

    fn ratings(&self) -> Option<&dyn RatingStore> {
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
}
