//! PostgreSQL storage ([`PgStore`]) behind the same [`Store`](crate::store::Store) trait as
//! SQLite, for several `crown-server` instances sharing one database (docs/scaling.md).
//!
//! - The same two tables and versioned `UPDATE` as [`crate::store::SqliteStore`], over a small
//!   pool of connections (each call takes one; a broken connection is dropped and reopened).
//! - Saves are **group-committed** by one committer thread with its own connection: the saves
//!   waiting when it becomes free are written by one versioned `UPDATE … FROM unnest(…)` (its
//!   returned rows say which games' versions matched: the others are a
//!   [`StoreError::Conflict`] each, and write nothing), and one commit's fsync is shared. A save
//!   still returns only after the commit that holds it.
//! - Every committed save sends a notification on `crown_games` inside its transaction
//!   (PostgreSQL delivers it only if the transaction commits) carrying the game's new version
//!   and what the save wrote ([`ChangeState`], as JSON), or only `'<version> <id>'` when that
//!   does not fit in a notification (8000 bytes); a listener thread with its own connection turns
//!   them into [`LeaseStore::changes`](crate::store::LeaseStore::changes).
//! - A `leases` table (`game_id`, `owner`, `expires_ms`) gives each unfinished game one owning
//!   instance, which alone runs its clock (flag falls, expiry) and its engine moves
//!   ([`LeaseStore::lease_round`](crate::store::LeaseStore::lease_round), `pg/leases.rs`).
//! - Accounts and log-in sessions: the `users` and `sessions` tables (`pg/accounts.rs`).
//! - Ratings and players' finished games: the `ratings` and `player_games` tables, written by
//!   the committer in the transaction of the save that finishes a game (`pg/ratings.rs`).
//! - Chat messages: a `chat` table and a `crown_chat` notification channel of their own
//!   (`pg/chat.rs`).
//! - Both channels are followed by one reconnecting `LISTEN` loop (`pg/listen.rs`); the tables
//!   are the schema shared with SQLite (`store/schema.rs`).

mod accounts;
mod challenges;
mod chat;
mod games;
mod imports;
mod leases;
mod listen;
mod puzzles;
mod ratings;
mod tokens;
mod tournaments;

use super::schema::{move_rows, schema, Dialect, RowUpdate};
use crate::store::ratings::PairCheck;
use crate::store::{Change, ChangeState, GameRatings, GameRecord, StoreError};
use postgres::error::SqlState;
use postgres::{Client, NoTls};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// Connections in the pool unless [`PgStore::connect_with`] says otherwise.
pub const DEFAULT_POOL: usize = 8;

/// The channel of change notifications.
const CHANNEL: &str = "crown_games";

/// Longest notification payload sent (PostgreSQL refuses 8000 bytes or more).
const MAX_PAYLOAD: usize = 7999;

/// Most saves committed in one transaction.
const MAX_BATCH: usize = 512;

/// PostgreSQL storage: a pool of synchronous connections (the server calls the store on blocking
/// threads) and a notification listener.
pub struct PgStore {
    url: String,
    size: usize,
    /// Idle connections, and how many exist in all (idle or lent).
    pool: Mutex<(Vec<Client>, usize)>,
    freed: Condvar,
    changes: Mutex<Option<tokio::sync::mpsc::UnboundedReceiver<Change>>>,
    /// Saves for the committer thread (each message is committed in one transaction with the
    /// others waiting).
    saves: std::sync::mpsc::Sender<Vec<SaveJob>>,
    /// The listener's generation while it listens, 0 while it does not.
    listening: Arc<AtomicU64>,
    stats: Arc<CommitStats>,
    /// [`crate::store::Store::cap_rated_pairs`] (0: no cap).
    pair_cap: std::sync::atomic::AtomicU32,
}

/// Counters of the committer thread.
#[derive(Debug, Default)]
pub struct CommitStats {
    /// Transactions of saves committed.
    pub commits: AtomicU64,
    /// Saves committed (conflicts not counted).
    pub writes: AtomicU64,
}

/// One save for the committer: the row's new columns, the moves from `keep` on, the
/// notification, and where to answer.
struct SaveJob {
    row: RowUpdate,
    keep: i64,
    /// `(ply, text, at_ms)` of the moves from `keep` on.
    moves: Vec<(i64, String, i64)>,
    note: String,
    /// The game as saved, when the save may finish it (a finished game with a result and a
    /// linked seat): recorded and rated in the same transaction (`pg/ratings.rs`).
    finish: Option<Box<GameRecord>>,
    /// The per-pair cap this save must keep ([`PairCheck`]).
    check: Option<PairCheck>,
    /// The answer: the game's ratings when this save rated it.
    reply: std::sync::mpsc::SyncSender<Result<Option<GameRatings>, StoreError>>,
}

/// The notification payload carrying a change (JSON).
#[derive(serde::Serialize, serde::Deserialize)]
struct Note {
    id: String,
    version: u64,
    state: ChangeState,
}

/// The payload announcing that `rec` (at its current version) was saved from ply `keep` on:
/// the whole change as JSON, or `'<version> <id>'` (reload) if that is too long.
fn note_for(rec: &GameRecord, keep: usize) -> String {
    let note = Note {
        id: rec.id.clone(),
        version: rec.version + 1,
        state: ChangeState::of(rec, keep),
    };
    match serde_json::to_string(&note) {
        Ok(s) if s.len() <= MAX_PAYLOAD => s,
        _ => format!("{} {}", rec.version + 1, rec.id),
    }
}

/// Read a notification payload: a [`Note`] (JSON) or `'<version> <id>'`.
fn parse_note(payload: &str) -> Option<Change> {
    if payload.starts_with('{') {
        let n: Note = serde_json::from_str(payload).ok()?;
        return Some(Change {
            id: n.id,
            version: n.version,
            state: Some(Box::new(n.state)),
        });
    }
    listen::parse_version_id(payload)
}

/// What [`commit_batch`] did with one save.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Written {
    /// Written; the game's ratings when this transaction rated it.
    Saved(Option<GameRatings>),
    /// Not written: the stored version differs.
    Conflict,
    /// Not written: it would pass the per-pair cap ([`PairCheck`]).
    PairLimit,
}

/// Take the transaction-scoped lock of each of `pairs` (`games.rated_pair` values), in one
/// order: a transaction that counts a pair's rated games and then writes one holds it, so that
/// every instance counts and writes a pair's games one transaction at a time.
fn lock_pairs(tx: &mut postgres::Transaction<'_>, pairs: &[&str]) -> Result<(), postgres::Error> {
    let mut pairs = pairs.to_vec();
    pairs.sort_unstable();
    pairs.dedup();
    for p in pairs {
        tx.execute(
            "SELECT pg_advisory_xact_lock($1, hashtext($2))",
            &[&PAIR_LOCK_CLASS, &p],
        )?;
    }
    Ok(())
}

/// The first key of the pair locks ([`lock_pairs`]; the second is the pair's hash), apart from
/// the schema's one-key lock.
const PAIR_LOCK_CLASS: i32 = 7306;

/// The pair's rated games of the window of `check` ([`crate::store::PairHistory::recent_rated`]),
/// as the transaction `tx` sees them now.
fn pair_recent(
    tx: &mut postgres::Transaction<'_>,
    check: &PairCheck,
) -> Result<i64, postgres::Error> {
    let [a, b] = &check.accounts;
    let sql = crate::store::ratings::pair_history_sql(["$1", "$2", "$3", "$4"]);
    Ok(tx
        .query_one(&sql, &[a, b, &check.since, &check.pair])?
        .get::<_, i64>(1))
}

/// Write `jobs` (distinct games) in one transaction: one versioned `UPDATE` of every row, then
/// the moves, the ends of finished games (with their ratings) and the notifications of the
/// games it updated. Returns, per job, what was done ([`Written`]).
fn commit_batch(c: &mut Client, jobs: &[SaveJob]) -> Result<Vec<Written>, postgres::Error> {
    let mut tx = c.transaction()?;
    let col = |f: fn(&RowUpdate) -> String| jobs.iter().map(|j| f(&j.row)).collect::<Vec<String>>();
    let num = |f: fn(&RowUpdate) -> i64| jobs.iter().map(|j| f(&j.row)).collect::<Vec<i64>>();
    let ids = col(|j| j.id.clone());
    // Lock the rows in one order (by id) whatever the plan of the UPDATE, so that two
    // instances' batches touching the same games wait for each other instead of deadlocking.
    let stored: std::collections::HashMap<String, (i64, Option<String>)> = tx
        .query(
            "SELECT id, version, rated_pair FROM games WHERE id = ANY($1) ORDER BY id FOR UPDATE",
            &[&ids],
        )?
        .iter()
        .map(|r| (r.get(0), (r.get(1), r.get(2))))
        .collect();
    // The saves that make a game one of its pair's rated games: counted under the pair's lock.
    let checked: Vec<(&SaveJob, &PairCheck)> = jobs
        .iter()
        .filter_map(|j| Some((j, j.check.as_ref()?)))
        .filter(|(j, ch)| {
            stored.get(&j.row.id).is_some_and(|(v, pair)| {
                *v == j.row.version && pair.as_deref() != Some(ch.pair.as_str())
            })
        })
        .collect();
    let mut refused: Vec<String> = Vec::new();
    if !checked.is_empty() {
        lock_pairs(
            &mut tx,
            &checked
                .iter()
                .map(|(_, ch)| ch.pair.as_str())
                .collect::<Vec<_>>(),
        )?;
        let mut taken: std::collections::HashMap<&str, i64> = std::collections::HashMap::new();
        for (j, ch) in checked {
            let before = match taken.get(ch.pair.as_str()) {
                Some(n) => *n,
                None => pair_recent(&mut tx, ch)?,
            };
            if ch.admit(&j.row.id, before).is_ok() {
                taken.insert(&ch.pair, before + 1);
            } else {
                taken.insert(&ch.pair, before);
                refused.push(j.row.id.clone());
            }
        }
    }
    let results: Vec<Option<String>> = jobs.iter().map(|j| j.row.result.clone()).collect();
    let pairs: Vec<Option<String>> = jobs.iter().map(|j| j.row.rated_pair.clone()).collect();
    let updated: std::collections::HashSet<String> = tx
        .query(
            "UPDATE games g SET status = i.status, result = i.result, meta = i.meta,
                 plies = i.plies, updated_ms = i.updated_ms, version = g.version + 1,
                 rated_pair = i.rated_pair, listed = i.listed
             FROM unnest($1::TEXT[], $2::TEXT[], $3::TEXT[], $4::TEXT[], $5::BIGINT[],
                         $6::BIGINT[], $7::BIGINT[], $8::TEXT[], $9::BIGINT[])
                  AS i(id, status, result, meta, plies, updated_ms, version, rated_pair, listed)
             WHERE g.id = i.id AND g.version = i.version AND NOT (g.id = ANY($10::TEXT[]))
             RETURNING g.id",
            &[
                &ids,
                &col(|j| j.status.clone()),
                &results,
                &col(|j| j.meta.clone()),
                &num(|j| j.plies),
                &num(|j| j.updated_ms),
                &num(|j| j.version),
                &pairs,
                &num(|j| j.listed),
                &refused,
            ],
        )?
        .iter()
        .map(|r| r.get(0))
        .collect();
    let done: Vec<bool> = jobs.iter().map(|j| updated.contains(&j.row.id)).collect();
    let ok = || jobs.iter().zip(&done).filter(|(_, d)| **d).map(|(j, _)| j);
    let (del_ids, del_keep): (Vec<String>, Vec<i64>) =
        ok().map(|j| (j.row.id.clone(), j.keep)).unzip();
    if !del_ids.is_empty() {
        tx.execute(
            "DELETE FROM moves m USING unnest($1::TEXT[], $2::BIGINT[]) AS d(id, keep)
             WHERE m.game_id = d.id AND m.ply >= d.keep",
            &[&del_ids, &del_keep],
        )?;
    }
    let mut m_ids = Vec::new();
    let mut m_plies = Vec::new();
    let mut m_texts = Vec::new();
    let mut m_at = Vec::new();
    for j in ok() {
        for (ply, text, at) in &j.moves {
            m_ids.push(j.row.id.clone());
            m_plies.push(*ply);
            m_texts.push(text.clone());
            m_at.push(*at);
        }
    }
    if !m_ids.is_empty() {
        tx.execute(
            "INSERT INTO moves (game_id, ply, text, at_ms)
             SELECT * FROM unnest($1::TEXT[], $2::BIGINT[], $3::TEXT[], $4::BIGINT[])",
            &[&m_ids, &m_plies, &m_texts, &m_at],
        )?;
    }
    let finishing: Vec<(usize, &GameRecord)> = jobs
        .iter()
        .enumerate()
        .filter(|(i, _)| done[*i])
        .filter_map(|(i, j)| Some((i, j.finish.as_deref()?)))
        .collect();
    let mut rated: Vec<Option<GameRatings>> = vec![None; jobs.len()];
    if !finishing.is_empty() {
        let recs: Vec<&GameRecord> = finishing.iter().map(|(_, r)| *r).collect();
        for ((i, _), g) in finishing
            .iter()
            .zip(ratings::record_finishes(&mut tx, &recs)?)
        {
            rated[*i] = g;
        }
    }
    // A rated game's notification carries its ratings.
    let notes: Vec<String> = jobs
        .iter()
        .zip(&rated)
        .enumerate()
        .filter(|(i, _)| done[*i])
        .map(|(_, (j, g))| match (g, &j.finish) {
            (Some(g), Some(rec)) => {
                let mut rec = (**rec).clone();
                rec.meta.ratings = Some(*g);
                note_for(&rec, j.keep as usize)
            }
            _ => j.note.clone(),
        })
        .collect();
    if !notes.is_empty() {
        // Delivered to every listener only if this transaction commits, in this order.
        tx.execute(
            "SELECT pg_notify($1, n) FROM unnest($2::TEXT[]) WITH ORDINALITY AS t(n, o) ORDER BY o",
            &[&CHANNEL, &notes],
        )?;
    }
    tx.commit()?;
    Ok(jobs
        .iter()
        .zip(done.into_iter().zip(rated))
        .map(|(j, (d, g))| match (d, refused.contains(&j.row.id)) {
            (true, _) => Written::Saved(g),
            (false, true) => Written::PairLimit,
            (false, false) => Written::Conflict,
        })
        .collect())
}

/// The committer thread: take the saves waiting (up to [`MAX_BATCH`], one per game: a second
/// save of a game waits for the next transaction), commit them together, answer each. Ends when
/// the store is dropped.
fn committer(url: String, rx: std::sync::mpsc::Receiver<Vec<SaveJob>>, stats: Arc<CommitStats>) {
    let mut client: Option<Client> = None;
    let mut waiting: std::collections::VecDeque<SaveJob> = std::collections::VecDeque::new();
    loop {
        if waiting.is_empty() {
            match rx.recv() {
                Ok(jobs) => waiting.extend(jobs),
                Err(_) => return,
            }
        }
        while let Ok(jobs) = rx.try_recv() {
            waiting.extend(jobs);
        }
        let mut batch = Vec::new();
        let mut later = std::collections::VecDeque::new();
        let mut ids = std::collections::HashSet::new();
        while let Some(j) = waiting.pop_front() {
            if batch.len() < MAX_BATCH && ids.insert(j.row.id.clone()) {
                batch.push(j);
            } else {
                later.push_back(j);
            }
        }
        waiting = later;
        if client.as_ref().is_none_or(Client::is_closed) {
            client = match Client::connect(&url, NoTls) {
                Ok(c) => Some(c),
                Err(e) => {
                    let msg = e.to_string();
                    for j in batch {
                        let _ = j.reply.send(Err(StoreError::Postgres(msg.clone())));
                    }
                    continue;
                }
            };
        }
        let c = client.as_mut().expect("connected above");
        let started = std::time::Instant::now();
        let mut outcome = commit_batch(c, &batch);
        for _ in 0..3 {
            // A deadlock or serialization failure undid the whole transaction: run it again.
            let retry = matches!(&outcome, Err(e) if e.code() == Some(&SqlState::T_R_DEADLOCK_DETECTED)
                || e.code() == Some(&SqlState::T_R_SERIALIZATION_FAILURE));
            if !retry || c.is_closed() {
                break;
            }
            outcome = commit_batch(c, &batch);
        }
        metrics::histogram!(crate::telemetry::STORE_COMMIT_SECONDS, "store" => "postgres")
            .record(started.elapsed().as_secs_f64());
        match outcome {
            Ok(done) => {
                stats.commits.fetch_add(1, Ordering::SeqCst);
                stats.writes.fetch_add(
                    done.iter()
                        .filter(|d| matches!(d, Written::Saved(_)))
                        .count() as u64,
                    Ordering::SeqCst,
                );
                for (j, d) in batch.into_iter().zip(done) {
                    let r = match d {
                        Written::Saved(g) => Ok(g),
                        Written::Conflict => Err(StoreError::Conflict(j.row.id.clone())),
                        Written::PairLimit => Err(StoreError::PairLimit(j.row.id.clone())),
                    };
                    let _ = j.reply.send(r);
                }
            }
            Err(e) => {
                let msg = e.to_string();
                for j in batch {
                    let _ = j.reply.send(Err(StoreError::Commit(msg.clone())));
                }
            }
        }
    }
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
        tx.batch_execute(&schema(Dialect::Postgres)).map_err(db)?;
        tx.commit().map_err(db)?;
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        // The subscription is confirmed before the store is handed out: a change committed by
        // anyone once `connect` returns is announced.
        let mut listener = Client::connect(url, NoTls).map_err(db)?;
        listen::listen(&mut listener, CHANNEL).map_err(db)?;
        let url2 = url.to_string();
        let listening = Arc::new(AtomicU64::new(1));
        let l2 = listening.clone();
        std::thread::Builder::new()
            .name("crown-pg-listen".into())
            .spawn(move || listen_games(listener, &url2, &tx, &l2))
            .map_err(|e| StoreError::Postgres(format!("cannot start the listener: {e}")))?;
        let (saves, jobs) = std::sync::mpsc::channel();
        let stats = Arc::new(CommitStats::default());
        let (url3, st) = (url.to_string(), stats.clone());
        std::thread::Builder::new()
            .name("crown-pg-commit".into())
            .spawn(move || committer(url3, jobs, st))
            .map_err(|e| StoreError::Postgres(format!("cannot start the committer: {e}")))?;
        Ok(PgStore {
            url: url.to_string(),
            size: pool.max(1),
            pool: Mutex::new((vec![client], 1)),
            freed: Condvar::new(),
            changes: Mutex::new(Some(rx)),
            saves,
            listening,
            stats,
            pair_cap: std::sync::atomic::AtomicU32::new(0),
        })
    }

    /// The cap of [`crate::store::Store::cap_rated_pairs`] (0: none).
    fn pair_cap(&self) -> u32 {
        self.pair_cap.load(Ordering::SeqCst)
    }

    /// The committer thread's counters (transactions, saves).
    pub fn stats(&self) -> &CommitStats {
        &self.stats
    }

    /// Save several games (distinct ids) in **one** transaction, each from its `keep_plies`
    /// (as [`Store::save`](crate::store::Store::save)), and return each one's outcome in order: a
    /// game whose stored version differs is a [`StoreError::Conflict`] and writes nothing, without
    /// failing the others. A game saved gets its new version in `rec.version`.
    pub fn save_batch(
        &self,
        saves: &mut [(&mut GameRecord, usize)],
    ) -> Vec<Result<(), StoreError>> {
        let mut jobs = Vec::with_capacity(saves.len());
        let mut answers = Vec::with_capacity(saves.len());
        for (rec, keep) in saves.iter() {
            let (reply, answer) = std::sync::mpsc::sync_channel(1);
            let keep = (*keep).min(rec.moves.len());
            jobs.push(SaveJob {
                row: RowUpdate::of(rec),
                keep: keep as i64,
                moves: move_rows(rec, keep),
                note: note_for(rec, keep),
                finish: crate::store::ratings::finish_of(rec).map(|_| Box::new((**rec).clone())),
                check: PairCheck::of(rec, self.pair_cap()),
                reply,
            });
            answers.push(answer);
        }
        let sent = self.saves.send(jobs).is_ok();
        saves
            .iter_mut()
            .zip(answers)
            .map(|((rec, _), answer)| {
                let r = if sent {
                    answer.recv().unwrap_or(Err(StoreError::Closed))
                } else {
                    Err(StoreError::Closed)
                };
                match r {
                    Ok(g) => {
                        rec.version += 1;
                        if g.is_some() {
                            rec.meta.ratings = g;
                        }
                        Ok(())
                    }
                    Err(e) => Err(e),
                }
            })
            .collect()
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

/// The listener thread of the game channel ([`CHANNEL`], payloads read by [`parse_note`]);
/// `client` already listens.
fn listen_games(
    client: Client,
    url: &str,
    tx: &tokio::sync::mpsc::UnboundedSender<Change>,
    listening: &AtomicU64,
) {
    let channel = listen::Channel {
        url,
        name: CHANNEL,
        what: "notification",
        listening: Some(listening),
        parse: parse_note,
    };
    listen::run(client, &channel, tx, true, false);
}
