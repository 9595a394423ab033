//! Ratings and players' finished games in PostgreSQL ([`RatingStore`] for [`PgStore`], and the
//! finishing saves' part, [`record_finishes`], run by the committer inside the batch's
//! transaction). Rating rows are locked in one order (by key) before they are read, so two
//! instances rating games of the same player wait for each other instead of losing an update.

use super::{db, PgStore};
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
use std::collections::{BTreeMap, HashSet};

/// The columns of `player_games` read into a [`PlayerGame`], in [`player_row`]'s order.
const PLAYER_COLUMNS: &str = "game_id, color, user_id, variant, speed, rated, outcome, \
    ended_ms, private, rating_before, deviation_before, volatility_before, rating_after, \
    deviation_after, volatility_after";

/// The columns of `ratings` read into a [`RatingRecord`].
const RATING_COLUMNS: &str = "user_id, variant, speed, rating, deviation, volatility, games";

fn glicko(r: Option<f64>, d: Option<f64>, v: Option<f64>) -> Option<Glicko2> {
    Some(Glicko2::new(r?, d?, v?))
}

fn player_row(r: &postgres::Row) -> PlayerGame {
    PlayerGame {
        game_id: r.get(0),
        color: side_of(r.get(1)),
        user_id: r.get(2),
        variant: r.get(3),
        speed: r.get(4),
        rated: r.get::<_, i64>(5) != 0,
        outcome: r.get(6),
        ended_ms: r.get::<_, i64>(7) as u64,
        private: r.get::<_, i64>(8) != 0,
        before: glicko(r.get(9), r.get(10), r.get(11)),
        after: glicko(r.get(12), r.get(13), r.get(14)),
    }
}

fn rating_row(r: &postgres::Row) -> RatingRecord {
    RatingRecord {
        user_id: r.get(0),
        variant: r.get(1),
        speed: r.get(2),
        rating: Glicko2::new(r.get(3), r.get(4), r.get(5)),
        games: r.get::<_, i64>(6) as u64,
    }
}

type Key = (String, String, String);

/// Record the end of the games `recs` (just saved in `tx`, distinct ids): their `player_games`
/// rows and, for rated games, the players' new ratings and `meta.ratings` (the games' rows are
/// updated). A game already recorded, or not finished with a result and a linked seat, is left
/// alone. Returns, per game, its ratings when this rated it.
///
/// # Errors
/// PostgreSQL's (the committer retries a deadlock with the whole transaction).
pub(super) fn record_finishes(
    tx: &mut postgres::Transaction<'_>,
    recs: &[&GameRecord],
) -> Result<Vec<Option<GameRatings>>, postgres::Error> {
    let mut out = vec![None; recs.len()];
    let ids: Vec<String> = recs.iter().map(|r| r.id.clone()).collect();
    let done: HashSet<String> = tx
        .query(
            "SELECT DISTINCT game_id FROM player_games WHERE game_id = ANY($1)",
            &[&ids],
        )?
        .iter()
        .map(|r| r.get(0))
        .collect();
    let todo: Vec<(usize, Vec<PlayerGame>)> = recs
        .iter()
        .enumerate()
        .filter(|(_, r)| !done.contains(&r.id))
        .filter_map(|(i, r)| Some((i, finish_of(r)?)))
        .collect();
    // Every rating the batch touches, created if new and locked in key order.
    let mut current: BTreeMap<Key, (Glicko2, i64)> = BTreeMap::new();
    for (i, _) in &todo {
        for k in rated_pair(recs[*i]).into_iter().flatten() {
            current.insert(k, (Glicko2::default(), 0));
        }
    }
    let now = recs.iter().map(|r| r.updated_ms).max().unwrap_or(0) as i64;
    for ((u, v, s), slot) in current.iter_mut() {
        let d = Glicko2::default();
        tx.execute(
            "INSERT INTO ratings (user_id, variant, speed, rating, deviation, volatility, games,
                                  updated_ms)
             VALUES ($1, $2, $3, $4, $5, $6, 0, $7) ON CONFLICT DO NOTHING",
            &[u, v, s, &d.rating, &d.deviation, &d.volatility, &now],
        )?;
        let r = tx.query_one(
            "SELECT rating, deviation, volatility FROM ratings
             WHERE user_id = $1 AND variant = $2 AND speed = $3 FOR UPDATE",
            &[u, v, s],
        )?;
        *slot = (Glicko2::new(r.get(0), r.get(1), r.get(2)), 0);
    }
    let mut rows_out: Vec<PlayerGame> = Vec::new();
    for (i, mut rows) in todo {
        let rec = recs[i];
        if let Some(keys) = rated_pair(rec) {
            let now_of = |k: &Key| current.get(k).map(|c| c.0);
            let (game, new) = rate(&mut rows, [now_of(&keys[0]), now_of(&keys[1])]);
            for (k, n) in keys.iter().zip(new) {
                if let Some(c) = current.get_mut(k) {
                    *c = (n, c.1 + 1);
                }
            }
            let mut meta = rec.meta.clone();
            meta.ratings = Some(game);
            tx.execute(
                "UPDATE games SET meta = $2 WHERE id = $1",
                &[&rec.id, &serde_json::to_string(&meta).unwrap_or_default()],
            )?;
            out[i] = Some(game);
        }
        rows_out.extend(rows);
    }
    for ((u, v, s), (g, n)) in &current {
        if *n > 0 {
            tx.execute(
                "UPDATE ratings SET rating = $4, deviation = $5, volatility = $6,
                     games = games + $7, updated_ms = $8
                 WHERE user_id = $1 AND variant = $2 AND speed = $3",
                &[u, v, s, &g.rating, &g.deviation, &g.volatility, n, &now],
            )?;
        }
    }
    for p in &rows_out {
        tx.execute(
            &count_sql("$1", "$2", "$3"),
            &[&p.user_id, &i64::from(p.rated), &p.outcome],
        )?;
        tx.execute(
            &format!(
                "INSERT INTO player_games ({PLAYER_COLUMNS})
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)"
            ),
            &[
                &p.game_id,
                &p.color.name(),
                &p.user_id,
                &p.variant,
                &p.speed,
                &i64::from(p.rated),
                &p.outcome,
                &(p.ended_ms as i64),
                &i64::from(p.private),
                &p.before.map(|g| g.rating),
                &p.before.map(|g| g.deviation),
                &p.before.map(|g| g.volatility),
                &p.after.map(|g| g.rating),
                &p.after.map(|g| g.deviation),
                &p.after.map(|g| g.volatility),
            ],
        )?;
    }
    Ok(out)
}

impl RatingStore for PgStore {
    fn ratings_of(&self, keys: &[Key]) -> Result<Vec<Option<RatingRecord>>, StoreError> {
        self.with(|c| {
            keys.iter()
                .map(|(u, v, s)| {
                    c.query_opt(
                        &format!(
                            "SELECT {RATING_COLUMNS} FROM ratings
                             WHERE user_id = $1 AND variant = $2 AND speed = $3 AND games > 0"
                        ),
                        &[u, v, s],
                    )
                    .map(|r| r.as_ref().map(rating_row))
                    .map_err(db)
                })
                .collect()
        })
    }

    fn user_ratings(&self, user_id: &str) -> Result<Vec<RatingRecord>, StoreError> {
        self.with(|c| {
            Ok(c.query(
                &format!(
                    "SELECT {RATING_COLUMNS} FROM ratings WHERE user_id = $1 AND games > 0
                     ORDER BY variant, speed"
                ),
                &[&user_id],
            )
            .map_err(db)?
            .iter()
            .map(rating_row)
            .collect())
        })
    }

    fn leaderboard(
        &self,
        variant: &str,
        speed: &str,
        established: &Established,
        limit: usize,
    ) -> Result<Vec<(String, RatingRecord)>, StoreError> {
        let games = established.min_games.min(i64::MAX as u64) as i64;
        let opponents = established.min_opponents.min(i64::MAX as u64) as i64;
        let plies = established.min_plies.min(i64::MAX as u64) as i64;
        self.with(|c| {
            Ok(c.query(
                &leaderboard_sql(["$1", "$2", "$3", "$4", "$5", "$6", "$7", "$8::BIGINT"]),
                &[
                    &variant,
                    &speed,
                    &(limit as i64),
                    &games,
                    &opponents,
                    &established.max_deviation,
                    &plies,
                    &window_of(established),
                ],
            )
            .map_err(db)?
            .iter()
            .map(|r| {
                (
                    r.get(0),
                    RatingRecord {
                        user_id: r.get(1),
                        variant: r.get(2),
                        speed: r.get(3),
                        rating: Glicko2::new(r.get(4), r.get(5), r.get(6)),
                        games: r.get::<_, i64>(7) as u64,
                    },
                )
            })
            .collect())
        })
    }

    fn player_games(&self, user_id: &str, f: &GameFilter) -> Result<Vec<PlayerGame>, StoreError> {
        let (sql, args) = archive_sql(PLAYER_COLUMNS, user_id, f, |n| format!("${n}"));
        let values: Vec<Box<dyn postgres::types::ToSql + Sync>> = args
            .into_iter()
            .map(|a| -> Box<dyn postgres::types::ToSql + Sync> {
                match a {
                    SqlArg::Text(t) => Box::new(t),
                    SqlArg::Int(i) => Box::new(i),
                }
            })
            .collect();
        let refs: Vec<&(dyn postgres::types::ToSql + Sync)> =
            values.iter().map(|v| v.as_ref()).collect();
        self.with(|c| {
            Ok(c.query(&sql, &refs)
                .map_err(db)?
                .iter()
                .map(player_row)
                .collect())
        })
    }

    fn rating_history(&self, user_id: &str, limit: usize) -> Result<Vec<PlayerGame>, StoreError> {
        let limit = limit.min(i64::MAX as usize) as i64;
        self.with(|c| {
            Ok(c.query(
                &history_sql(PLAYER_COLUMNS, "$1", "$2"),
                &[&user_id, &limit],
            )
            .map_err(db)?
            .iter()
            .map(player_row)
            .collect())
        })
    }

    fn scan_edge(
        &self,
        user_id: &str,
        before_ms: Option<u64>,
        offset: usize,
    ) -> Result<Option<u64>, StoreError> {
        let before = before_ms.map(|b| b.min(i64::MAX as u64) as i64);
        let offset = offset.min(i64::MAX as usize) as i64;
        self.with(|c| {
            let edges = c
                .query(
                    &scan_edge_sql("$1", "$2::BIGINT", "$3"),
                    &[&user_id, &before, &offset],
                )
                .map_err(db)?;
            Ok((edges.len() == 2).then(|| edges[0].get::<_, i64>(0).max(0) as u64))
        })
    }

    fn pair_history(&self, a: &str, b: &str, since_ms: u64) -> Result<PairHistory, StoreError> {
        let since = since_ms.min(i64::MAX as u64) as i64;
        let pair = pair_key(a, b);
        let sql = pair_history_sql(["$1", "$2", "$3", "$4"]);
        self.with(|c| {
            let r = c.query_one(&sql, &[&a, &b, &since, &pair]).map_err(db)?;
            Ok(PairHistory {
                same_network: r.get::<_, i64>(0) > 0,
                recent_rated: r.get::<_, i64>(1).max(0) as u64,
            })
        })
    }

    fn outcome_counts(&self, user_id: &str) -> Result<OutcomeCounts, StoreError> {
        self.with(|c| {
            Ok(c.query(&counts_sql("$1"), &[&user_id])
                .map_err(db)?
                .iter()
                .map(|r| (r.get::<_, i64>(0) != 0, r.get(1), r.get::<_, i64>(2) as u64))
                .collect())
        })
    }
}
