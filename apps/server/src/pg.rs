//! PostgreSQL storage ([`PgStore`]) behind the same [`Store`] trait as SQLite, for several
//! `crown-server` instances sharing one database (docs/scaling.md). **Partial**: storage only —
//! the same two tables and versioned `UPDATE` as [`crate::store::SqliteStore`], one connection
//! behind a mutex (no group commit, no read pool); cross-instance fan-out (LISTEN/NOTIFY) and
//! per-game leases are not implemented yet.

use crate::store::{GameMeta, GameRecord, GameSummary, MoveRecord, Store, StoreError};
use postgres::{Client, NoTls};
use std::sync::Mutex;

/// PostgreSQL storage: one synchronous connection (the server calls the store on blocking
/// threads).
pub struct PgStore {
    /// Always `Some` until dropped.
    client: Mutex<Option<Client>>,
}

impl Drop for PgStore {
    fn drop(&mut self) {
        // The blocking client owns a small Tokio runtime, which must not be dropped on an async
        // worker thread (the last reference may go away there): drop it on a plain thread.
        let client = self
            .client
            .get_mut()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        if let Some(c) = client {
            let _ = std::thread::Builder::new()
                .name("crown-pg-close".into())
                .spawn(move || drop(c));
        }
    }
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    meta TEXT NOT NULL,
    plies BIGINT NOT NULL,
    created_ms BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL,
    version BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_status_updated ON games(status, updated_ms);
CREATE INDEX IF NOT EXISTS games_updated ON games(updated_ms);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL,
    ply BIGINT NOT NULL,
    text TEXT NOT NULL,
    at_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE TABLE IF NOT EXISTS server_meta (key TEXT PRIMARY KEY, value BIGINT NOT NULL);
";

fn db(e: postgres::Error) -> StoreError {
    StoreError::Postgres(e.to_string())
}

impl PgStore {
    /// Connect to `url` (`postgres://user@host:port/db`, libpq syntax also accepted) and create
    /// the tables if missing.
    ///
    /// # Errors
    /// [`StoreError::Postgres`] if the server cannot be reached or the schema created.
    pub fn connect(url: &str) -> Result<PgStore, StoreError> {
        let mut client = Client::connect(url, NoTls).map_err(db)?;
        client.batch_execute(SCHEMA).map_err(db)?;
        Ok(PgStore {
            client: Mutex::new(Some(client)),
        })
    }

    fn client(&self) -> ClientGuard<'_> {
        // A panic mid-transaction drops the transaction (rolled back), so the client is reusable.
        ClientGuard(self.client.lock().unwrap_or_else(|e| e.into_inner()))
    }
}

/// The locked connection.
struct ClientGuard<'a>(std::sync::MutexGuard<'a, Option<Client>>);

impl std::ops::Deref for ClientGuard<'_> {
    type Target = Client;
    fn deref(&self) -> &Client {
        // `client` is `None` only inside `drop`, when no guard can exist.
        self.0.as_ref().expect("PgStore used after drop")
    }
}

impl std::ops::DerefMut for ClientGuard<'_> {
    fn deref_mut(&mut self) -> &mut Client {
        self.0.as_mut().expect("PgStore used after drop")
    }
}

fn meta_json(rec: &GameRecord) -> String {
    serde_json::to_string(&rec.meta).unwrap_or_else(|_| "{}".into())
}

fn insert_moves(
    tx: &mut postgres::Transaction<'_>,
    rec: &GameRecord,
    from: usize,
) -> Result<(), StoreError> {
    for (ply, m) in rec.moves.iter().enumerate().skip(from) {
        tx.execute(
            "INSERT INTO moves (game_id, ply, text, at_ms) VALUES ($1, $2, $3, $4)",
            &[&rec.id, &(ply as i64), &m.text, &(m.at_ms as i64)],
        )
        .map_err(db)?;
    }
    Ok(())
}

impl Store for PgStore {
    fn create(&self, rec: &GameRecord) -> Result<(), StoreError> {
        let mut c = self.client();
        let mut tx = c.transaction().map_err(db)?;
        tx.execute(
            "INSERT INTO games (id, variant, start_fen, status, result, meta, plies, created_ms, updated_ms, version)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
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
            ],
        )
        .map_err(db)?;
        insert_moves(&mut tx, rec, 0)?;
        tx.commit().map_err(db)
    }

    fn save(&self, rec: &mut GameRecord, keep_plies: usize) -> Result<(), StoreError> {
        let mut c = self.client();
        let mut tx = c.transaction().map_err(db)?;
        let changed = tx
            .execute(
                "UPDATE games SET status = $2, result = $3, meta = $4, plies = $5, updated_ms = $6,
                     version = version + 1
                 WHERE id = $1 AND version = $7",
                &[
                    &rec.id,
                    &rec.status,
                    &rec.result,
                    &meta_json(rec),
                    &(rec.moves.len() as i64),
                    &(rec.updated_ms as i64),
                    &(rec.version as i64),
                ],
            )
            .map_err(db)?;
        if changed != 1 {
            return Err(StoreError::Conflict(rec.id.clone()));
        }
        tx.execute(
            "DELETE FROM moves WHERE game_id = $1 AND ply >= $2",
            &[&rec.id, &(keep_plies as i64)],
        )
        .map_err(db)?;
        insert_moves(&mut tx, rec, keep_plies)?;
        tx.commit().map_err(db)?;
        rec.version += 1;
        Ok(())
    }

    fn load(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        let mut c = self.client();
        let Some(r) = c
            .query_opt(
                "SELECT variant, start_fen, status, result, meta, created_ms, updated_ms, version
                 FROM games WHERE id = $1",
                &[&id],
            )
            .map_err(db)?
        else {
            return Ok(None);
        };
        let meta: String = r.get(4);
        let meta: GameMeta = serde_json::from_str(&meta).map_err(|e| StoreError::Corrupt {
            id: id.to_string(),
            reason: e.to_string(),
        })?;
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
        Ok(Some(GameRecord {
            id: id.to_string(),
            variant: r.get(0),
            start_fen: r.get(1),
            status: r.get(2),
            result: r.get(3),
            meta,
            moves,
            created_ms: r.get::<_, i64>(5) as u64,
            updated_ms: r.get::<_, i64>(6) as u64,
            version: r.get::<_, i64>(7) as u64,
        }))
    }

    fn list(&self, status: Option<&str>, limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        let rows = self
            .client()
            .query(
                "SELECT id, variant, status, result, plies, created_ms, updated_ms FROM games
                 WHERE ($1::TEXT IS NULL OR status = $1)
                   AND (status <> 'open' OR (meta::jsonb ->> 'public') = 'true')
                 ORDER BY updated_ms DESC, id LIMIT $2",
                &[&status, &(limit as i64)],
            )
            .map_err(db)?;
        Ok(rows
            .iter()
            .map(|r| GameSummary {
                id: r.get(0),
                variant: r.get(1),
                status: r.get(2),
                result: r.get(3),
                plies: r.get::<_, i64>(4) as u64,
                created_ms: r.get::<_, i64>(5) as u64,
                updated_ms: r.get::<_, i64>(6) as u64,
            })
            .collect())
    }

    fn unfinished(&self) -> Result<Vec<String>, StoreError> {
        Ok(self
            .client()
            .query("SELECT id FROM games WHERE status <> 'finished'", &[])
            .map_err(db)?
            .iter()
            .map(|r| r.get(0))
            .collect())
    }

    fn heartbeat(&self, now_ms: u64) -> Result<(), StoreError> {
        self.client()
            .execute(
                "INSERT INTO server_meta (key, value) VALUES ('heartbeat_ms', $1)
                 ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
                &[&(now_ms as i64)],
            )
            .map_err(db)?;
        Ok(())
    }

    fn last_heartbeat(&self) -> Result<Option<u64>, StoreError> {
        Ok(self
            .client()
            .query_opt(
                "SELECT value FROM server_meta WHERE key = 'heartbeat_ms'",
                &[],
            )
            .map_err(db)?
            .map(|r| r.get::<_, i64>(0) as u64))
    }
}
