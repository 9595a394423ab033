//! PostgreSQL storage ([`PgStore`]) behind the same [`Store`] trait as SQLite, for several
//! `crown-server` instances sharing one database (docs/scaling.md).
//!
//! - The same two tables and versioned `UPDATE` as [`crate::store::SqliteStore`], over a small
//!   pool of connections (each call takes one; a broken connection is dropped and reopened).
//! - Every committed save sends `NOTIFY crown_games, '<version> <id>'` inside its transaction
//!   (PostgreSQL delivers it only if the transaction commits); a listener thread with its own
//!   connection turns them into [`Store::changes`].
//! - A `leases` table (`game_id`, `owner`, `expires_ms`) gives each unfinished game one owning
//!   instance, which alone runs its clock (flag falls, expiry) and its engine moves
//!   ([`Store::lease_round`]).
//! - Chat messages: a `chat` table and a `crown_chat` notification channel of their own
//!   (`pg/chat.rs`).

mod chat;

use crate::store::{
    Change, ChatRecord, GameMeta, GameRecord, GameSummary, Leases, MoveRecord, Store, StoreError,
};
use postgres::fallible_iterator::FallibleIterator;
use postgres::{Client, NoTls};
use std::sync::{Condvar, Mutex};
use std::time::Duration;

/// Connections in the pool unless [`PgStore::connect_with`] says otherwise.
pub const DEFAULT_POOL: usize = 8;

/// The channel of change notifications.
const CHANNEL: &str = "crown_games";

/// PostgreSQL storage: a pool of synchronous connections (the server calls the store on blocking
/// threads) and a notification listener.
pub struct PgStore {
    url: String,
    size: usize,
    /// Idle connections, and how many exist in all (idle or lent).
    pool: Mutex<(Vec<Client>, usize)>,
    freed: Condvar,
    changes: Mutex<Option<tokio::sync::mpsc::UnboundedReceiver<Change>>>,
}

/// Drop clients on a plain thread: the blocking client owns a small Tokio runtime, which must not
/// be dropped on an async worker thread (the last reference may go away there).
fn drop_clients(clients: Vec<Client>) {
    if clients.is_empty() {
        return;
    }
    let _ = std::thread::Builder::new()
        .name("crown-pg-close".into())
        .spawn(move || drop(clients));
}

impl Drop for PgStore {
    fn drop(&mut self) {
        let idle = std::mem::take(&mut self.pool.get_mut().unwrap_or_else(|e| e.into_inner()).0);
        drop_clients(idle);
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
CREATE TABLE IF NOT EXISTS leases (
    game_id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS leases_owner ON leases(owner);
";

fn db(e: postgres::Error) -> StoreError {
    StoreError::Postgres(e.to_string())
}

impl PgStore {
    /// Connect to `url` (`postgres://user@host:port/db`, libpq syntax also accepted) with a pool
    /// of [`DEFAULT_POOL`] connections and create the tables if missing.
    ///
    /// # Errors
    /// [`StoreError::Postgres`] if the server cannot be reached or the schema created.
    pub fn connect(url: &str) -> Result<PgStore, StoreError> {
        Self::connect_with(url, DEFAULT_POOL)
    }

    /// [`PgStore::connect`] with at most `pool` connections (at least 1) for queries, plus one
    /// for the notification listener.
    ///
    /// # Errors
    /// [`StoreError::Postgres`] if the server cannot be reached or the schema created.
    pub fn connect_with(url: &str, pool: usize) -> Result<PgStore, StoreError> {
        let mut client = Client::connect(url, NoTls).map_err(db)?;
        // Two instances starting together may both create the tables: serialise on a lock.
        let mut tx = client.transaction().map_err(db)?;
        tx.execute("SELECT pg_advisory_xact_lock(7305)", &[])
            .map_err(db)?;
        tx.batch_execute(SCHEMA).map_err(db)?;
        tx.batch_execute(chat::SCHEMA).map_err(db)?;
        tx.commit().map_err(db)?;
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        let listener = Client::connect(url, NoTls).map_err(db)?;
        let url2 = url.to_string();
        std::thread::Builder::new()
            .name("crown-pg-listen".into())
            .spawn(move || listen(listener, &url2, &tx))
            .map_err(|e| StoreError::Postgres(format!("cannot start the listener: {e}")))?;
        Ok(PgStore {
            url: url.to_string(),
            size: pool.max(1),
            pool: Mutex::new((vec![client], 1)),
            freed: Condvar::new(),
            changes: Mutex::new(Some(rx)),
        })
    }

    /// Run `f` on a pooled connection (opening one if fewer than the pool size exist, else
    /// waiting for one). A connection left closed by an error is dropped, not returned.
    fn with<T>(
        &self,
        f: impl FnOnce(&mut Client) -> Result<T, StoreError>,
    ) -> Result<T, StoreError> {
        let mut client = {
            let mut p = self.pool.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                if let Some(c) = p.0.pop() {
                    break Some(c);
                }
                if p.1 < self.size {
                    p.1 += 1;
                    break None;
                }
                p = self.freed.wait(p).unwrap_or_else(|e| e.into_inner());
            }
        };
        if client.is_none() {
            match Client::connect(&self.url, NoTls) {
                Ok(c) => client = Some(c),
                Err(e) => {
                    self.pool.lock().unwrap_or_else(|e| e.into_inner()).1 -= 1;
                    self.freed.notify_one();
                    return Err(db(e));
                }
            }
        }
        let mut c = client.expect("a connection was taken or opened");
        let r = f(&mut c);
        let mut p = self.pool.lock().unwrap_or_else(|e| e.into_inner());
        if c.is_closed() {
            p.1 -= 1;
            drop(p);
            drop_clients(vec![c]);
        } else {
            p.0.push(c);
            drop(p);
        }
        self.freed.notify_one();
        r
    }
}

/// The listener thread: `LISTEN` and forward each notification; on a lost connection, reconnect
/// (every second) and send an empty-id [`Change`] (anything may have changed meanwhile). Ends when
/// the receiver is gone.
fn listen(mut client: Client, url: &str, tx: &tokio::sync::mpsc::UnboundedSender<Change>) {
    loop {
        if client.batch_execute(&format!("LISTEN {CHANNEL}")).is_ok() {
            loop {
                if tx.is_closed() {
                    drop(client);
                    return;
                }
                let mut n = client.notifications();
                let next = n.timeout_iter(Duration::from_secs(1)).next();
                match next {
                    Ok(Some(note)) => {
                        if let Some((v, id)) = note.payload().split_once(' ') {
                            if let Ok(version) = v.parse() {
                                let _ = tx.send(Change {
                                    id: id.to_string(),
                                    version,
                                });
                            }
                        }
                    }
                    Ok(None) => {}
                    Err(_) => break,
                }
            }
        }
        tracing::warn!("lost the PostgreSQL notification connection; reconnecting");
        client = loop {
            if tx.is_closed() {
                return;
            }
            std::thread::sleep(Duration::from_secs(1));
            if let Ok(c) = Client::connect(url, NoTls) {
                break c;
            }
        };
        let _ = tx.send(Change {
            id: String::new(),
            version: 0,
        });
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

fn read_game(c: &mut Client, id: &str) -> Result<Option<GameRecord>, StoreError> {
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

impl Store for PgStore {
    fn create(&self, rec: &GameRecord) -> Result<(), StoreError> {
        self.with(|c| {
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
        })
    }

    fn save(&self, rec: &mut GameRecord, keep_plies: usize) -> Result<(), StoreError> {
        self.with(|c| {
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
            // Delivered to every listener only if this transaction commits.
            let payload = format!("{} {}", rec.version + 1, rec.id);
            tx.execute("SELECT pg_notify($1, $2)", &[&CHANNEL, &payload])
                .map_err(db)?;
            tx.commit().map_err(db)
        })?;
        rec.version += 1;
        Ok(())
    }

    fn load(&self, id: &str) -> Result<Option<GameRecord>, StoreError> {
        self.with(|c| read_game(c, id))
    }

    fn list(&self, status: Option<&str>, limit: usize) -> Result<Vec<GameSummary>, StoreError> {
        let rows = self.with(|c| {
            c.query(
                "SELECT id, variant, status, result, plies, created_ms, updated_ms FROM games
                 WHERE ($1::TEXT IS NULL OR status = $1)
                   AND (status <> 'open' OR (meta::jsonb ->> 'public') = 'true')
                 ORDER BY updated_ms DESC, id LIMIT $2",
                &[&status, &(limit as i64)],
            )
            .map_err(db)
        })?;
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
            .with(|c| {
                c.query("SELECT id FROM games WHERE status <> 'finished'", &[])
                    .map_err(db)
            })?
            .iter()
            .map(|r| r.get(0))
            .collect())
    }

    fn heartbeat(&self, now_ms: u64) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO server_meta (key, value) VALUES ('heartbeat_ms', $1)
                 ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
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

    fn shared(&self) -> bool {
        true
    }

    fn add_chat(&self, game_id: &str, msg: &ChatRecord) -> Result<Option<u64>, StoreError> {
        chat::add(self, game_id, msg).map(Some)
    }

    fn load_chat(
        &self,
        game_id: &str,
        after: u64,
        limit: usize,
    ) -> Result<Vec<ChatRecord>, StoreError> {
        chat::load(self, game_id, after, limit)
    }

    fn chat_changes(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Change>> {
        chat::listen(&self.url)
    }

    fn version(&self, id: &str) -> Result<Option<u64>, StoreError> {
        Ok(self
            .with(|c| {
                c.query_opt("SELECT version FROM games WHERE id = $1", &[&id])
                    .map_err(db)
            })?
            .map(|r| r.get::<_, i64>(0) as u64))
    }

    fn changes(&self) -> Option<tokio::sync::mpsc::UnboundedReceiver<Change>> {
        self.changes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take()
    }

    fn claim_lease(&self, id: &str, owner: &str, until_ms: u64) -> Result<bool, StoreError> {
        let n = self.with(|c| {
            c.execute(
                "INSERT INTO leases (game_id, owner, expires_ms) VALUES ($1, $2, $3)
                 ON CONFLICT (game_id) DO NOTHING",
                &[&id, &owner, &(until_ms as i64)],
            )
            .map_err(db)
        })?;
        Ok(n == 1)
    }

    fn lease_round(&self, owner: &str, now_ms: u64, ttl_ms: u64) -> Result<Leases, StoreError> {
        let now = now_ms as i64;
        let until = now_ms.saturating_add(ttl_ms) as i64;
        self.with(|c| {
            let mut tx = c.transaction().map_err(db)?;
            tx.execute(
                "DELETE FROM leases l USING games g WHERE l.game_id = g.id AND g.status = 'finished'",
                &[],
            )
            .map_err(db)?;
            let renewed = tx
                .query(
                    "UPDATE leases SET expires_ms = $3 WHERE owner = $1 AND expires_ms >= $2
                     RETURNING game_id",
                    &[&owner, &now, &until],
                )
                .map_err(db)?
                .iter()
                .map(|r| r.get(0))
                .collect();
            // Rows locked by another instance's round are left to it (SKIP LOCKED): exactly one
            // instance takes each expired lease.
            let taken_over = tx
                .query(
                    "UPDATE leases SET owner = $1, expires_ms = $3
                     FROM (SELECT game_id, expires_ms AS old FROM leases WHERE expires_ms < $2
                           FOR UPDATE SKIP LOCKED) o
                     WHERE leases.game_id = o.game_id
                     RETURNING leases.game_id, o.old",
                    &[&owner, &now, &until],
                )
                .map_err(db)?
                .iter()
                .map(|r| (r.get(0), r.get::<_, i64>(1) as u64))
                .collect();
            let new = tx
                .query(
                    "INSERT INTO leases (game_id, owner, expires_ms)
                     SELECT id, $1, $2 FROM games WHERE status <> 'finished' AND created_ms < $3
                     ON CONFLICT (game_id) DO NOTHING RETURNING game_id",
                    &[&owner, &until, &(now - ttl_ms as i64)],
                )
                .map_err(db)?
                .iter()
                .map(|r| r.get(0))
                .collect();
            tx.commit().map_err(db)?;
            Ok(Leases {
                renewed,
                taken_over,
                new,
            })
        })
    }
}
