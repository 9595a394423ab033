//! Ratings and players' finished games in SQLite ([`RatingStore`] for [`SqliteStore`], and the
//! finishing save's part, [`record_finish`], run by the writer inside the save's savepoint).

use super::SqliteStore;
use crate::store::ratings::pair_key;
use crate::store::ratings::{
    archive_sql, count_sql, counts_sql, finish_of, history_sql, leaderboard_sql, pair_history_sql,
    rate, rated_pair, scan_edge_sql, side_of, window_of, Established, OutcomeCounts, PairHistory,
    SqlArg,
};
use crate::store::{
    GameFilter, GameRatings, GameRecord, PlayerGame, RatingRecord, RatingStore, StoreError,
};
use crown_rating::glicko::Glicko2;
use rusqlite::{params, Connection, OptionalExtension};

/// The columns of `player_games` read into a [`PlayerGame`], in [`player_row`]'s order.
pub(crate) const PLAYER_COLUMNS: &str = "game_id, color, user_id, variant, speed, rated, outcome, \
    ended_ms, private, rating_before, deviation_before, volatility_before, rating_after, \
    deviation_after, volatility_after";

/// The columns of `ratings` read into a [`RatingRecord`].
pub(crate) const RATING_COLUMNS: &str =
    "user_id, variant, speed, rating, deviation, volatility, games";

fn glicko(r: Option<f64>, d: Option<f64>, v: Option<f64>) -> Option<Glicko2> {
    Some(Glicko2::new(r?, d?, v?))
}

fn player_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<PlayerGame> {
    Ok(PlayerGame {
        game_id: r.get(0)?,
        color: side_of(&r.get::<_, String>(1)?),
        user_id: r.get(2)?,
        variant: r.get(3)?,
        speed: r.get(4)?,
        rated: r.get::<_, i64>(5)? != 0,
        outcome: r.get(6)?,
        ended_ms: r.get::<_, i64>(7)? as u64,
        private: r.get::<_, i64>(8)? != 0,
        before: glicko(r.get(9)?, r.get(10)?, r.get(11)?),
        after: glicko(r.get(12)?, r.get(13)?, r.get(14)?),
    })
}

fn rating_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<RatingRecord> {
    Ok(RatingRecord {
        user_id: r.get(0)?,
        variant: r.get(1)?,
        speed: r.get(2)?,
        rating: Glicko2::new(r.get(3)?, r.get(4)?, r.get(5)?),
        games: r.get::<_, i64>(6)? as u64,
    })
}

/// Record the end of `rec` (just saved by the writer, in the same savepoint): its
/// `player_games` rows and, for a rated game, both players' new ratings and `meta.ratings`
/// (the game's row is updated). Nothing if the game is not a finished game with a result and a
/// linked seat, or if it was recorded before. Returns the game's ratings when it rated it.
///
/// # Errors
/// [`StoreError::Database`]; the caller's savepoint then undoes the whole save.
pub(super) fn record_finish(
    c: &Connection,
    rec: &GameRecord,
) -> Result<Option<GameRatings>, StoreError> {
    let Some(mut rows) = finish_of(rec) else {
        return Ok(None);
    };
    let done: Option<i64> = c
        .query_row(
            "SELECT 1 FROM player_games WHERE game_id = ?1 LIMIT 1",
            params![rec.id],
            |r| r.get(0),
        )
        .optional()?;
    if done.is_some() {
        return Ok(None);
    }
    let mut rated = None;
    if let Some(keys) = rated_pair(rec) {
        let mut current = [None, None];
        for (slot, (u, v, s)) in current.iter_mut().zip(&keys) {
            *slot = c
                .query_row(
                    "SELECT rating, deviation, volatility FROM ratings
                     WHERE user_id = ?1 AND variant = ?2 AND speed = ?3",
                    params![u, v, s],
                    |r| Ok(Glicko2::new(r.get(0)?, r.get(1)?, r.get(2)?)),
                )
                .optional()?;
        }
        let (game, new) = rate(&mut rows, current);
        for ((u, v, s), n) in keys.iter().zip(new) {
            c.execute(
                "INSERT INTO ratings (user_id, variant, speed, rating, deviation, volatility,
                                      games, updated_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, 1, ?7)
                 ON CONFLICT (user_id, variant, speed) DO UPDATE SET
                     rating = excluded.rating, deviation = excluded.deviation,
                     volatility = excluded.volatility, games = games + 1,
                     updated_ms = excluded.updated_ms",
                params![
                    u,
                    v,
                    s,
                    n.rating,
                    n.deviation,
                    n.volatility,
                    rec.updated_ms as i64
                ],
            )?;
        }
        let mut meta = rec.meta.clone();
        meta.ratings = Some(game);
        c.execute(
            "UPDATE games SET meta = ?2 WHERE id = ?1",
            params![rec.id, serde_json::to_string(&meta).unwrap_or_default()],
        )?;
        rated = Some(game);
    }
    let mut stmt = c.prepare_cached(&format!(
        "INSERT INTO player_games ({PLAYER_COLUMNS})
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)"
    ))?;
    let mut count = c.prepare_cached(&count_sql("?1", "?2", "?3"))?;
    for p in &rows {
        count.execute(params![p.user_id, i64::from(p.rated), p.outcome])?;
        stmt.execute(params![
            p.game_id,
            p.color.name(),
            p.user_id,
            p.variant,
            p.speed,
            i64::from(p.rated),
            p.outcome,
            p.ended_ms as i64,
            i64::from(p.private),
            p.before.map(|g| g.rating),
            p.before.map(|g| g.deviation),
            p.before.map(|g| g.volatility),
            p.after.map(|g| g.rating),
            p.after.map(|g| g.deviation),
            p.after.map(|g| g.volatility),
        ])?;
    }
    Ok(rated)
}

impl RatingStore for SqliteStore {
    fn ratings_of(
        &self,
        keys: &[(String, String, String)],
    ) -> Result<Vec<Option<RatingRecord>>, StoreError> {
        let keys = keys.to_vec();
        self.read(move |c| {
            let mut stmt = c.prepare_cached(&format!(
                "SELECT {RATING_COLUMNS} FROM ratings
                 WHERE user_id = ?1 AND variant = ?2 AND speed = ?3"
            ))?;
            keys.iter()
                .map(|(u, v, s)| Ok(stmt.query_row(params![u, v, s], rating_row).optional()?))
                .collect()
        })
    }

    fn user_ratings(&self, user_id: &str) -> Result<Vec<RatingRecord>, StoreError> {
        let u = user_id.to_string();
        self.read(move |c| {
            let mut stmt = c.prepare_cached(&format!(
                "SELECT {RATING_COLUMNS} FROM ratings WHERE user_id = ?1 ORDER BY variant, speed"
            ))?;
            let rows = stmt
                .query_map(params![u], rating_row)?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
    }

    fn leaderboard(
        &self,
        variant: &str,
        speed: &str,
        established: &Established,
        limit: usize,
    ) -> Result<Vec<(String, RatingRecord)>, StoreError> {
        let (v, s, e) = (variant.to_string(), speed.to_string(), *established);
        self.read(move |c| {
            let mut stmt = c.prepare_cached(&leaderboard_sql([
                "?1", "?2", "?3", "?4", "?5", "?6", "?7", "?8",
            ]))?;
            let rows = stmt
                .query_map(
                    params![
                        v,
                        s,
                        limit as i64,
                        e.min_games.min(i64::MAX as u64) as i64,
                        e.min_opponents.min(i64::MAX as u64) as i64,
                        e.max_deviation,
                        e.min_plies.min(i64::MAX as u64) as i64,
                        window_of(&e)
                    ],
                    |r| {
                        Ok((
                            r.get::<_, String>(0)?,
                            RatingRecord {
                                user_id: r.get(1)?,
                                variant: r.get(2)?,
                                speed: r.get(3)?,
                                rating: Glicko2::new(r.get(4)?, r.get(5)?, r.get(6)?),
                                games: r.get::<_, i64>(7)? as u64,
                            },
                        ))
                    },
                )?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
    }

    fn player_games(&self, user_id: &str, f: &GameFilter) -> Result<Vec<PlayerGame>, StoreError> {
        let (sql, args) = archive_sql(PLAYER_COLUMNS, user_id, f, |n| format!("?{n}"));
        self.read(move |c| {
            let mut stmt = c.prepare_cached(&sql)?;
            let values = args.into_iter().map(|a| match a {
                SqlArg::Text(t) => rusqlite::types::Value::Text(t),
                SqlArg::Int(i) => rusqlite::types::Value::Integer(i),
            });
            let rows = stmt
                .query_map(rusqlite::params_from_iter(values), player_row)?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
    }

    fn rating_history(&self, user_id: &str, limit: usize) -> Result<Vec<PlayerGame>, StoreError> {
        let u = user_id.to_string();
        let limit = limit.min(i64::MAX as usize) as i64;
        self.read(move |c| {
            let mut stmt = c.prepare_cached(&history_sql(PLAYER_COLUMNS, "?1", "?2"))?;
            let rows = stmt
                .query_map(params![u, limit], player_row)?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
    }

    fn scan_edge(
        &self,
        user_id: &str,
        before_ms: Option<u64>,
        offset: usize,
    ) -> Result<Option<u64>, StoreError> {
        let u = user_id.to_string();
        let before = before_ms.map(|b| b.min(i64::MAX as u64) as i64);
        let offset = offset.min(i64::MAX as usize) as i64;
        self.read(move |c| {
            let edges = c
                .prepare_cached(&scan_edge_sql("?1", "?2", "?3"))?
                .query_map(params![u, before, offset], |r| r.get::<_, i64>(0))?
                .collect::<Result<Vec<_>, _>>()?;
            Ok((edges.len() == 2).then(|| edges[0].max(0) as u64))
        })
    }

    fn pair_history(&self, a: &str, b: &str, since_ms: u64) -> Result<PairHistory, StoreError> {
        let (pair, a, b, since) = (
            pair_key(a, b),
            a.to_string(),
            b.to_string(),
            since_ms.min(i64::MAX as u64) as i64,
        );
        self.read(move |c| {
            let sql = pair_history_sql(["?1", "?2", "?3", "?4"]);
            let (same, recent) = c
                .prepare_cached(&sql)?
                .query_row(params![a, b, since, pair], |r| {
                    Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?))
                })?;
            Ok(PairHistory {
                same_network: same > 0,
                recent_rated: recent.max(0) as u64,
            })
        })
    }

    fn outcome_counts(&self, user_id: &str) -> Result<OutcomeCounts, StoreError> {
        let u = user_id.to_string();
        self.read(move |c| {
            let mut stmt = c.prepare_cached(&counts_sql("?1"))?;
            let rows = stmt
                .query_map(params![u], |r| {
                    Ok((
                        r.get::<_, i64>(0)? != 0,
                        r.get::<_, String>(1)?,
                        r.get::<_, i64>(2)? as u64,
                    ))
                })?
                .collect::<Result<Vec<_>, _>>()?;
            Ok(rows)
        })
    }
}
