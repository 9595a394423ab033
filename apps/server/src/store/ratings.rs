//! Ratings and players' finished games in the store ([`RatingStore`]), kept by SQLite and
//! PostgreSQL alike (docs/api.md, "Ratings"):
//!
//! - `ratings`: one Glicko-2 rating per account, variant and speed, with its count of games;
//! - `player_games`: one row per finished game (with a result) and seat linked to an account,
//!   with the outcome for that account and, for a rated game, the rating before and after.
//!
//! Both are written **in the transaction of the save that finishes the game** (the backends call
//! `finish_of` and `rate` from their save), and only if the game has no `player_games` row
//! yet: a game is recorded and rated exactly once, whatever retries, conflicts, restarts or
//! instances there are, and never half (a crash before the commit leaves neither the end nor
//! the ratings; after it, both).

use super::{GameRatings, GameRecord, SeatRating, Side, StoreError};
use crown_rating::glicko::{rate_game, Glicko2, Outcome};

/// One stored rating.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingRecord {
    /// The account's id.
    pub user_id: String,
    /// Variant id (`american`, `pool`, `impasse`).
    pub variant: String,
    /// Speed id (`bullet`, `blitz`, `rapid`, `classical`).
    pub speed: String,
    /// The rating, deviation and volatility.
    pub rating: Glicko2,
    /// Rated games played in this variant and speed.
    pub games: u64,
}

/// One finished game of one account (a row of `player_games`).
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerGame {
    /// The game's id.
    pub game_id: String,
    /// The account's id.
    pub user_id: String,
    /// The account's colour.
    pub color: Side,
    /// Variant id.
    pub variant: String,
    /// Speed id; `None` for an untimed game.
    pub speed: Option<String>,
    /// Whether the game was rated.
    pub rated: bool,
    /// `win`, `draw` or `loss`, for the account.
    pub outcome: String,
    /// When the game ended, ms since the Unix epoch.
    pub ended_ms: u64,
    /// A casual, link-only game (neither rated nor public): listed to its own player only.
    pub private: bool,
    /// The rating before the game (rated games).
    pub before: Option<Glicko2>,
    /// The rating after the game (rated games).
    pub after: Option<Glicko2>,
}

impl PlayerGame {
    /// The rating change shown: the rounded new rating minus the rounded old one.
    pub fn rating_diff(&self) -> Option<i64> {
        let (b, a) = (self.before?, self.after?);
        Some(a.rating.round() as i64 - b.rating.round() as i64)
    }
}

/// What [`RatingStore::player_games`] lists.
#[derive(Clone, Debug, Default)]
pub struct GameFilter {
    /// Only this variant.
    pub variant: Option<String>,
    /// Only this speed.
    pub speed: Option<String>,
    /// Only rated (`true`) or casual (`false`) games.
    pub rated: Option<bool>,
    /// Only this outcome (`win`, `draw`, `loss`).
    pub outcome: Option<String>,
    /// Only games ended strictly before this instant (ms since the epoch).
    pub before_ms: Option<u64>,
    /// Only games ended at or after this instant (ms since the epoch).
    pub since_ms: Option<u64>,
    /// Whether private casual games are listed (the account's own request).
    pub include_private: bool,
    /// At most this many, newest first.
    pub limit: usize,
}

/// Two accounts as [`RatingStore::pair_history`] sees them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PairHistory {
    /// Both accounts have a recorded sign-up network and it is the same one.
    pub same_network: bool,
    /// Rated games between them that changed the ratings and ended since the instant asked
    /// for, plus their rated games being played (open or ongoing, not made unrated).
    pub recent_rated: u64,
}

/// The window of the per-pair cap on rated games (`--rated-games-per-pair-per-day`): 24 hours,
/// in ms.
pub const PAIR_WINDOW_MS: u64 = 24 * 3600 * 1000;

/// The per-pair cap a write of a game must keep (`--rated-games-per-pair-per-day`): a write that
/// makes a game one of its pair's rated games (its `rated_pair` column goes from none to the
/// pair: the second seat of a rated game taken, or a rated game created with both seats) is
/// refused with [`StoreError::PairLimit`] when the pair's [`PairHistory::recent_rated`] already
/// reached the cap. The store counts and writes in one step (SQLite: its one writer;
/// PostgreSQL: a transaction holding a lock on the pair), so concurrent joins cannot pass it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct PairCheck {
    /// The two accounts' ids, black's first.
    pub accounts: [String; 2],
    /// The pair's `games.rated_pair` value.
    pub pair: String,
    /// The start of the window (ms since the Unix epoch): now less [`PAIR_WINDOW_MS`].
    pub since: i64,
    /// The cap: at most this many rated games in the window.
    pub cap: i64,
}

impl PairCheck {
    /// The check a write of `rec` is under with the cap `per_day` (0: none): `None` unless the
    /// game is one of its pair's rated games ([`rated_pair_key`]).
    pub fn of(rec: &GameRecord, per_day: u32) -> Option<PairCheck> {
        if per_day == 0 {
            return None;
        }
        let pair = rated_pair_key(rec)?;
        let a = &rec.meta.accounts;
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        Some(PairCheck {
            accounts: [
                a.black.as_ref()?.user_id.clone(),
                a.white.as_ref()?.user_id.clone(),
            ],
            pair,
            since: now.saturating_sub(PAIR_WINDOW_MS).min(i64::MAX as u64) as i64,
            cap: i64::from(per_day),
        })
    }

    /// [`StoreError::PairLimit`] for game `id` when `recent` (the pair's
    /// [`PairHistory::recent_rated`], read inside the writing transaction) reached the cap.
    ///
    /// # Errors
    /// [`StoreError::PairLimit`].
    pub fn admit(&self, id: &str, recent: i64) -> Result<(), StoreError> {
        if recent >= self.cap {
            return Err(StoreError::PairLimit(id.to_string()));
        }
        Ok(())
    }
}

/// The `rated_pair` column of a game: while it is unfinished (`open` or `ongoing`), rated and
/// not made unrated, with both seats linked, its two accounts' ids in byte order, one space
/// between ([`pair_key`]); `None` otherwise. The per-pair cap on rated games counts the games
/// being played by this indexed column (`--rated-games-per-pair-per-day`).
pub(super) fn rated_pair_key(rec: &GameRecord) -> Option<String> {
    let meta = &rec.meta;
    if !matches!(rec.status.as_str(), "open" | "ongoing") || !meta.rated || meta.unrated.is_some() {
        return None;
    }
    let (b, w) = (meta.accounts.black.as_ref()?, meta.accounts.white.as_ref()?);
    Some(pair_key(&b.user_id, &w.user_id))
}

/// The `rated_pair` value of the accounts `a` and `b`, in either order.
pub(super) fn pair_key(a: &str, b: &str) -> String {
    let (x, y) = if a < b { (a, b) } else { (b, a) };
    format!("{x} {y}")
}

/// The SQL (parameters `{a}`, `{b}`, `{since}` and `{pair}`, the pair's `games.rated_pair`
/// value, [`pair_key`]) of [`PairHistory`] as one row of two integers. The games being
/// played are counted by the indexed `rated_pair` column, not by reading each unfinished game's
/// JSON.
pub(crate) fn pair_history_sql([a, b, since, pair]: [&str; 4]) -> String {
    format!(
        "SELECT (SELECT COUNT(*) FROM users x JOIN users y ON y.signup_net = x.signup_net
                 WHERE x.id = {a} AND y.id = {b}),
                (SELECT COUNT(*) FROM player_games p
                 JOIN player_games o ON o.game_id = p.game_id AND o.color <> p.color
                 WHERE p.user_id = {a} AND o.user_id = {b} AND p.rated <> 0
                   AND p.rating_after IS NOT NULL AND p.ended_ms >= {since})
              + (SELECT COUNT(*) FROM games
                 WHERE rated_pair = {pair} AND status IN ('open', 'ongoing'))"
    )
}

/// The statement (parameters `{user}`, `{rated}`, `{outcome}`: `?1`.. in SQLite, `$1`.. in
/// PostgreSQL) that counts one more finished game in `player_counts`, run with each
/// `player_games` row a finishing save writes.
pub fn count_sql(user: &str, rated: &str, outcome: &str) -> String {
    format!(
        "INSERT INTO player_counts (user_id, rated, outcome, games)
         VALUES ({user}, {rated}, {outcome}, 1)
         ON CONFLICT (user_id, rated, outcome) DO UPDATE SET games = player_counts.games + 1"
    )
}

/// The statement that counts one game fewer in `player_counts` for each `player_games` row of
/// the games whose id matches `{game}` (`= ?1`, `IN (SELECT …)`), run before those rows are
/// deleted with their game (the purge of short games, [`super::Store::purge_unstarted`]); a
/// count that reaches 0 stays, and is not read ([`counts_sql`]).
pub fn uncount_sql(game: &str) -> String {
    format!(
        "UPDATE player_counts SET games = games - (
             SELECT COUNT(*) FROM player_games p
              WHERE p.game_id {game} AND p.user_id = player_counts.user_id
                AND p.rated = player_counts.rated AND p.outcome = player_counts.outcome)
         WHERE (user_id, rated, outcome) IN
               (SELECT user_id, rated, outcome FROM player_games WHERE game_id {game})"
    )
}

/// The statement that reads one account's `player_counts` (parameter `{user}`): the groups
/// with at least one game.
pub fn counts_sql(user: &str) -> String {
    format!("SELECT rated, outcome, games FROM player_counts WHERE user_id = {user} AND games > 0")
}

/// Games and outcomes of one account: `(rated, outcome, count)` per group.
pub type OutcomeCounts = Vec<(bool, String, u64)>;

/// What a rating needs to be on the leaderboard (the leaderboard shows established ratings only,
/// against rating farms: issue 41; docs/api.md, the leaderboard).
#[derive(Clone, Copy, Debug)]
pub struct Established {
    /// Rated games of the variant and speed that reached [`Established::min_plies`], at least.
    pub min_games: u64,
    /// Different sign-up networks of the opponents in rated games of the variant and speed, at
    /// least, the player's own network not counted (an account without a recorded network is a
    /// network of its own; crate::accounts::network).
    pub min_opponents: u64,
    /// Plies a rated game must have reached to count toward [`Established::min_games`].
    pub min_plies: u64,
    /// The rating deviation, at most.
    pub max_deviation: f64,
}

/// The ratings a leaderboard considers, at most: the best of its variant and speed whose count of
/// games and deviation are enough ([`leaderboard_sql`]). Only these are checked against the rest
/// of [`Established`], so that a request costs the same however many accounts have a rating.
pub const BOARD_CANDIDATES: usize = 300;

/// The newest rated games of a variant and speed per player, at least, that the leaderboard reads
/// to decide whether a rating is [`Established`] (more when `min_games` asks for more): its cost
/// per player stays the same however large the player's archive.
pub const ESTABLISHED_WINDOW: u64 = 100;

/// The rated games a user's page shows in its rating history, at most: the newest.
pub const HISTORY_MAX: usize = 500;

/// The games of a player (private or not, any filter) that one page of its archive reads, at
/// most: a page holds the matching games among the newest `ARCHIVE_SCAN` before its `before_ms`
/// (and every game of the oldest one's millisecond), and says where the next page starts
/// ([`RatingStore::scan_edge`]).
pub const ARCHIVE_SCAN: usize = 1000;

/// The SQL (parameters `{variant}`, `{speed}`, `{limit}`, `{games}`, `{opponents}`,
/// `{deviation}`, `{plies}`, `{window}`: `?1`..`?8` in SQLite, `$1`..`$8` in PostgreSQL) of a
/// leaderboard: the accounts' names and [`RatingRecord`] columns of the best `{limit}` ratings
/// that are [`Established`], among the [`BOARD_CANDIDATES`] best with enough games and a small
/// enough deviation (read by the `ratings_board` index), each checked in its newest `{window}`
/// rated games of the variant and speed that changed a rating (the `player_games_board`
/// index): a deviation small enough, enough of them that reached `{plies}` plies, and enough different
/// sign-up networks among their opponents, where an opponent from the player's own network does
/// not count and an account without a network is its own (`'a:'` and its id: a network is hex,
/// never with a colon).
pub fn leaderboard_sql(p: [&str; 8]) -> String {
    let [variant, speed, limit, games, opponents, deviation, plies, window] = p;
    // The player's newest `{window}` rated games of this variant and speed that changed a
    // rating, as `p`: read first by the `player_games_board` index (the `LIMIT` keeps a
    // planner from joining the whole archive before it), then joined by primary keys.
    let mine = format!(
        "(SELECT game_id, color FROM player_games
          WHERE user_id = r.user_id AND rated = 1 AND variant = r.variant AND speed = r.speed
            AND rating_after IS NOT NULL
          ORDER BY ended_ms DESC LIMIT {window}) p"
    );
    format!(
        "SELECT u.name, r.user_id, r.variant, r.speed, r.rating, r.deviation, r.volatility,
                r.games
         FROM (SELECT * FROM ratings
               WHERE variant = {variant} AND speed = {speed} AND games > 0
                 AND games >= {games} AND deviation <= {deviation}
               ORDER BY rating DESC LIMIT {BOARD_CANDIDATES}) r
         JOIN users u ON u.id = r.user_id
         WHERE (SELECT COUNT(*) FROM {mine} JOIN games g ON g.id = p.game_id
                WHERE g.plies >= {plies}) >= {games}
           AND (SELECT COUNT(DISTINCT COALESCE(ou.signup_net, 'a:' || o.user_id))
                FROM {mine}
                JOIN player_games o ON o.game_id = p.game_id AND o.color <> p.color
                LEFT JOIN users ou ON ou.id = o.user_id
                WHERE u.signup_net IS NULL OR ou.signup_net IS NULL
                      OR ou.signup_net <> u.signup_net) >= {opponents}
         ORDER BY r.rating DESC, u.name_key LIMIT {limit}"
    )
}

/// The `{window}` of [`leaderboard_sql`] for `e`: [`ESTABLISHED_WINDOW`], or `e.min_games` when
/// that is more.
pub fn window_of(e: &Established) -> i64 {
    ESTABLISHED_WINDOW.max(e.min_games).min(i64::MAX as u64) as i64
}

/// The SQL (parameters `{user}` and `{limit}`) of a user's rating history: its newest `{limit}`
/// rated games (by the `player_games_rated` index), oldest first, as `columns`.
pub fn history_sql(columns: &str, user: &str, limit: &str) -> String {
    format!(
        "SELECT {columns} FROM (SELECT {columns} FROM player_games
                                WHERE user_id = {user} AND rated = 1
                                ORDER BY ended_ms DESC, game_id DESC LIMIT {limit}) h
         ORDER BY ended_ms, game_id"
    )
}

/// The SQL (parameters `{user}`, `{before}` — `NULL`: none — and `{offset}`) of
/// [`RatingStore::scan_edge`]: the `ended_ms` of the player's game `{offset}` places after the
/// newest before `{before}` (`{offset}` 0: the newest) and of the game after it, if they exist,
/// read from the `player_games_user` index alone.
pub fn scan_edge_sql(user: &str, before: &str, offset: &str) -> String {
    format!(
        "SELECT ended_ms FROM player_games
         WHERE user_id = {user} AND ended_ms < COALESCE({before}, 9223372036854775807)
         ORDER BY ended_ms DESC LIMIT 2 OFFSET {offset}"
    )
}

/// One value bound to a statement of [`archive_sql`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SqlArg {
    /// A text.
    Text(String),
    /// An integer.
    Int(i64),
}

/// The SQL of [`RatingStore::player_games`] for `user_id` and `f`, as `columns`, with the
/// values of its parameters in order (`param(n)` spells the `n`-th, from 1): only the filters
/// `f` sets are written, so that the `player_games_user` index's range on `(user_id, ended_ms)`
/// bounds what it reads.
pub fn archive_sql(
    columns: &str,
    user_id: &str,
    f: &GameFilter,
    param: fn(usize) -> String,
) -> (String, Vec<SqlArg>) {
    let mut args = vec![SqlArg::Text(user_id.to_string())];
    let mut sql = format!(
        "SELECT {columns} FROM player_games WHERE user_id = {}",
        param(1)
    );
    let mut add = |cond: &str, arg: SqlArg| {
        args.push(arg);
        sql.push_str(&format!(" AND {cond} {}", param(args.len())));
    };
    let int = |v: u64| SqlArg::Int(v.min(i64::MAX as u64) as i64);
    if let Some(v) = &f.variant {
        add("variant =", SqlArg::Text(v.clone()));
    }
    if let Some(s) = &f.speed {
        add("speed =", SqlArg::Text(s.clone()));
    }
    if let Some(r) = f.rated {
        add("rated =", SqlArg::Int(i64::from(r)));
    }
    if let Some(o) = &f.outcome {
        add("outcome =", SqlArg::Text(o.clone()));
    }
    if let Some(b) = f.before_ms {
        add("ended_ms <", int(b));
    }
    if let Some(s) = f.since_ms {
        add("ended_ms >=", int(s));
    }
    if !f.include_private {
        sql.push_str(" AND private = 0");
    }
    args.push(int(f.limit as u64));
    sql.push_str(&format!(
        " ORDER BY ended_ms DESC, game_id LIMIT {}",
        param(args.len())
    ));
    (sql, args)
}

/// Storage of ratings and players' finished games. Each call is one read.
pub trait RatingStore: Send + Sync {
    /// The ratings of `keys` (`(user_id, variant, speed)`), in order; `None` where the account
    /// has no rated game of that variant and speed.
    ///
    /// # Errors
    /// [`StoreError::Database`], [`StoreError::Postgres`] and the like.
    fn ratings_of(
        &self,
        keys: &[(String, String, String)],
    ) -> Result<Vec<Option<RatingRecord>>, StoreError>;

    /// Every rating of account `user_id`.
    ///
    /// # Errors
    /// As [`RatingStore::ratings_of`].
    fn user_ratings(&self, user_id: &str) -> Result<Vec<RatingRecord>, StoreError>;

    /// The best `limit` ratings of `variant` and `speed` that are `established`, by rating
    /// descending (then name), each with the account's name, as [`leaderboard_sql`] finds them
    /// (among the [`BOARD_CANDIDATES`] best, each by its newest rated games).
    ///
    /// # Errors
    /// As [`RatingStore::ratings_of`].
    fn leaderboard(
        &self,
        variant: &str,
        speed: &str,
        established: &Established,
        limit: usize,
    ) -> Result<Vec<(String, RatingRecord)>, StoreError>;

    /// The finished games of account `user_id` matching `filter`, newest first (then by game id).
    ///
    /// # Errors
    /// As [`RatingStore::ratings_of`].
    fn player_games(
        &self,
        user_id: &str,
        filter: &GameFilter,
    ) -> Result<Vec<PlayerGame>, StoreError>;

    /// The newest `limit` rated games of account `user_id`, oldest first.
    ///
    /// # Errors
    /// As [`RatingStore::ratings_of`].
    fn rating_history(&self, user_id: &str, limit: usize) -> Result<Vec<PlayerGame>, StoreError>;

    /// The `ended_ms` of account `user_id`'s game `offset` places after its newest game ended
    /// before `before_ms` (any game, private or not; `offset` 0: the newest) when it has a game
    /// after that one; `None` when it has no more: where a window of `offset + 1` games reaches
    /// if the archive goes on beyond it ([`ARCHIVE_SCAN`]).
    ///
    /// # Errors
    /// As [`RatingStore::ratings_of`].
    fn scan_edge(
        &self,
        user_id: &str,
        before_ms: Option<u64>,
        offset: usize,
    ) -> Result<Option<u64>, StoreError>;

    /// What the rating rules need to know of two accounts `a` and `b` about to begin a rated
    /// game ([`PairHistory`]): whether they signed up from one network, and how many rated games
    /// between them began since `since_ms`.
    ///
    /// # Errors
    /// As [`RatingStore::ratings_of`].
    fn pair_history(&self, a: &str, b: &str, since_ms: u64) -> Result<PairHistory, StoreError>;

    /// The count of finished games of account `user_id` by rated and outcome, kept in
    /// `player_counts` by the save that records each game ([`count_sql`]): one row read per
    /// group, however many games.
    ///
    /// # Errors
    /// As [`RatingStore::ratings_of`].
    fn outcome_counts(&self, user_id: &str) -> Result<OutcomeCounts, StoreError>;
}

/// The `player_games` rows a save of `rec` records (without ratings), if it is a finished game
/// with a result and at least one seat linked to an account; `None` otherwise (nothing to do).
pub(super) fn finish_of(rec: &GameRecord) -> Option<Vec<PlayerGame>> {
    if rec.status != "finished" || rec.meta.accounts.is_empty() {
        return None;
    }
    let result = rec.result.as_deref()?;
    let variant: crown_core::Variant = rec.variant.parse().ok()?;
    let first = variant.first_player();
    let winner = match result {
        "1-0" => Some(first),
        "0-1" => Some(first.opposite()),
        "1/2-1/2" => None,
        _ => return None,
    };
    let speed = rec.meta.speed().map(|s| s.name().to_string());
    let rated = rated_pair(rec).is_some();
    let rows = crown_core::Color::ALL
        .into_iter()
        .filter_map(|c| {
            let a = rec.meta.accounts.get(c)?;
            let outcome = match winner {
                None => "draw",
                Some(w) if w == c => "win",
                Some(_) => "loss",
            };
            Some(PlayerGame {
                game_id: rec.id.clone(),
                user_id: a.user_id.clone(),
                color: c.into(),
                variant: rec.variant.clone(),
                speed: speed.clone(),
                rated,
                outcome: outcome.to_string(),
                ended_ms: rec.updated_ms,
                private: !rated && !rec.meta.public,
                before: None,
                after: None,
            })
        })
        .collect();
    Some(rows)
}

/// The fewest plies a rated game must have reached to be rated: each side's first move. A rated
/// game resigned or drawn before both sides moved (which would let two accounts trade rating
/// points without playing) is recorded in the archive, unrated, as lichess does. The server's
/// `--rated-min-plies` (stored in each game's [`super::GameMeta::rated_min_plies`]) may ask for
/// more, never less.
pub const RATED_MIN_PLIES: usize = 2;

/// The plies the rated game of `meta` must reach to change the ratings.
pub fn min_plies_of(meta: &super::GameMeta) -> usize {
    RATED_MIN_PLIES.max(meta.rated_min_plies as usize)
}

/// Whether a game of `status` and PDN `result` ended with a result: `finished` with one (a win,
/// a draw, time). An `aborted` game has none, nor has a `finished` one that was cancelled or
/// abandoned (`result` `None`).
fn ended_with_result(status: &str, result: Option<&str>) -> bool {
    status == "finished" && result.is_some()
}

/// Why a game created rated (`meta.rated`) is not rated (docs/api.md, "Ratings"):
/// [`super::GameMeta::unrated`] as decided when its second seat was taken (`same_network`,
/// `pair_limit`), or `too_short` once it ended with a result (`status` `finished`, `result`
/// set) with fewer than [`min_plies_of`] `plies`. `None` for a rated game that is (or, while it
/// goes on, may be) rated, for one that ended without a result (aborted, cancelled, abandoned:
/// it changes no rating anyway), and for a casual game (never rated: no reason needed).
pub fn unrated_reason<'a>(
    meta: &'a super::GameMeta,
    status: &str,
    result: Option<&str>,
    plies: usize,
) -> Option<&'a str> {
    if !meta.rated {
        return None;
    }
    if let Some(r) = meta.unrated.as_deref() {
        return Some(r);
    }
    (ended_with_result(status, result) && plies < min_plies_of(meta)).then_some("too_short")
}

/// Whether the game of `meta` is rated: created rated, with no [`super::GameMeta::unrated`]
/// reason, and not over (`status`, with or without a result) before [`min_plies_of`] `plies` —
/// as the game lists and the archive count it (`schema.rs`). A game over without a result
/// before them (aborted, cancelled, abandoned) is thus not rated yet has no [`unrated_reason`].
pub fn is_rated(meta: &super::GameMeta, status: &str, plies: usize) -> bool {
    meta.rated && meta.unrated.is_none() && !(super::is_over(status) && plies < min_plies_of(meta))
}

/// The rating keys (`(user_id, variant, speed)` of black, of white) of a rated game between two
/// accounts with a clock (or days per move) that reached [`min_plies_of`] plies and was not made unrated when it
/// began ([`unrated_reason`]); `None` for a casual game or any other.
pub(super) fn rated_pair(rec: &GameRecord) -> Option<[(String, String, String); 2]> {
    let meta = &rec.meta;
    if !meta.rated || meta.unrated.is_some() || rec.moves.len() < min_plies_of(meta) {
        return None;
    }
    let speed = meta.speed()?.name().to_string();
    let (b, w) = (meta.accounts.black.as_ref()?, meta.accounts.white.as_ref()?);
    if b.user_id == w.user_id {
        return None;
    }
    let key = |u: &str| (u.to_string(), rec.variant.clone(), speed.clone());
    Some([key(&b.user_id), key(&w.user_id)])
}

/// Rate the finished game `rec` (rated, `rows` from [`finish_of`]) from the players' current
/// ratings `[black, white]` (`None`: a new player, 1500/350/0.06): fills the rows' ratings and
/// returns the game's [`GameRatings`] (for `meta.ratings`) and the new `[black, white]`.
pub(super) fn rate(
    rows: &mut [PlayerGame],
    current: [Option<Glicko2>; 2],
) -> (GameRatings, [Glicko2; 2]) {
    let [b, w] = current.map(Option::unwrap_or_default);
    let black_outcome = rows
        .iter()
        .find(|r| r.color == Side::Black)
        .map_or(Outcome::Draw, |r| match r.outcome.as_str() {
            "win" => Outcome::Win,
            "loss" => Outcome::Loss,
            _ => Outcome::Draw,
        });
    let (nb, nw) = rate_game(b, w, black_outcome);
    for r in rows.iter_mut() {
        let (before, after) = match r.color {
            Side::Black => (b, nb),
            Side::White => (w, nw),
        };
        r.before = Some(before);
        r.after = Some(after);
    }
    let seat = |before, after| SeatRating {
        before,
        after: Some(after),
    };
    (
        GameRatings {
            black: seat(b, nb),
            white: seat(w, nw),
        },
        [nb, nw],
    )
}

/// The colour's name as stored in `player_games.color`.
pub(super) fn side_of(s: &str) -> Side {
    Side::parse(s).unwrap_or(Side::Black)
}
