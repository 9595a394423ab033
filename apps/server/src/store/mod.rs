//! Durable storage of games behind the [`Store`] trait, with SQLite ([`SqliteStore`]) as the embedded
//! default.
//!
//! A game is one row (variant, start FEN, status, seats, clocks, pending offers, declared result) plus
//! one row per move. Every change is written atomically by [`Store::save`]; the server
//! acknowledges a move only after `save` returned, so a `kill -9` loses no acknowledged move.
//!
//! [`SqliteStore`] writes through one writer thread that **group-commits**: the writes waiting when
//! it becomes free go into one transaction (each in its own savepoint, so one failing write does
//! not undo the others), and the single commit's fsync is shared. Every caller still returns only
//! after the commit that holds its write. Reads use a small pool of separate connections (WAL lets
//! them run while the writer writes).
//! Each row carries a `version` used for optimistic concurrency: a save based on a stale version
//! fails with [`StoreError::Conflict`] (this is what lets several server instances share one
//! database, see docs/scaling.md).
//!
//! Each feature has a narrow trait of its own, which a store keeps or not: the games are
//! [`Store`] itself; [`Store::chat`], [`Store::leases`], [`Store::accounts`],
//! [`Store::ratings`], [`Store::puzzles`] and [`Store::tournaments`] give the other parts.
//!
//! - [`chat`]: the chat of games ([`ChatStore`], which both backends implement);
//! - [`leases`]: per-game leases of instances sharing a store ([`LeaseStore`], PostgreSQL);
//! - [`accounts`]: accounts and log-in sessions ([`AccountStore`], which both backends implement);
//! - [`ratings`]: ratings and players' finished games ([`RatingStore`]), written by the save that
//!   finishes a game, in its transaction;
//! - [`puzzles`]: each account's puzzle record ([`PuzzleStore`], which both backends
//!   implement), one versioned JSON row per account;
//! - [`tournaments`]: tournaments, each one versioned JSON row ([`TournamentStore`], which both
//!   backends implement);
//! - [`imports`]: games shared as PDN, with their archive flag ([`ImportStore`], which both
//!   backends implement);
//! - [`challenges`]: one account's challenge to another ([`ChallengeStore`], which both
//!   backends implement), one versioned row each;
//! - [`record`]: what is stored (games, moves, seats, chat messages), shared by every backend;
//! - [`sqlite`]: [`SqliteStore`], the embedded default;
//! - [`pg`]: [`pg::PgStore`], PostgreSQL for several instances sharing one database;
//! - `schema`: the SQL schema and row helpers both backends use.

pub mod accounts;
pub mod challenges;
pub mod chat;
pub mod fixture;
pub mod imports;
pub mod leases;
pub mod pg;
pub mod puzzles;
pub mod ratings;
pub mod record;
mod schema;
pub mod sqlite;
pub mod tokens;
pub mod tournaments;

pub use accounts::{AccountStore, SessionRecord, UserRecord};
pub use challenges::{ChallengeRecord, ChallengeStore};
pub use chat::ChatStore;
pub use imports::{ImportRecord, ImportStore};
pub use leases::{LeaseStore, Leases};
pub use puzzles::{PuzzleRecord, PuzzleStore};
pub use ratings::{Established, GameFilter, PairHistory, PlayerGame, RatingRecord, RatingStore};
pub use record::*;
pub use sqlite::{Durability, SqliteStore, WriterStats};
pub use tokens::{BotUpgrade, TokenOwner, TokenRecord, TokenStore};
pub use tournaments::{TournamentRecord, TournamentStore};

use serde::{Deserialize, Serialize};

/// Why a storage operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database reported an error (I/O, corruption, locked, ...).
    #[error("database error: {0}")]
    Database(#[from] rusqlite::Error),
    /// A stored game's JSON column could not be read.
    #[error("stored game '{id}' is unreadable: {reason}")]
    Corrupt {
        /// The game id.
        id: String,
        /// What is wrong.
        reason: String,
    },
    /// The game was changed by someone else since it was loaded (its version moved on).
    #[error("game '{0}' was changed concurrently")]
    Conflict(String),
    /// The game does not exist.
    #[error("no game '{0}'")]
    NotFound(String),
    /// The transaction holding this write could not be committed (nothing of it was written).
    #[error("commit failed: {0}")]
    Commit(String),
    /// PostgreSQL reported an error (connection, SQL, ...).
    #[error("PostgreSQL error: {0}")]
    Postgres(String),
    /// A write that would make the game one of its pair's rated games beyond the cap
    /// ([`Store::cap_rated_pairs`]); nothing was written. The game is then played unrated
    /// (`pair_limit`).
    #[error("game '{0}': the pair's rated games of the day are used up")]
    PairLimit(String),
    /// The store's writer thread has stopped.
    #[error("the database writer has stopped")]
    Closed,
}

/// Durable game storage. Implementations must make each call atomic and durable before returning.
pub trait Store: Send + Sync + 'static {
    /// Insert a new game (with its moves).
    ///
    /// # Errors
    /// [`StoreError::Database`] on failure (including a duplicate id), [`StoreError::PairLimit`]
    /// ([`Store::cap_rated_pairs`]).
    fn create(&self, rec: &GameRecord) -> Result<(), StoreError>;

    /// Write a changed game in one transaction: the row, moves with ply `>= keep_plies` replaced by
    /// `rec.moves[keep_plies..]`. `rec.version` must be the stored version; on success it is the
    /// new one.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the stored version differs, [`StoreError::PairLimit`]
    /// ([`Store::cap_rated_pairs`]), [`StoreError::Database`] on failure; nothing is written then.
    fn save(&self, rec: &mut GameRecord, keep_plies: usize) -> Result<(), StoreError>;

    /// From now on, refuse with [`StoreError::PairLimit`] a [`Store::create`] or [`Store::save`]
    /// that would make a game one of its pair's rated games (both seats linked to accounts,
    /// rated, not made unrated, unfinished) while the pair already has `per_day` rated games in
    /// the last 24 hours ([`PairHistory::recent_rated`]; 0: no cap;
    /// `--rated-games-per-pair-per-day`). The count and the write are one atomic step, also
    /// between instances sharing a store. The default keeps no cap in the store (an embedder's
    /// own store): the cap is then only the count read before each join, which joins at once
    /// can pass.
    fn cap_rated_pairs(&self, per_day: u32) {
        let _ = per_day;
    }

    /// Load a game with its moves; `Ok(None)` if there is none with this id.
    ///
    /// # Errors
    /// [`StoreError::Database`] or [`StoreError::Corrupt`].
    fn load(&self, id: &str) -> Result<Option<GameRecord>, StoreError>;

    /// The newest games (by last change), optionally only those with `status`, at most `limit`.
    /// Only public (`meta.public`) and rated (`meta.rated`) games, in every status: a private,
    /// casual game is reachable only through its link (docs/api.md, `GET /api/games`), as the
    /// player archive keeps it to its own player.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    fn list(&self, status: Option<&str>, limit: usize) -> Result<Vec<GameSummary>, StoreError>;

    /// The games of [`Store::list`] with their seats, accounts and ratings: the newest (by last
    /// change) listed games with `status` (any when `None`) last changed at or after
    /// `since_ms`, at most `limit`, each with its [`GameMeta`] (the Watch page, docs/api.md
    /// `GET /api/tv`). The default reads [`Store::list`] and loads each game; the backends read
    /// them in one query on the index of the listed games (`games_listed`), reading no
    /// unlisted row.
    ///
    /// # Errors
    /// [`StoreError::Database`], [`StoreError::Postgres`], or [`StoreError::Corrupt`] for a row
    /// whose JSON is unreadable.
    fn listed(
        &self,
        status: Option<&str>,
        since_ms: u64,
        limit: usize,
    ) -> Result<Vec<(GameSummary, GameMeta)>, StoreError> {
        let mut out = Vec::new();
        for s in self.list(status, limit)? {
            if s.updated_ms < since_ms {
                break;
            }
            if let Some(rec) = self.load(&s.id)? {
                out.push((s, rec.meta));
            }
        }
        Ok(out)
    }

    /// Ids of the ongoing games (status `ongoing`) with a seat linked to account `user_id`
    /// ([`GameMeta::accounts`]), the last changed first, at most `limit` (`GET /api/me/turns`).
    /// The default reads every unfinished game ([`Store::load_unfinished`]).
    ///
    /// # Errors
    /// [`StoreError::Database`], or as [`Store::load_unfinished`].
    fn ongoing_of(&self, user_id: &str, limit: usize) -> Result<Vec<String>, StoreError> {
        let mut games: Vec<GameRecord> = self
            .load_unfinished()?
            .into_iter()
            .filter(|r| {
                r.status == "ongoing"
                    && crown_core::Color::ALL
                        .into_iter()
                        .any(|c| r.meta.accounts.get(c).is_some_and(|a| a.user_id == user_id))
            })
            .collect();
        games.sort_by(|a, b| {
            b.updated_ms
                .cmp(&a.updated_ms)
                .then_with(|| a.id.cmp(&b.id))
        });
        Ok(games.into_iter().take(limit).map(|r| r.id).collect())
    }

    /// Ids of all games not finished.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    fn unfinished(&self) -> Result<Vec<String>, StoreError>;

    /// Record that the server is alive at `now_ms` (used to stop clocks during downtime).
    ///
    /// # Errors
    /// [`StoreError::Database`].
    fn heartbeat(&self, now_ms: u64) -> Result<(), StoreError>;

    /// The last heartbeat written, if any.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    fn last_heartbeat(&self) -> Result<Option<u64>, StoreError>;

    /// Every game not finished, with its moves, read as one consistent snapshot (at start-up).
    /// The default loads them one by one.
    ///
    /// # Errors
    /// [`StoreError::Database`] or [`StoreError::Corrupt`].
    fn load_unfinished(&self) -> Result<Vec<GameRecord>, StoreError> {
        let mut out = Vec::new();
        for id in self.unfinished()? {
            if let Some(rec) = self.load(&id)? {
                out.push(rec);
            }
        }
        Ok(out)
    }

    /// The stored version of game `id`, `None` if there is none. The default loads the game.
    ///
    /// # Errors
    /// As [`Store::load`].
    fn version(&self, id: &str) -> Result<Option<u64>, StoreError> {
        Ok(self.load(id)?.map(|r| r.version))
    }

    /// The games `ids` with their moves (those that exist, in any order), read as one consistent
    /// snapshot where the store can. The default loads them one by one.
    ///
    /// # Errors
    /// As [`Store::load`].
    fn load_many(&self, ids: &[String]) -> Result<Vec<GameRecord>, StoreError> {
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(rec) = self.load(id)? {
                out.push(rec);
            }
        }
        Ok(out)
    }

    /// Save several changed games whose moves are unchanged (`keep_plies` = all), in one
    /// transaction where the store can. The default saves them one by one.
    ///
    /// # Errors
    /// As [`Store::save`]; with the default, the games before the failing one stay saved.
    fn save_rows(&self, recs: &mut [GameRecord]) -> Result<(), StoreError> {
        for rec in recs {
            let keep = rec.moves.len();
            self.save(rec, keep)?;
        }
        Ok(())
    }

    /// Delete at most `limit` games that last changed before `ended_before_ms` and hold nothing
    /// worth keeping, with their chat; returns how many: those that ended before both sides
    /// moved, with no result (cancelled, expired, aborted or abandoned at ply 0 or 1, so that an
    /// abort after one ply cannot keep a game stored for good), and the unlisted games (not
    /// public, not rated), guests' and accounts' alike, shorter than `guest_min_plies` plies
    /// whatever their result (a resignation after one move would else keep a game for good),
    /// with their rows in the accounts' archives and counts; never a rated game nor a
    /// tournament game. Without this every
    /// created-and-cancelled game would stay for good (docs/api.md, limits:
    /// `--purge-unstarted-after-secs`). The default deletes none.
    ///
    /// # Errors
    /// [`StoreError::Database`], [`StoreError::Postgres`]; nothing is deleted then.
    fn purge_unstarted(
        &self,
        ended_before_ms: u64,
        guest_min_plies: u32,
        limit: usize,
    ) -> Result<usize, StoreError> {
        let _ = (ended_before_ms, guest_min_plies, limit);
        Ok(0)
    }

    /// The store's chat; `None` for a store that keeps none (the default: the server then numbers
    /// and keeps the messages in memory only).
    fn chat(&self) -> Option<&dyn ChatStore> {
        None
    }

    /// The store's per-game leases and change notifications; `None` for a store owned by one
    /// process (the default: it holds no lease, and the instance runs every game). A store with
    /// leases is shared by several instances (PostgreSQL): the server then checks versions
    /// before trusting its memory, listens to [`LeaseStore::changes`] and takes per-game leases
    /// before running clocks and the engine.
    fn leases(&self) -> Option<&dyn LeaseStore> {
        None
    }

    /// The store's accounts and sessions; `None` for a store that keeps none (the default: the
    /// account endpoints then answer `503 accounts_unavailable`).
    fn accounts(&self) -> Option<&dyn AccountStore> {
        None
    }

    /// The store's ratings and players' finished games; `None` for a store that keeps none
    /// (the default: the rating endpoints then answer `503 accounts_unavailable`).
    fn ratings(&self) -> Option<&dyn RatingStore> {
        None
    }

    /// The store's accounts' puzzle records; `None` for a store that keeps none (the default:
    /// the puzzle endpoints then answer `503 accounts_unavailable`).
    fn puzzles(&self) -> Option<&dyn PuzzleStore> {
        None
    }

    /// The store's tournaments; `None` for a store that keeps none (the default: the tournament
    /// endpoints then answer `503 tournaments_unavailable`).
    fn tournaments(&self) -> Option<&dyn TournamentStore> {
        None
    }

    /// The store's imported games; `None` for a store that keeps none (the default: the import
    /// endpoints then answer `503 imports_unavailable`).
    fn imports(&self) -> Option<&dyn ImportStore> {
        None
    }

    /// The store's challenges; `None` for a store that keeps none (the default: the challenge
    /// endpoints then answer `503 challenges_unavailable`).
    fn challenges(&self) -> Option<&dyn ChallengeStore> {
        None
    }

    /// The store's API tokens and bot accounts; `None` for a store that keeps none (the
    /// default: the token and bot endpoints then answer `503 accounts_unavailable`).
    fn tokens(&self) -> Option<&dyn TokenStore> {
        None
    }
}

/// A committed change announced to every instance sharing the store.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The game id; empty: anything may have changed (notifications were lost).
    pub id: String,
    /// The game's version after the change.
    pub version: u64,
    /// What the change wrote, when the notification could carry it: a copy of the game at
    /// `version - 1` becomes the game at `version` by [`ChangeState::apply_to`] without reading
    /// the store. `None`: reload the game (the state did not fit in a notification).
    pub state: Option<Box<ChangeState>>,
}

/// The columns and moves one [`Store::save`] wrote: enough to bring a copy of the game at the
/// previous version up to date.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangeState {
    /// Moves with a ply below this were kept; the others were replaced by `moves`.
    pub keep_plies: usize,
    /// The moves from ply `keep_plies` on.
    pub moves: Vec<MoveRecord>,
    /// The new status (`open`, `ongoing`, `finished`).
    pub status: String,
    /// The new PDN result, if any.
    pub result: Option<String>,
    /// The new seats, clocks and offers.
    pub meta: GameMeta,
    /// When the change was made, ms since the Unix epoch.
    pub updated_ms: u64,
}

impl ChangeState {
    /// What a save of `rec` from ply `keep_plies` on writes.
    pub fn of(rec: &GameRecord, keep_plies: usize) -> ChangeState {
        ChangeState {
            keep_plies,
            moves: rec.moves.get(keep_plies..).unwrap_or_default().to_vec(),
            status: rec.status.clone(),
            result: rec.result.clone(),
            meta: rec.meta.clone(),
            updated_ms: rec.updated_ms,
        }
    }

    /// `rec` (the game at `version - 1`) with this change applied, at `version`; `None` if `rec`
    /// has fewer than `keep_plies` moves (it is not the game this change was made to).
    pub fn apply_to(&self, rec: &GameRecord, version: u64) -> Option<GameRecord> {
        let mut moves = rec.moves.get(..self.keep_plies)?.to_vec();
        moves.extend(self.moves.iter().cloned());
        Some(GameRecord {
            id: rec.id.clone(),
            variant: rec.variant.clone(),
            start_fen: rec.start_fen.clone(),
            status: self.status.clone(),
            result: self.result.clone(),
            meta: self.meta.clone(),
            moves,
            created_ms: rec.created_ms,
            updated_ms: self.updated_ms,
            version,
        })
    }
}
