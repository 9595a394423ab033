//! API tokens and bot accounts in PostgreSQL (store/tokens.rs): the `api_tokens` and `bots`
//! tables shared by every instance; each check-then-write runs in a transaction holding the
//! account's row locked (`FOR UPDATE`), so two instances cannot both pass the check.

use super::{db, PgStore};
use crate::store::schema::PG_META_JSON;
use crate::store::tokens::{
    games_of_query, has_games_query, join_scopes, split_scopes, COLUMNS, OWNER_QUERY,
};
use crate::store::{BotUpgrade, StoreError, TokenOwner, TokenRecord, TokenStore};
use postgres::Row;

/// A row read in [`COLUMNS`]' order.
fn of_row(r: &Row) -> TokenRecord {
    TokenRecord {
        id: r.get(0),
        token_hash: r.get(1),
        user_id: r.get(2),
        description: r.get(3),
        scopes: split_scopes(&r.get::<_, String>(4)),
        created_ms: r.get::<_, i64>(5) as u64,
    }
}

impl TokenStore for PgStore {
    fn create_token(&self, rec: &TokenRecord, max: usize) -> Result<bool, StoreError> {
        self.with(|c| {
            let mut tx = c.transaction().map_err(db)?;
            tx.execute(
                "SELECT 1 FROM users WHERE id = $1 FOR UPDATE",
                &[&rec.user_id],
            )
            .map_err(db)?;
            let n: i64 = tx
                .query_one(
                    "SELECT COUNT(*) FROM api_tokens WHERE user_id = $1",
                    &[&rec.user_id],
                )
                .map_err(db)?
                .get(0);
            if n as usize >= max {
                return Ok(false);
            }
            tx.execute(
                &format!("INSERT INTO api_tokens ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)"),
                &[
                    &rec.id,
                    &rec.token_hash,
                    &rec.user_id,
                    &rec.description,
                    &join_scopes(&rec.scopes),
                    &(rec.created_ms as i64),
                ],
            )
            .map_err(db)?;
            tx.commit().map_err(db)?;
            Ok(true)
        })
    }

    fn tokens_of(&self, user_id: &str) -> Result<Vec<TokenRecord>, StoreError> {
        let rows = self.with(|c| {
            c.query(
                &format!(
                    "SELECT {COLUMNS} FROM api_tokens WHERE user_id = $1 ORDER BY created_ms, id"
                ),
                &[&user_id],
            )
            .map_err(db)
        })?;
        Ok(rows.iter().map(of_row).collect())
    }

    fn delete_token(&self, user_id: &str, id: &str) -> Result<bool, StoreError> {
        let n = self.with(|c| {
            c.execute(
                "DELETE FROM api_tokens WHERE user_id = $1 AND id = $2",
                &[&user_id, &id],
            )
            .map_err(db)
        })?;
        Ok(n == 1)
    }

    fn token(&self, token_hash: &str) -> Result<Option<TokenOwner>, StoreError> {
        let row = self.with(|c| c.query_opt(OWNER_QUERY, &[&token_hash]).map_err(db))?;
        Ok(row.map(|r| TokenOwner {
            token: of_row(&r),
            name: r.get(6),
            bot: r.get(7),
        }))
    }

    fn make_bot(&self, user_id: &str, now_ms: u64) -> Result<BotUpgrade, StoreError> {
        self.with(|c| {
            let mut tx = c.transaction().map_err(db)?;
            tx.execute("SELECT 1 FROM users WHERE id = $1 FOR UPDATE", &[&user_id])
                .map_err(db)?;
            if tx
                .query_opt("SELECT 1 FROM bots WHERE user_id = $1", &[&user_id])
                .map_err(db)?
                .is_some()
            {
                return Ok(BotUpgrade::AlreadyBot);
            }
            let [_, _, black, white] = PG_META_JSON;
            let played: bool = tx
                .query_one(&has_games_query(black, white), &[&user_id])
                .map_err(db)?
                .get(0);
            if played {
                return Ok(BotUpgrade::HasGames);
            }
            tx.execute(
                "INSERT INTO bots (user_id, created_ms) VALUES ($1, $2)",
                &[&user_id, &(now_ms as i64)],
            )
            .map_err(db)?;
            tx.commit().map_err(db)?;
            Ok(BotUpgrade::Upgraded)
        })
    }

    fn bots_among(&self, user_ids: &[String]) -> Result<Vec<String>, StoreError> {
        let ids = user_ids.to_vec();
        let rows = self.with(|c| {
            c.query("SELECT user_id FROM bots WHERE user_id = ANY($1)", &[&ids])
                .map_err(db)
        })?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn games_of(&self, user_id: &str, limit: usize) -> Result<Vec<String>, StoreError> {
        let [_, _, black, white] = PG_META_JSON;
        let rows = self.with(|c| {
            c.query(&games_of_query(black, white), &[&user_id, &(limit as i64)])
                .map_err(db)
        })?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }
}
