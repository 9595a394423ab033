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

/// The SQL (parameters `{a}`, `{b}`, `{since}` and `{pair}`, the pair's `games.rated_pair`
/// value, `schema::pair_key`) of [`PairHistory`] as one row of two integers. The games being
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

/// The SQL condition (for a row `r` of `ratings` and the player's row `u` of `users`) of
/// [`Established`], with its four values as the parameters `{games}`, `{opponents}`,
/// `{deviation}` and `{plies}` (`?4` in SQLite, `$4` in PostgreSQL...): a deviation small enough,
/// enough rated games that changed a rating and reached `{plies}` plies, and enough different
/// sign-up networks among the opponents of the rated games that changed a rating, where an
/// opponent from the player's own network does not count and an account without a network is
/// its own (`'a:'` and its id: a network is hex, never with a colon).
pub(crate) fn established_sql(
    games: &str,
    opponents: &str,
    deviation: &str,
    plies: &str,
) -> String {
    format!(
        "r.games >= {games} AND r.deviation <= {deviation}
         AND (SELECT COUNT(*) FROM player_games p JOIN games g ON g.id = p.game_id
              WHERE p.user_id = r.user_id AND p.variant = r.variant AND p.speed = r.speed
                AND p.rated <> 0 AND p.rating_after IS NOT NULL
                AND g.plies >= {plies}) >= {games}
         AND (SELECT COUNT(DISTINCT COALESCE(ou.signup_net, 'a:' || o.user_id))
              FROM player_games p
              JOIN player_games o ON o.game_id = p.game_id AND o.color <> p.color
              LEFT JOIN users ou ON ou.id = o.user_id
              WHERE p.user_id = r.user_id AND p.variant = r.variant AND p.speed = r.speed
                AND p.rated <> 0 AND p.rating_after IS NOT NULL
                AND (u.signup_net IS NULL OR ou.signup_net IS NULL
                     OR ou.signup_net <> u.signup_net)) >= {opponents}"
    )
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
    /// descending (then name), each with the account's name.
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

    /// Every rated game of account `user_id`, oldest first.
    ///
    /// # Errors
    /// As [`RatingStore::ratings_of`].
    fn rating_history(&self, user_id: &str) -> Result<Vec<PlayerGame>, StoreError>;

    /// What the rating rules need to know of two accounts `a` and `b` about to begin a rated
    /// game ([`PairHistory`]): whether they signed up from one network, and how many rated games
    /// between them began since `since_ms`.
    ///
    /// # Errors
    /// As [`RatingStore::ratings_of`].
    fn pair_history(&self, a: &str, b: &str, since_ms: u64) -> Result<PairHistory, StoreError>;

    /// The count of finished games of account `user_id` by rated and outcome.
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
