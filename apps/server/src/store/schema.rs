//! The SQL schema and the row helpers of both backends, written once: the tables (`games`,
//! `moves`, `server_meta`, `chat`, `users`, `sessions`, `ratings`, `player_games`, `player_counts`, `tournaments`, `puzzle_records`, `imports`, `challenges`, and PostgreSQL's `leases`), the columns read back into a
//! [`GameRecord`], and the columns a save writes.

use super::{GameMeta, GameRecord, GameSummary, MoveRecord, StoreError};

/// The SQL dialect a statement is written for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Dialect {
    /// SQLite: `INTEGER` columns, `WITHOUT ROWID` tables.
    Sqlite,
    /// PostgreSQL: `BIGINT` columns, and the `leases` table of shared stores.
    Postgres,
}

/// The tables of every store; `{INT}` is the 64-bit integer type, `{NO_ROWID}` SQLite's
/// `WITHOUT ROWID` (nothing in PostgreSQL).
const TABLES: &str = "
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    start_fen TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT,
    meta TEXT NOT NULL,
    plies {INT} NOT NULL,
    created_ms {INT} NOT NULL,
    updated_ms {INT} NOT NULL,
    version {INT} NOT NULL,
    rated_pair TEXT,
    listed {INT}
);
CREATE INDEX IF NOT EXISTS games_status_updated ON games(status, updated_ms);
CREATE INDEX IF NOT EXISTS games_updated ON games(updated_ms);
CREATE TABLE IF NOT EXISTS moves (
    game_id TEXT NOT NULL,
    ply {INT} NOT NULL,
    text TEXT NOT NULL,
    at_ms {INT} NOT NULL,
    PRIMARY KEY (game_id, ply)
){NO_ROWID};
CREATE TABLE IF NOT EXISTS server_meta (key TEXT PRIMARY KEY, value {INT} NOT NULL);
CREATE TABLE IF NOT EXISTS chat (
    game_id TEXT NOT NULL,
    n {INT} NOT NULL,
    color TEXT NOT NULL,
    name TEXT,
    text TEXT NOT NULL,
    at_ms {INT} NOT NULL,
    PRIMARY KEY (game_id, n)
){NO_ROWID};
";

/// The accounts and their log-in sessions (store/accounts.rs): a username is unique in lower
/// case (`name_key`); `signup_net` is the hash of the network the account signed up from
/// (accounts/network.rs; NULL: none recorded); a session is found by the SHA-256 of its token and
/// ends at `expires_ms`.
const ACCOUNTS: &str = "
CREATE TABLE IF NOT EXISTS users (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    created_ms {INT} NOT NULL,
    signup_net TEXT
);
CREATE TABLE IF NOT EXISTS sessions (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    created_ms {INT} NOT NULL,
    expires_ms {INT} NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_user ON sessions(user_id);
CREATE INDEX IF NOT EXISTS sessions_expires ON sessions(expires_ms);
";

/// Ratings and players' finished games (store/ratings.rs): one Glicko-2 rating per account,
/// variant and speed; one row per finished game and linked seat, written by the game's
/// finishing save, with an index for each public read of them (the archive, the rating history,
/// the leaderboard's check of a rating) and each account's counts by rated and outcome
/// (`player_counts`, kept by the same save; `{REAL}` is the 64-bit float type).
const RATINGS: &str = "
CREATE TABLE IF NOT EXISTS ratings (
    user_id TEXT NOT NULL,
    variant TEXT NOT NULL,
    speed TEXT NOT NULL,
    rating {REAL} NOT NULL,
    deviation {REAL} NOT NULL,
    volatility {REAL} NOT NULL,
    games {INT} NOT NULL,
    updated_ms {INT} NOT NULL,
    PRIMARY KEY (user_id, variant, speed)
){NO_ROWID};
CREATE INDEX IF NOT EXISTS ratings_board ON ratings(variant, speed, rating);
CREATE TABLE IF NOT EXISTS player_games (
    game_id TEXT NOT NULL,
    color TEXT NOT NULL,
    user_id TEXT NOT NULL,
    variant TEXT NOT NULL,
    speed TEXT,
    rated {INT} NOT NULL,
    outcome TEXT NOT NULL,
    ended_ms {INT} NOT NULL,
    private {INT} NOT NULL,
    rating_before {REAL},
    deviation_before {REAL},
    volatility_before {REAL},
    rating_after {REAL},
    deviation_after {REAL},
    volatility_after {REAL},
    PRIMARY KEY (game_id, color)
){NO_ROWID};
CREATE INDEX IF NOT EXISTS player_games_user ON player_games(user_id, ended_ms);
CREATE INDEX IF NOT EXISTS player_games_rated ON player_games(user_id, rated, ended_ms, game_id);
CREATE INDEX IF NOT EXISTS player_games_board
    ON player_games(user_id, variant, speed, rated, ended_ms);
CREATE TABLE IF NOT EXISTS player_counts (
    user_id TEXT NOT NULL,
    rated {INT} NOT NULL,
    outcome TEXT NOT NULL,
    games {INT} NOT NULL,
    PRIMARY KEY (user_id, rated, outcome)
){NO_ROWID};
";

/// The tournaments (store/tournaments.rs): the state as JSON with a version for compare-and-swap,
/// and the creator's account id (`creator`, out of the JSON so that the per-account cap counts
/// by an index).
const TOURNAMENTS: &str = "
CREATE TABLE IF NOT EXISTS tournaments (
    id TEXT PRIMARY KEY,
    phase TEXT NOT NULL,
    starts_ms {INT} NOT NULL,
    created_ms {INT} NOT NULL,
    updated_ms {INT} NOT NULL,
    state TEXT NOT NULL,
    version {INT} NOT NULL,
    creator TEXT
);
CREATE INDEX IF NOT EXISTS tournaments_phase ON tournaments(phase, created_ms);
CREATE INDEX IF NOT EXISTS tournaments_start ON tournaments(phase, starts_ms);
";

/// The accounts' puzzle records (store/puzzles.rs): one row per account, its record as JSON
/// with a version for compare-and-swap. `IF NOT EXISTS`: a store made before it gets the table
/// at its next start.
const PUZZLES: &str = "
CREATE TABLE IF NOT EXISTS puzzle_records (
    user_id TEXT PRIMARY KEY,
    state TEXT NOT NULL,
    updated_ms {INT} NOT NULL,
    version {INT} NOT NULL
);
";

/// The games shared as PDN (store/imports.rs): the PDN as sent, what was read of it (JSON), the
/// account that imported it (NULL: a guest) and whether it is in that account's archive.
const IMPORTS: &str = "
CREATE TABLE IF NOT EXISTS imports (
    id TEXT PRIMARY KEY,
    owner TEXT,
    archived {INT} NOT NULL,
    variant TEXT NOT NULL,
    meta TEXT NOT NULL,
    pdn TEXT NOT NULL,
    created_ms {INT} NOT NULL
);
CREATE INDEX IF NOT EXISTS imports_owner ON imports(owner, archived, created_ms);
";

/// The challenges (store/challenges.rs): who challenged whom, the status, when a pending one
/// expires, the settings and answer as JSON, a version for compare-and-swap. `IF NOT EXISTS`: a
/// store made before challenges gets the table at its next start.
const CHALLENGES: &str = "
CREATE TABLE IF NOT EXISTS challenges (
    id TEXT PRIMARY KEY,
    challenger TEXT NOT NULL,
    dest TEXT NOT NULL,
    status TEXT NOT NULL,
    created_ms {INT} NOT NULL,
    updated_ms {INT} NOT NULL,
    expires_ms {INT} NOT NULL,
    deadline_ms {INT} NOT NULL,
    state TEXT NOT NULL,
    version {INT} NOT NULL
);
CREATE INDEX IF NOT EXISTS challenges_challenger ON challenges(challenger, status, expires_ms);
CREATE INDEX IF NOT EXISTS challenges_dest ON challenges(dest, status, expires_ms);
";

/// Personal API tokens and bot accounts (store/tokens.rs): a token is found by its SHA-256,
/// named by its `id`; a row of `bots` marks an account as a bot. `IF NOT EXISTS`: a store made
/// before them gets the tables at its next start.
const TOKENS: &str = "
CREATE TABLE IF NOT EXISTS api_tokens (
    token_hash TEXT PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    user_id TEXT NOT NULL,
    description TEXT NOT NULL,
    scopes TEXT NOT NULL,
    created_ms {INT} NOT NULL
);
CREATE INDEX IF NOT EXISTS api_tokens_user ON api_tokens(user_id, created_ms);
CREATE TABLE IF NOT EXISTS bots (
    user_id TEXT PRIMARY KEY,
    created_ms {INT} NOT NULL
);
";

/// The per-game leases of a store shared by several instances (docs/scaling.md).
const LEASES: &str = "
CREATE TABLE IF NOT EXISTS leases (
    game_id TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS leases_owner ON leases(owner);
";

/// The schema (`CREATE … IF NOT EXISTS`, so it can run at every start) in `dialect`.
pub(super) fn schema(dialect: Dialect) -> String {
    let (int, no_rowid, real) = match dialect {
        Dialect::Sqlite => ("INTEGER", " WITHOUT ROWID", "REAL"),
        Dialect::Postgres => ("BIGINT", "", "DOUBLE PRECISION"),
    };
    let mut sql = TABLES.replace("{INT}", int).replace("{NO_ROWID}", no_rowid);
    sql.push_str(&ACCOUNTS.replace("{INT}", int));
    sql.push_str(
        &RATINGS
            .replace("{INT}", int)
            .replace("{REAL}", real)
            .replace("{NO_ROWID}", no_rowid),
    );
    sql.push_str(&TOURNAMENTS.replace("{INT}", int));
    sql.push_str(&PUZZLES.replace("{INT}", int));
    sql.push_str(&IMPORTS.replace("{INT}", int));
    sql.push_str(&CHALLENGES.replace("{INT}", int));
    sql.push_str(&TOKENS.replace("{INT}", int));
    if dialect == Dialect::Postgres {
        sql.push_str(LEASES);
        // A store made before `users.signup_net` (its accounts get NULL: a network each),
        // `tournaments.creator` or `games.rated_pair` (filled in by the migrations).
        sql.push_str(ADDED_COLUMNS_PG);
        sql.push_str(&migrations(dialect));
    }
    sql
}

/// The columns added to the tables of an older store, in PostgreSQL (`IF NOT EXISTS`: they can
/// run at every start). SQLite has no `ADD COLUMN IF NOT EXISTS`: [`ADDED_COLUMNS`] is read by
/// its backend, which adds each column its table lacks.
const ADDED_COLUMNS_PG: &str = "
ALTER TABLE users ADD COLUMN IF NOT EXISTS signup_net TEXT;
ALTER TABLE tournaments ADD COLUMN IF NOT EXISTS creator TEXT;
ALTER TABLE games ADD COLUMN IF NOT EXISTS rated_pair TEXT;
ALTER TABLE games ADD COLUMN IF NOT EXISTS listed BIGINT;
";

/// The columns added since the first schema, as `(table, column, type)`: a store made before
/// them gets them, NULL in the existing rows (until [`migrations`] fills them in).
pub(super) const ADDED_COLUMNS: &[(&str, &str, &str)] = &[
    ("users", "signup_net", "TEXT"),
    ("tournaments", "creator", "TEXT"),
    ("games", "rated_pair", "TEXT"),
    ("games", "listed", "INTEGER"),
];

/// What runs once the [`ADDED_COLUMNS`] exist, at every start (each statement can run again):
/// the indexes on them and on the seats' account ids (`games_seat_black`, `games_seat_white`:
/// an account's unfinished games, [`ongoing_of_query`] and the event stream's, are found by
/// them, not by reading every unfinished game's JSON), and the values of the rows an older
/// version wrote, read from their JSON — the creator of each tournament not finished, and the [`super::ratings::rated_pair_key`] of each
/// unfinished rated game (the only rows the caps count: a finished one needs none) — and, once
/// (marked by `player_counts` in `server_meta`), the `player_counts` of the games a store made
/// before them recorded, and the `listed` column ([`listed_of`]) of the games a store made
/// before it (marked by `games_listed`), with its partial index `games_listed` (the lists of
/// [`super::Store::listed`] read at most their limit of rows on it) and the index of the
/// games over by their length, `games_ended_short` ([`unstarted_query`]).
pub(super) fn migrations(dialect: Dialect) -> String {
    let listed = listed_sql(dialect);
    let (creator, [rated, unrated, black, white], collate) = match dialect {
        Dialect::Sqlite => (
            "json_extract(state, '$.creator.user_id')",
            SQLITE_META_JSON,
            "",
        ),
        // Byte order, as Rust compares the ids, whatever the database's collation.
        Dialect::Postgres => (
            "(state::jsonb -> 'creator' ->> 'user_id')",
            PG_META_JSON,
            " COLLATE \"C\"",
        ),
    };
    format!(
        "
CREATE INDEX IF NOT EXISTS tournaments_creator ON tournaments(creator, phase);
CREATE INDEX IF NOT EXISTS games_rated_pair ON games(rated_pair, status);
CREATE INDEX IF NOT EXISTS games_seat_black ON games({black});
CREATE INDEX IF NOT EXISTS games_seat_white ON games({white});
INSERT INTO player_counts (user_id, rated, outcome, games)
SELECT user_id, rated, outcome, COUNT(*) FROM player_games
 WHERE NOT EXISTS (SELECT 1 FROM server_meta WHERE key = 'player_counts')
 GROUP BY user_id, rated, outcome
ON CONFLICT DO NOTHING;
INSERT INTO server_meta (key, value) VALUES ('player_counts', 1) ON CONFLICT DO NOTHING;
UPDATE games SET listed = CASE WHEN {listed} THEN 1 ELSE 0 END
 WHERE listed IS NULL AND NOT EXISTS (SELECT 1 FROM server_meta WHERE key = 'games_listed');
INSERT INTO server_meta (key, value) VALUES ('games_listed', 1) ON CONFLICT DO NOTHING;
CREATE INDEX IF NOT EXISTS games_listed ON games(status, updated_ms DESC, id) WHERE listed = 1;
CREATE INDEX IF NOT EXISTS games_ended_short ON games(plies, updated_ms)
 WHERE status IN ('finished', 'aborted');
UPDATE tournaments SET creator = {creator}
 WHERE creator IS NULL AND phase IN ('created', 'running');
UPDATE games SET rated_pair = CASE WHEN {black} < {white}{collate}
                                   THEN {black} || ' ' || {white}
                                   ELSE {white} || ' ' || {black} END
 WHERE rated_pair IS NULL AND status IN ('open', 'ongoing') AND {rated} AND {unrated}
   AND {black} IS NOT NULL AND {white} IS NOT NULL;
"
    )
}

/// Whether a game is listed (`GET /api/games`, the lobby, the Watch page) as a SQL expression
/// of its row in `dialect`: [`listed_of`], for the rows an older version wrote.
fn listed_sql(dialect: Dialect) -> String {
    let ([rated, unrated, ..], public) = match dialect {
        Dialect::Sqlite => (SQLITE_META_JSON, "json_extract(meta, '$.public') = 1"),
        Dialect::Postgres => (PG_META_JSON, "(meta::jsonb ->> 'public') = 'true'"),
    };
    let min = min_plies_sql(dialect);
    format!(
        "(COALESCE({public}, FALSE) OR (COALESCE({rated}, FALSE) AND {unrated}
              AND (status NOT IN ('finished', 'aborted') OR plies >= {min})))"
    )
}

/// The plies a game must reach to be rated ([`super::ratings::min_plies_of`]) as a SQL
/// expression of its row in `dialect`.
fn min_plies_sql(dialect: Dialect) -> String {
    let min = super::ratings::RATED_MIN_PLIES;
    match dialect {
        Dialect::Sqlite => {
            format!("MAX({min}, COALESCE(json_extract(meta, '$.rated_min_plies'), 0))")
        }
        Dialect::Postgres => format!(
            "GREATEST({min}::BIGINT, COALESCE((meta::jsonb ->> 'rated_min_plies')::BIGINT, 0))"
        ),
    }
}

/// The `listed` column of a game: 1 when it is public or rated ([`super::ratings::is_rated`]:
/// not made unrated, not over before the plies a rated game needs), as `GET /api/games` lists
/// games; else 0. Written by every save, so that the lists read only listed rows on the
/// `games_listed` index.
pub(super) fn listed_of(rec: &GameRecord) -> i64 {
    i64::from(rec.meta.public || super::ratings::is_rated(&rec.meta, &rec.status, rec.moves.len()))
}

/// The listed games (`listed = 1`) with `status` (parameter `{status}`; `None`: any, and the
/// parameter is only checked to be NULL) last changed at or after `{since}`, the newest first
/// (then by id), at most `{limit}`: with a status, read on the `games_listed` index, at most
/// `{limit}` rows whatever the unlisted games ([`super::Store::listed`]). With each row: whether
/// its meta is rated with no `unrated` reason, and the plies it needs to be rated ([`summary`]).
pub(super) fn listed_query(
    dialect: Dialect,
    status: bool,
    [status_p, since, limit]: [&str; 3],
) -> String {
    let [rated, unrated, ..] = match dialect {
        Dialect::Sqlite => SQLITE_META_JSON,
        Dialect::Postgres => PG_META_JSON,
    };
    let min = min_plies_sql(dialect);
    let status = if status {
        format!("status = {status_p}")
    } else {
        format!("{status_p} IS NULL")
    };
    format!(
        "SELECT {SUMMARY_COLUMNS}, COALESCE({rated}, FALSE) AND {unrated}, {min}, meta
         FROM games
         WHERE listed = 1 AND {status} AND updated_ms >= {since}
         ORDER BY updated_ms DESC, id LIMIT {limit}"
    )
}

/// SQLite's expressions of a game meta's `rated` being true, `unrated` being absent and the
/// seats' account ids.
pub(super) const SQLITE_META_JSON: [&str; 4] = [
    "json_extract(meta, '$.rated') = 1",
    "json_extract(meta, '$.unrated') IS NULL",
    "json_extract(meta, '$.accounts.black.user_id')",
    "json_extract(meta, '$.accounts.white.user_id')",
];

/// PostgreSQL's expressions of [`SQLITE_META_JSON`].
pub(super) const PG_META_JSON: [&str; 4] = [
    "(meta::jsonb ->> 'rated') = 'true'",
    "(meta::jsonb -> 'unrated') IS NULL",
    "(meta::jsonb -> 'accounts' -> 'black' ->> 'user_id')",
    "(meta::jsonb -> 'accounts' -> 'white' ->> 'user_id')",
];

/// The ongoing games of account `$1`, the last changed first, at most `$2`
/// ([`super::Store::ongoing_of`]; `black` and `white`: the dialect's expressions of the seats'
/// account ids, [`SQLITE_META_JSON`] or [`PG_META_JSON`], which the `games_seat_*` indexes are
/// on; the status compared as an expression, as in `tokens::games_of_query`).
pub(super) fn ongoing_of_query(black: &str, white: &str) -> String {
    format!(
        "SELECT id FROM games WHERE status || '' = 'ongoing' AND ({black} = $1 OR {white} = $1)
         ORDER BY updated_ms DESC, id LIMIT $2"
    )
}

/// The ids of at most `{limit}` games worth no keeping that last changed before `{before}` (the
/// parameters' placeholders), status `finished` or `aborted`, not rated (no row of
/// `player_games` rated) and not a tournament game (whose id, unlike a game's 16 hex digits, has
/// an `r`: `tournaments::play::game_id`):
/// - games that ended before both sides moved: at most one ply and no result (cancelled,
///   expired, aborted, or abandoned before the second side's first move: a game aborted after
///   one ply is as empty as one with none);
/// - games shorter than `{min_plies}` plies whatever their result, their seats and whether
///   they are public, with no rated row in an archive (a game that short changed no rating):
///   a guest's game, two accounts' casual game or a public one, resigned after one move, would
///   else be kept for good.
///
/// Read on the `games_ended_short` index (over games by plies, then end), so a round reads the
/// short games over, not every game kept. [`super::Store::purge_unstarted`] deletes them, with
/// their rows in the accounts' archives (`player_games`) and their counts (`player_counts`).
pub(super) fn unstarted_query(
    dialect: Dialect,
    before: &str,
    min_plies: &str,
    limit: &str,
) -> String {
    // SQLite, without statistics, would take `games_status_updated` (every game over before
    // the cut-off, kept ones included): it is told which index.
    let (bound, index) = match dialect {
        Dialect::Sqlite => (
            format!("MAX(2, {min_plies})"),
            " INDEXED BY games_ended_short",
        ),
        Dialect::Postgres => (format!("GREATEST(2::BIGINT, {min_plies}::BIGINT)"), ""),
    };
    format!(
        "SELECT id FROM games{index}
         WHERE status IN ('finished', 'aborted') AND plies < {bound} AND updated_ms < {before}
           AND id NOT LIKE '%r%'
           AND ((plies < 2 AND result IS NULL) OR plies < {min_plies})
           AND NOT EXISTS (SELECT 1 FROM player_games p WHERE p.game_id = games.id AND p.rated <> 0)
         LIMIT {limit}"
    )
}

/// The columns of `games` read into a [`GameRow`], in its field order (the id is known).
pub(super) const GAME_COLUMNS: &str =
    "variant, start_fen, status, result, meta, created_ms, updated_ms, version";

/// The columns of `games` read into a [`GameSummary`], in its field order.
pub(super) const SUMMARY_COLUMNS: &str =
    "id, variant, status, result, plies, created_ms, updated_ms";

/// The columns an `INSERT INTO games` names, in this order.
pub(super) const INSERT_COLUMNS: &str =
    "id, variant, start_fen, status, result, meta, plies, created_ms, updated_ms, version, \
     rated_pair, listed";

/// A game's seats, clocks and offers as the JSON of its `meta` column.
pub(super) fn meta_json(rec: &GameRecord) -> String {
    serde_json::to_string(&rec.meta).unwrap_or_else(|_| "{}".into())
}

/// Game `id`'s `meta` column read back.
///
/// # Errors
/// [`StoreError::Corrupt`] if `meta` is not a game's JSON.
pub(super) fn parse_meta(id: &str, meta: &str) -> Result<GameMeta, StoreError> {
    serde_json::from_str(meta).map_err(|e| StoreError::Corrupt {
        id: id.to_string(),
        reason: e.to_string(),
    })
}

/// A row of `games` as read ([`GAME_COLUMNS`]), before its JSON is checked.
pub(super) struct GameRow {
    pub variant: String,
    pub start_fen: String,
    pub status: String,
    pub result: Option<String>,
    pub meta: String,
    pub created_ms: i64,
    pub updated_ms: i64,
    pub version: i64,
}

impl GameRow {
    /// The record of game `id` with `moves`.
    ///
    /// # Errors
    /// [`StoreError::Corrupt`] if the `meta` column is not a game's JSON.
    pub fn into_record(self, id: String, moves: Vec<MoveRecord>) -> Result<GameRecord, StoreError> {
        let meta = parse_meta(&id, &self.meta)?;
        Ok(GameRecord {
            id,
            variant: self.variant,
            start_fen: self.start_fen,
            status: self.status,
            result: self.result,
            meta,
            moves,
            created_ms: self.created_ms as u64,
            updated_ms: self.updated_ms as u64,
            version: self.version as u64,
        })
    }
}

/// A [`GameSummary`] from the values of [`SUMMARY_COLUMNS`], whether the game's meta is rated
/// with no `unrated` reason (`meta_rated`), and the plies it needs to be rated (`min_plies`,
/// [`super::ratings::min_plies_of`]): a game ended before them is unrated, as in the archive.
pub(super) fn summary(
    (id, variant, status, result): (String, String, String, Option<String>),
    [plies, created_ms, updated_ms]: [i64; 3],
    meta_rated: bool,
    min_plies: i64,
) -> GameSummary {
    let rated = meta_rated && !(super::is_over(&status) && plies < min_plies);
    GameSummary {
        rated,
        id,
        variant,
        status,
        result,
        plies: plies as u64,
        created_ms: created_ms as u64,
        updated_ms: updated_ms as u64,
    }
}

/// The columns of a game row written by a save: everything but the moves. The save matches the
/// stored `version` and increments it.
pub(super) struct RowUpdate {
    pub id: String,
    pub status: String,
    pub result: Option<String>,
    pub meta: String,
    /// [`super::ratings::rated_pair_key`].
    pub rated_pair: Option<String>,
    /// [`listed_of`].
    pub listed: i64,
    pub plies: i64,
    pub updated_ms: i64,
    pub version: i64,
}

impl RowUpdate {
    /// What a save of `rec` writes to its row.
    pub fn of(rec: &GameRecord) -> RowUpdate {
        RowUpdate {
            id: rec.id.clone(),
            status: rec.status.clone(),
            result: rec.result.clone(),
            meta: meta_json(rec),
            rated_pair: super::ratings::rated_pair_key(rec),
            listed: listed_of(rec),
            plies: rec.moves.len() as i64,
            updated_ms: rec.updated_ms as i64,
            version: rec.version as i64,
        }
    }
}

/// `(ply, text, at_ms)` of `rec`'s moves from ply `from` on: the rows of `moves` a save writes.
pub(super) fn move_rows(rec: &GameRecord, from: usize) -> Vec<(i64, String, i64)> {
    rec.moves
        .iter()
        .enumerate()
        .skip(from)
        .map(|(ply, m)| (ply as i64, m.text.clone(), m.at_ms as i64))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_dialect_gets_its_types_and_only_postgres_the_leases() {
        let lite = schema(Dialect::Sqlite);
        assert!(lite.contains("plies INTEGER NOT NULL") && lite.contains(") WITHOUT ROWID;"));
        assert!(!lite.contains("BIGINT") && !lite.contains("leases") && !lite.contains('{'));
        let pg = schema(Dialect::Postgres);
        assert!(lite.contains("archived INTEGER NOT NULL") && pg.contains("archived BIGINT"));
        assert!(pg.contains("plies BIGINT NOT NULL") && pg.contains("leases_owner"));
        assert!(!pg.contains("INTEGER") && !pg.contains("ROWID") && !pg.contains('{'));
        assert!(pg.contains("rating DOUBLE PRECISION") && lite.contains("rating REAL"));
        assert!(pg.contains("ADD COLUMN IF NOT EXISTS signup_net") && !lite.contains("ALTER"));
        // The columns the caps count by, then their indexes and values, after the tables.
        for (column, index) in [
            ("creator", "tournaments_creator"),
            ("rated_pair", "games_rated_pair"),
        ] {
            let added = pg
                .find(&format!("ADD COLUMN IF NOT EXISTS {column}"))
                .unwrap();
            assert!(pg.find(index).unwrap() > added, "{index}");
            assert!(
                !lite.contains(index),
                "{index}: SQLite's run after its columns are added"
            );
            assert!(migrations(Dialect::Sqlite).contains(index));
        }
        for sql in [&lite, &pg] {
            assert!(sql.contains("name_key TEXT NOT NULL UNIQUE") && sql.contains("sessions_user"));
            assert!(sql.contains("signup_net TEXT\n);"));
            assert!(sql.contains("CREATE TABLE IF NOT EXISTS imports"));
            assert!(sql.contains("CREATE TABLE IF NOT EXISTS challenges"));
            assert!(sql.contains("CREATE TABLE IF NOT EXISTS api_tokens"));
        }
    }
}
